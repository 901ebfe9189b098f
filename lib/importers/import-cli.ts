import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { gatusImporter } from './gatus.ts';
import { importHealthchecks } from './healthchecks.ts';
import { type Conversion, ImportError } from './importer.ts';

/**
 * `vigil import kuma|gatus|healthchecks <source>`: converts another product's configuration and
 * writes the Vigil document to stdout as YAML (to review, then `vigil plan -f` / `apply -f`),
 * and what it could not map to stderr, one line each. It needs no store and no configuration,
 * so bin/vigil.ts dispatches it before the operator commands.
 */

const IMPORT_USAGE = `Usage:
  vigil import gatus <config.yaml>
  vigil import kuma <backup.json | kuma.db>
  vigil import healthchecks --url <https://healthchecks.io> [--api-key <key>]
      (the key may come from HEALTHCHECKS_API_KEY instead)
The document is written to stdout (YAML), what could not be mapped to stderr.`;

/** Where the command writes, and the Healthchecks key from the environment (read in bin/). */
export interface ImportIo {
  stdout: Writable;
  stderr: Writable;
  healthchecksApiKey?: string | undefined;
  /** The fetch the Healthchecks importer uses (tests); the global one by default. */
  fetch?: typeof fetch;
}

/** The largest file read: a Kuma backup with thousands of monitors stays far below it. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

class UsageError extends Error {}

/** Runs the command; answers the exit status (0 converted, 1 a source it cannot read, 2 a usage error). */
export async function importCli(args: string[], io: ImportIo): Promise<number> {
  let conversion: Conversion;
  try {
    conversion = await convert(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n${IMPORT_USAGE}\n`);
      return 2;
    }
    if (error instanceof ImportError || isFileError(error)) {
      io.stderr.write(`vigil import: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
  io.stdout.write(stringify(conversion.document, { aliasDuplicateObjects: false, lineWidth: 0 }));
  if (conversion.unmapped.length > 0) {
    io.stderr.write(
      `Not mapped (${conversion.unmapped.length}):\n${conversion.unmapped.map((l) => `  ${l}\n`).join('')}`,
    );
  }
  return 0;
}

async function convert(args: string[], io: ImportIo): Promise<Conversion> {
  const [source, ...rest] = args;
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  switch (source) {
    case 'gatus':
      return gatusImporter.convert(await readSource(onePath(source, positionals)));
    case 'kuma':
      return (await kumaImporter()).importKuma(onePath(source, positionals));
    case 'healthchecks': {
      if (positionals.length > 0)
        throw new UsageError(`import healthchecks takes no file: ${positionals.join(' ')}`);
      const apiKey = values['api-key'] ?? io.healthchecksApiKey;
      if (!values.url)
        throw new UsageError('import healthchecks needs --url (https://healthchecks.io or your site)');
      if (!apiKey) throw new UsageError('import healthchecks needs --api-key (or HEALTHCHECKS_API_KEY)');
      return importHealthchecks({ url: values.url, apiKey, ...(io.fetch ? { fetch: io.fetch } : {}) });
    }
    default:
      throw new UsageError(source ? `vigil import cannot read "${source}"` : 'vigil import needs a source');
  }
}

const OPTIONS = { url: { type: 'string' }, 'api-key': { type: 'string' } } as const;

function onePath(source: string, positionals: string[]): string {
  const [path, ...more] = positionals;
  if (!path || more.length > 0) throw new UsageError(`import ${source} takes one file`);
  return path;
}

async function readSource(path: string): Promise<string> {
  const bytes = await readFile(path);
  if (bytes.length > MAX_FILE_BYTES) throw new ImportError(`${path} is larger than 64 MB.`);
  return bytes.toString('utf8');
}

function isFileError(error: unknown): boolean {
  return (
    error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'path' in error
  );
}

/** The Kuma importer (./kuma.ts), loaded when asked for: it reads SQLite databases, which the other sources do not need. */
const kumaImporter = () => import('./kuma.ts');
