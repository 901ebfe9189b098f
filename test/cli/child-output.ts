import type { ChildProcess } from 'node:child_process';

/** How a process ended, with all it wrote. */
export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What a child spawned with piped stdout and stderr writes: `exited` settles when it has closed
 * (killed with SIGKILL after 60 s at the latest), `stdout()` reads what it wrote so far.
 */
export function childOutput(child: ChildProcess): { exited: Promise<Exited>; stdout(): string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<Exited>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
  return { exited, stdout: () => stdout };
}
