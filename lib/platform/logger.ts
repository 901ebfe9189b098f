import { writeSync } from 'node:fs';
import { setImmediate } from 'node:timers';

/** Structured JSON logs, one object per line. Callers never pass secrets; `redact` guards known fields. */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
type Fields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  child(fields: Fields): Logger;
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
const secretField = /^(authorization|api_?key|raw_?key|key|token|secret|password|cookie)$/i;

/** Replaces the values of secret-named fields and flattens errors, so no log line carries a secret. */
export function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (secretField.test(k)) out[k] = '[redacted]';
    else if (v instanceof Error) out[k] = { name: v.name, message: v.message, stack: v.stack };
    else out[k] = v;
  }
  return out;
}

let stdoutLines: string[] = [];

function flushStdout(): void {
  if (stdoutLines.length === 0) return;
  const text = stdoutLines.join('');
  stdoutLines = [];
  process.stdout.write(text);
}

/**
 * Lines for stdout, written once per turn of the event loop: a busy server logs a line per
 * request, and stdout on a file or pipe is a synchronous system call per write. What is still
 * buffered when the process exits is written synchronously then.
 */
export function writeStdoutLine(line: string): void {
  if (stdoutLines.length === 0) setImmediate(flushStdout);
  stdoutLines.push(`${line}\n`);
}
process.once('exit', () => {
  if (stdoutLines.length > 0) writeSync(1, stdoutLines.join(''));
  stdoutLines = [];
});

/** A logger writing JSON lines to `write` (stdout, once per turn, by default). */
export function createLogger(
  options: { level?: LogLevel; base?: Fields; write?: (line: string) => void } = {},
): Logger {
  const level = options.level ?? 'info';
  const base = options.base ?? {};
  const write = options.write ?? writeStdoutLine;
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Fields) => {
    if (order[lvl] < order[level]) return;
    write(
      JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...redact(fields ?? {}) }),
    );
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger({ level, base: { ...base, ...redact(fields) }, write }),
  };
}

/** A logger that drops everything (tests that do not read logs). */
export const silentLogger: Logger = createLogger({ level: 'silent' });
