import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/**
 * Runs the server with the given environment and waits until it prints its URL: `npm start` when
 * `viaNpm` (npm re-raises signals, so its exit code is not the server's), else the same entry point
 * directly (`node --import tsx bin/serve.ts`, which is what the start script runs).
 */
export async function startServeProcess(
  env: Record<string, string>,
  options: { viaNpm?: boolean; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const [command, args] = options.viaNpm
    ? ['npm', ['start', '--silent']]
    : [process.execPath, ['--import', 'tsx', 'bin/serve.ts']];
  const child = spawn(command, args, {
    cwd: root,
    // Rate limits off unless the test sets them (see NO_RATE_LIMITS in api-harness.ts).
    env: {
      ...process.env,
      PORT: '0',
      VIGIL_LOG_LEVEL: 'info',
      VIGIL_RATE_LIMIT_RPS: '0',
      VIGIL_AUTH_FAILURE_LIMIT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL printed in ${timeoutMs} ms:\n${out}\n${err}`)),
      timeoutMs,
    );
    const poll = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(m[1]);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${out}\n${err}`));
    });
  });
  return { child, url, stdout: () => out, stderr: () => err, exited };
}

/** Sends a signal to the server process. */
export function signalGroup(proc: ServeProcess, signal: NodeJS.Signals): void {
  proc.child.kill(signal);
}
