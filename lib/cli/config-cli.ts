import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { AppliedChange, ApplyResult, Plan } from '../config-doc/kind.ts';
import { appliedLine, planText } from '../config-doc/plan-text.ts';
import { call, jsonLines, type Server, ServerError } from './config-http.ts';

/**
 * `vigil export`, `vigil plan -f <file>` and `vigil apply -f <file>` (docs/cli.md): the
 * configuration routes of a Vigil server, local or in the cloud, called with an API key. Exit
 * statuses: 0 success (plan: no changes), 1 an error or (apply) an object that failed, 2 (plan
 * only) changes to make, as `terraform plan -detailed-exitcode`.
 */

const CONFIG_USAGE = `Usage: npm run vigil -- <export|plan|apply> [options]

  export [-o <file>] [--json]
      Write the tenant's configuration document (YAML; JSON with --json) to <file> or stdout.
      Secrets are \${ENV} references, never values.
  plan -f <file> [--prune]
      Print what applying <file> would change (+ create, ~ update with each field, - delete with
      --prune), changing nothing. Exit 0: no changes; 2: changes; 1: an error.
  apply -f <file> [--prune] [--yes]
      Apply <file> object by object, printing each object's outcome and a summary. Without --yes
      it prints the plan and asks first (from a terminal only). Exit 1 when an object failed.

Every command: --url <server> (or VIGIL_URL), --key <vgl_ key> (or VIGIL_API_KEY),
--timeout <seconds> (default 60; apply 900). \${NAME} references in <file> are replaced by the
environment's NAME before sending, when it is set; the others are sent as they are.`;

/** Where the commands read and write, and the environment (bin/vigil.ts passes the process's). */
export interface ConfigCliIo {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

class UsageError extends Error {}

const OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  timeout: { type: 'string' },
  output: { type: 'string', short: 'o' },
  file: { type: 'string', short: 'f' },
  json: { type: 'boolean' },
  prune: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

/** Runs `vigil <command> …`; answers the exit status. */
export async function configCli(
  command: 'export' | 'plan' | 'apply',
  args: string[],
  io: ConfigCliIo,
): Promise<number> {
  let values: Values;
  try {
    values = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (err) {
    io.stderr.write(`vigil ${command}: ${(err as Error).message}\n\n${CONFIG_USAGE}\n`);
    return 1;
  }
  if (values.help) {
    io.stdout.write(`${CONFIG_USAGE}\n`);
    return 0;
  }
  try {
    const server = serverOf(command, values, io.env);
    if (command === 'export') return await exportConfig(server, values, io);
    const document = await documentOf(values, io.env);
    if (command === 'plan') return await planConfig(server, document, values, io);
    return await applyConfig(server, document, values, io);
  } catch (err) {
    if (!(err instanceof ServerError || err instanceof UsageError)) throw err;
    io.stderr.write(`vigil ${command}: ${err.message}\n`);
    return 1;
  }
}

function serverOf(command: string, values: Values, env: ConfigCliIo['env']): Server {
  const url = values.url ?? env.VIGIL_URL;
  const key = values.key ?? env.VIGIL_API_KEY;
  if (!url) throw new UsageError('no server: pass --url or set VIGIL_URL');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http(s) URL, not ${url}`);
  if (!key) throw new UsageError('no API key: pass --key or set VIGIL_API_KEY');
  const seconds = values.timeout === undefined ? (command === 'apply' ? 900 : 60) : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
    throw new UsageError('--timeout must be a number of seconds from 1 to 3600');
  return { url, key, timeoutMs: seconds * 1000 };
}

/** The document to send: the file's text with its set `${NAME}` references resolved, and its media type. */
interface Document {
  text: string;
  contentType: string;
}

async function documentOf(values: Values, env: ConfigCliIo['env']): Promise<Document> {
  if (!values.file) throw new UsageError('which document? pass -f <file>');
  let text: string;
  try {
    text = await readFile(values.file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${values.file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  const json = values.file.endsWith('.json') || text.trimStart().startsWith('{');
  return { text: resolveReferences(text, env), contentType: json ? 'application/json' : 'application/yaml' };
}

/**
 * Replaces each `${NAME}` that is a whole value (quoted or not, in YAML or JSON) by the
 * environment's NAME, written as a JSON string (valid in both); references the environment does
 * not set stay, for the server to keep the stored secret. A `${NAME}` inside a longer string is
 * not a reference (DECISIONS "Configuration as code") and is left alone.
 */
export function resolveReferences(text: string, env: ConfigCliIo['env']): string {
  const value = (name: string, original: string) => {
    const set = env[name];
    return set === undefined ? original : JSON.stringify(set);
  };
  return text
    .replace(/(["'])\$\{([A-Z][A-Z0-9_]*)\}\1/g, (m, _q, name: string) => value(name, m))
    .replace(/(?<=(?:^|[:,[{-])[ \t]*)\$\{([A-Z][A-Z0-9_]*)\}(?=[ \t]*(?:$|[,\]}#]))/gm, (m, name: string) =>
      value(name, m),
    );
}

const pruneQuery = (values: Values) => (values.prune ? '?prune=true' : '');

async function exportConfig(server: Server, values: Values, io: ConfigCliIo): Promise<number> {
  const accept = values.json ? 'application/json' : 'application/yaml';
  const res = await call(server, 'GET', 'v1/config/export', { accept });
  const text = await res.text();
  const body = text.endsWith('\n') ? text : `${text}\n`;
  if (values.output) {
    await writeFile(values.output, body, { mode: 0o644 });
    io.stderr.write(`Wrote ${values.output}.\n`);
  } else io.stdout.write(body);
  return 0;
}

async function fetchPlan(server: Server, document: Document, values: Values): Promise<Plan> {
  const res = await call(server, 'POST', `v1/config/plan${pruneQuery(values)}`, {
    accept: 'application/json',
    body: document.text,
    contentType: document.contentType,
  });
  return (await res.json()) as Plan;
}

async function planConfig(server: Server, document: Document, values: Values, io: ConfigCliIo) {
  const plan = await fetchPlan(server, document, values);
  io.stdout.write(`${planText(plan)}\n`);
  return plan.changes.length ? 2 : 0;
}

/** Asks on the terminal whether to go on; a non-terminal stdin cannot answer, so --yes is needed. */
async function confirmed(io: ConfigCliIo): Promise<boolean> {
  if (!io.stdin.isTTY) throw new UsageError('stdin is not a terminal to confirm on: pass --yes to apply');
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question('Apply these changes? [y/N] ')).trim());
  } finally {
    rl.close();
  }
}

async function applyConfig(server: Server, document: Document, values: Values, io: ConfigCliIo) {
  if (!values.yes) {
    const plan = await fetchPlan(server, document, values);
    io.stdout.write(`${planText(plan)}\n`);
    if (!plan.changes.length) return 0;
    if (!(await confirmed(io))) {
      io.stderr.write('Nothing applied.\n');
      return 1;
    }
  }
  const res = await call(server, 'POST', `v1/config/apply${pruneQuery(values)}`, {
    accept: 'application/x-ndjson',
    body: document.text,
    contentType: document.contentType,
  });
  let summary: ApplyResult['summary'] | undefined;
  const print = (change: AppliedChange) => io.stdout.write(`${appliedLine(change)}\n`);
  if (!(res.headers.get('content-type') ?? '').includes('ndjson')) {
    // A server that answers the whole result at once: the same lines, after the fact.
    const result = (await res.json()) as ApplyResult;
    result.changes.forEach(print);
    summary = result.summary;
  } else {
    for await (const line of jsonLines(res)) {
      if (line.summary && typeof line.summary === 'object') summary = line.summary as ApplyResult['summary'];
      else if (typeof line.created === 'number' && typeof line.failed === 'number')
        summary = line as unknown as ApplyResult['summary'];
      else if (typeof line.error === 'string' && !line.op)
        throw new ServerError(`apply stopped: ${line.error}`);
      else print(line as unknown as AppliedChange);
    }
  }
  if (!summary) throw new ServerError('the answer ended before its summary: some objects may not be applied');
  io.stdout.write(
    `Applied: ${summary.created} created, ${summary.updated} updated, ${summary.deleted} deleted, ${summary.failed} failed, ${summary.unchanged} unchanged.\n`,
  );
  return summary.failed > 0 ? 1 : 0;
}
