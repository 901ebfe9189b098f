import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Linux keeps at most 15 bytes of a thread's name. */
const OS_THREAD_NAME_BYTES = 15;

/**
 * Worker source that names the worker's OS thread (Linux: `/proc/thread-self/comm`), so `top -H`,
 * `ps -L` and `/proc/<pid>/task/*` show which thread of the process is which. Best effort: on
 * other systems, or when the name cannot be set, the thread keeps its default name.
 */
export function nameThreadSource(name: string): string {
  const osName = Buffer.from(name).subarray(0, OS_THREAD_NAME_BYTES).toString();
  return `try { require('node:fs').writeFileSync('/proc/thread-self/comm', ${JSON.stringify(osName)}); } catch {}\n`;
}

/**
 * Starts a worker thread on a module of this code base. The sources are TypeScript run through
 * tsx (`npm start`, vitest); tsx's loader is not inherited by worker threads, so the worker first
 * registers it and then imports its entry. A compiled `.js` entry is imported directly. A named
 * worker also names its OS thread (`nameThreadSource`).
 */
export function startModuleWorker(
  entry: URL,
  options: Pick<WorkerOptions, 'workerData' | 'name'> = {},
): Worker {
  const source = entry.pathname.endsWith('.ts')
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`
    : `import(${JSON.stringify(entry.href)})`;
  const naming = options.name ? nameThreadSource(options.name) : '';
  // A failed import rejects inside the worker; rethrown outside the promise it becomes the worker's 'error' event.
  return new Worker(`${naming}${source}.catch((error) => { setImmediate(() => { throw error; }); });`, {
    ...options,
    eval: true,
  });
}
