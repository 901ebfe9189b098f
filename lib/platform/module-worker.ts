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
 * Starts a worker thread on a module of this code base. The sources are TypeScript that Node runs
 * as it is (its type stripping: `npm start`, and the vitest run's own Node), so the worker imports
 * its entry directly, `.ts` or a compiled `.js`. A named worker also names its OS thread
 * (`nameThreadSource`).
 */
export function startModuleWorker(
  entry: URL,
  options: Pick<WorkerOptions, 'workerData' | 'name'> = {},
): Worker {
  const source = `import(${JSON.stringify(entry.href)})`;
  const naming = options.name ? nameThreadSource(options.name) : '';
  // A failed import rejects inside the worker; rethrown outside the promise it becomes the worker's 'error' event.
  return new Worker(`${naming}${source}.catch((error) => { setImmediate(() => { throw error; }); });`, {
    ...options,
    eval: true,
  });
}
