import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on a module of this code base. The sources are TypeScript run through
 * tsx (`npm start`, vitest); tsx's loader is not inherited by worker threads, so the worker first
 * registers it and then imports its entry. A compiled `.js` entry is imported directly.
 */
export function startModuleWorker(
  entry: URL,
  options: Pick<WorkerOptions, 'workerData' | 'name'> = {},
): Worker {
  const source = entry.pathname.endsWith('.ts')
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`
    : `import(${JSON.stringify(entry.href)})`;
  // A failed import rejects inside the worker; rethrown outside the promise it becomes the worker's 'error' event.
  return new Worker(`${source}.catch((error) => { setImmediate(() => { throw error; }); });`, {
    ...options,
    eval: true,
  });
}
