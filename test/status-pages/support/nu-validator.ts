import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The W3C Nu Html Checker (npm `vnu-jar`, the checker validator.w3.org/nu runs), on Java 17 as
 * DynamoDB Local is: every page given is written to a file and checked in one JVM run, and the
 * answer is each page's errors (warnings and info messages aside), as `name:line: message`.
 */

const run = promisify(execFile);
const JAR = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');

interface NuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
}

/** The checker's errors over named pages ([] when every page is valid HTML). */
export async function nuErrors(pages: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-nu-'));
  try {
    const files = await Promise.all(
      Object.entries(pages).map(async ([name, html], i) => {
        const path = join(dir, `${i}.html`);
        await writeFile(path, html);
        return [path, name] as const;
      }),
    );
    const names = new Map(files.map(([path, name]) => [`file:${path}`, name]));
    // The checker exits 1 when it reports an error: its JSON on stderr says which.
    const { stderr } = await run(
      'java',
      ['-jar', JAR, '--format', 'json', '--exit-zero-always', ...files.map(([p]) => p)],
      { encoding: 'utf8', timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const { messages } = JSON.parse(stderr) as { messages: NuMessage[] };
    return messages
      .filter((m) => m.type !== 'info')
      .map((m) => `${names.get(m.url ?? '') ?? m.url}:${m.lastLine ?? '?'}: ${m.message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
