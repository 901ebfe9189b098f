import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './child.ts';
import { PARENT_GUARD, stopProcess, track } from './processes.ts';
import { startFlagsOf } from './start-flags.ts';

/** The product as it runs: `node bin/serve.ts` in a child, its logs going to a file. */

/**
 * The environment of a served runtime under bench load: its data dir, the bootstrap key every
 * request is sent with, and a rate limit far above the load, so the limiter's work stays in the
 * measurement without ever refusing a request.
 */
export function loadServeEnv(dataDir: string, key: string): Record<string, string> {
  return {
    VIGIL_DATA_DIR: dataDir,
    VIGIL_BOOTSTRAP_KEY: key,
    VIGIL_LOG_LEVEL: 'info',
    VIGIL_RATE_LIMIT_RPS: '1000000',
    VIGIL_RATE_LIMIT_BURST: '1000000',
  };
}

export interface ServeProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  stop(): Promise<void>;
}

/** Starts bin/serve.ts (of `options.root`, default this checkout) with `env` (PORT 0, so it picks a free port) and waits for its "listening" line. */
export async function startServe(
  env: Record<string, string>,
  options: { logFile: string; nodeFlags?: string[]; timeoutMs?: number; root?: string },
): Promise<ServeProcess> {
  // The log file may hold earlier runs: look for the URL only in what this process writes.
  const offset = existsSync(options.logFile) ? statSync(options.logFile).size : 0;
  const out = openSync(options.logFile, 'a');
  const child = spawn(
    process.execPath,
    [
      ...startFlagsOf(options.root ?? repoRoot),
      ...(options.nodeFlags ?? []),
      '--import',
      PARENT_GUARD,
      'bin/serve.ts',
    ],
    {
      cwd: options.root ?? repoRoot,
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', out, out],
      // A group of its own: stopping it stops whatever it started (bench/processes.ts).
      detached: true,
    },
  );
  track(child);
  const stop = () => stopProcess(child, 10_000);
  try {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    let port: string | undefined;
    while (!port) {
      if (child.exitCode !== null) throw new Error(`bin/serve.ts exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('bin/serve.ts printed no URL in time');
      await sleep(100);
      port = /listening on http:\/\/[^\s:]+:(\d+)/.exec(
        readFileSync(options.logFile).subarray(offset).toString('utf8'),
      )?.[1];
    }
    return { child, url: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** CPU seconds (user + system) and RSS of a process, from /proc (Linux); undefined elsewhere. */
export function processUsage(pid: number | undefined): { cpuSeconds: number; rssMb: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rssPages = Number(fields[21]);
    return { cpuSeconds: ticks / 100, rssMb: Math.round(((rssPages * 4096) / 1024 / 1024) * 10) / 10 };
  } catch {
    return undefined;
  }
}
