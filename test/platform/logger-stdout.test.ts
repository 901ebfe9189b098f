import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const loggerModule = fileURLToPath(new URL('../../lib/platform/logger.ts', import.meta.url));

/** Runs a script in a fresh Node process (tsx) and returns its stdout. */
function run(script: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, LOGGER: loggerModule },
  });
}

describe('the stdout logger', () => {
  it('writes every line in order, including those logged just before process.exit', () => {
    const out = run(`
      const { createLogger } = await import(process.env.LOGGER);
      const log = createLogger({ level: 'info' });
      log.info('first', { n: 1 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      for (let n = 2; n <= 500; n += 1) log.info('line', { n, token: 'secret-value' });
      log.debug('dropped');
      process.exit(0);
    `);
    const lines = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'first' });
    expect(out).not.toContain('secret-value');
  });
});
