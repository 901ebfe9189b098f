import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/**
 * Runs an entry point of this repository (`bin/…`, through tsx) to its end with `env` added to this
 * process's, answering its exit code and output; killed, and the promise rejected, after `boundMs`.
 */
export function runToEnd(
  script: string,
  args: string[],
  env: Record<string, string>,
  boundMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not end:\n${stdout}\n${stderr}`));
    }, boundMs);
    child.once('close', (code) => {
      clearTimeout(bound);
      resolve({ code, stdout, stderr });
    });
  });
}
