import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { constants } from 'node:os';
import type { Writable } from 'node:stream';
import pkg from '../../package.json' with { type: 'json' };
import {
  MAX_PING_BODY_LIMIT,
  parseRunArgs,
  RUN_USAGE,
  type RunOptions,
  RunUsageError,
} from './run-options.ts';
import { OutputTail } from './run-output.ts';
import { createPinger } from './run-pinger.ts';

/** Where `vigil run` writes and where the signals it forwards arrive (the process, in bin/vigil.ts). */
export interface RunIo {
  stdout: Writable;
  stderr: Writable;
  signals: Pick<NodeJS.Process, 'on' | 'off'>;
}

/** Termination signals a supervisor or a terminal sends: passed on to the command, which decides. */
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];

/** How long output pipes may stay open after the command exited (held by its background processes). */
const OUTPUT_GRACE_MS = 1000;

/** How the command ended: the exit status `vigil run` exits with and pings, and a note for the log. */
interface Ended {
  status: number;
  note?: string;
}

/** `npm run vigil -- run …`: answers the exit status to exit with (2 for a usage error). */
export async function runCli(args: string[], io: RunIo): Promise<number> {
  let options: RunOptions | 'help';
  try {
    options = parseRunArgs(args);
  } catch (err) {
    if (!(err instanceof RunUsageError)) throw err;
    io.stderr.write(`vigil run: ${err.message}\n\n${RUN_USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    io.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  return runWrapped(options, io);
}

/**
 * Pings /start, runs the command, pings /<exit status> with its output's tail. A ping that is not
 * delivered is reported on stderr (without the URL: it is a credential) and changes nothing else.
 */
async function runWrapped(options: RunOptions, io: RunIo): Promise<number> {
  const pinger = createPinger({
    pingUrl: options.pingUrl,
    runId: randomUUID(),
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    userAgent: `vigil-run/${pkg.version} (node ${process.version}; ${process.platform}-${process.arch})`,
  });
  const warn = (suffix: string, reason: string) =>
    io.stderr.write(`vigil run: the /${suffix} ping was not delivered: ${reason}\n`);
  // A terminal or pipe that went away (EPIPE) must not end the run nor change its exit status.
  const ignore = () => {};
  io.stdout.on('error', ignore);
  io.stderr.on('error', ignore);
  try {
    let limit = options.bodyLimit.bytes;
    if (options.start) {
      const started = await pinger.ping('start');
      if (!started.ok) warn('start', started.reason);
      else if (started.bodyLimit !== undefined) {
        // As runitor: the server's limit caps an explicit one and replaces the default.
        limit = Math.min(options.bodyLimit.explicit ? limit : MAX_PING_BODY_LIMIT, started.bodyLimit);
      }
    }
    const tail = new OutputTail(limit);
    const ended = await runCommand(options, tail, io);
    const suffix = String(ended.status);
    const sent = await pinger.ping(suffix, pingBody(tail, ended, limit));
    if (!sent.ok) warn(suffix, sent.reason);
    return ended.status;
  } finally {
    await pinger.close();
    io.stdout.off('error', ignore);
    io.stderr.off('error', ignore);
  }
}

function pingBody(tail: OutputTail, ended: Ended, limit: number): string {
  const { text, truncated } = tail.read();
  const head = truncated ? `[vigil run] output truncated to its last ${limit} bytes\n` : '';
  if (ended.note === undefined) return `${head}${text}`;
  const gap = text === '' || text.endsWith('\n') ? '' : '\n';
  return `${head}${text}${gap}[vigil run] ${ended.note}\n`;
}

function runCommand(options: RunOptions, tail: OutputTail, io: RunIo): Promise<Ended> {
  const [program, ...args] = options.command;
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ['inherit', 'pipe', 'pipe'] });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of FORWARDED_SIGNALS) io.signals.on(signal, forward);
    let settled = false;
    const finish = (ended: Ended) => {
      if (settled) return;
      settled = true;
      for (const signal of FORWARDED_SIGNALS) io.signals.off(signal, forward);
      resolve(ended);
    };
    for (const [from, to] of [
      [child.stdout, io.stdout],
      [child.stderr, io.stderr],
    ] as const) {
      from.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        if (options.quiet || to.destroyed) return;
        // Backpressure: a slow terminal or pipe pauses the command's output instead of buffering it;
        // one that closed (EPIPE) ends the echo, never the run.
        if (!to.write(chunk)) {
          from.pause();
          const resume = () => {
            to.off('drain', resume);
            to.off('close', resume);
            from.resume();
          };
          to.on('drain', resume);
          to.on('close', resume);
        }
      });
    }
    child.once('error', (err: NodeJS.ErrnoException) => {
      // Errors of a started child (a failed kill) are followed by 'close'; this one never is.
      if (child.pid !== undefined) return;
      const notFound = err.code === 'ENOENT';
      const note = `cannot run ${JSON.stringify(program)}: ${notFound ? 'not found' : 'not executable'} (${err.code ?? err.message})`;
      io.stderr.write(`vigil run: ${note}\n`);
      finish({ status: notFound ? 127 : 126, note });
    });
    const ended = (code: number | null, signal: NodeJS.Signals | null): Ended => {
      if (signal) {
        const status = 128 + (constants.signals[signal] ?? 0);
        return { status, note: `killed by signal ${signal} (exit status ${status})` };
      }
      return code === 0 ? { status: 0 } : { status: code ?? 1, note: `exit status ${code}` };
    };
    // 'close' also waits for the output pipes, so the tail is complete. A background process the
    // command left running may hold them open for hours: after the command's own exit, it gets
    // OUTPUT_GRACE_MS, then the pipes stop holding this process (Go's exec.Cmd.WaitDelay idea).
    child.once('exit', (code, signal) => {
      if (child.pid === undefined) return;
      setTimeout(() => {
        for (const pipe of [child.stdout, child.stderr]) if ('unref' in pipe) (pipe as Socket).unref();
        finish(ended(code, signal));
      }, OUTPUT_GRACE_MS).unref();
    });
    child.once('close', (code, signal) => {
      if (child.pid !== undefined) finish(ended(code, signal));
    });
  });
}
