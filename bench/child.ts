import { type ChildProcess, fork } from 'node:child_process';
import { openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { stopProcess, track } from './processes.ts';
import { startFlagsOf } from './start-flags.ts';

/** The benchmark's child processes: each workload runs in its own process, driven over IPC. */

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(benchDir, '..');

export interface BenchChild {
  process: ChildProcess;
  /** Sends a message and waits for the first reply of type `replyType`, parsed with `schema`. */
  ask<S extends z.ZodType>(
    message: object,
    replyType: string,
    schema: S,
    timeoutMs?: number,
  ): Promise<z.output<S>>;
  /** Waits for the next message of type `type`. */
  next<S extends z.ZodType>(type: string, schema: S, timeoutMs?: number): Promise<z.output<S>>;
  /** Ends the process (SIGTERM, then SIGKILL after 5 s) and waits for its exit. */
  stop(): Promise<void>;
}

export interface ChildOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Where the child's stdout and stderr go (a file); default inherited. */
  logFile?: string;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** The checkout whose bench/<module> runs (--against: another commit's code); default this one. */
  root?: string;
}

/** Forks `bench/<module>` (of `options.root`, default this checkout) as that checkout starts (start-flags.ts), with an IPC channel. */
export function startChild(module: string, options: ChildOptions = {}): BenchChild {
  const out = options.logFile ? openSync(options.logFile, 'a') : 'inherit';
  const root = options.root ?? repoRoot;
  const child = fork(join(root, 'bench', module), options.args ?? [], {
    cwd: root,
    execArgv: [...startFlagsOf(root), ...(options.nodeFlags ?? [])],
    env: { ...process.env, ...options.env },
    stdio: ['ignore', out, out, 'ipc'],
    // A group of its own: stopping it stops whatever it started (bench/processes.ts).
    detached: true,
  });
  track(child);

  const next = <S extends z.ZodType>(type: string, schema: S, timeoutMs = 120_000) =>
    new Promise<z.output<S>>((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`${module}: no "${type}" in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onMessage = (message: unknown) => {
        if (typeof message !== 'object' || message === null || !('type' in message)) return;
        if (message.type === 'error') finish(new Error(`${module}: ${JSON.stringify(message)}`));
        else if (message.type === type) finish(undefined, schema.parse(message));
      };
      const onExit = (code: number | null) =>
        finish(new Error(`${module} exited (${code}) before "${type}"`));
      const finish = (err: Error | undefined, value?: z.output<S>) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (err) reject(err);
        else resolve(value as z.output<S>);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });

  return {
    process: child,
    next,
    ask(message, replyType, schema, timeoutMs) {
      const reply = next(replyType, schema, timeoutMs);
      child.send(message);
      return reply;
    },
    stop: () => stopProcess(child, 5000),
  };
}

/** In a child: sends a message to the parent. */
export function reply(message: { type: string } & Record<string, unknown>): void {
  process.send?.(message);
}

/** In a child: calls `handler` for every message from the parent (parsed with `schema`); reports failures as `error`. */
export function onParentMessage<S extends z.ZodType>(
  schema: S,
  handler: (message: z.output<S>) => Promise<void>,
) {
  process.on('message', (message: unknown) => {
    Promise.resolve()
      .then(() => handler(schema.parse(message)))
      .catch((err: unknown) => {
        reply({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      });
  });
  // The parent going away ends the child (no orphans after a crash or Ctrl-C).
  process.on('disconnect', () => process.exit(0));
}
