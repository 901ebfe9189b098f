import { parseArgs } from 'node:util';
import * as z from 'zod';
import { integerFlag } from '../platform/cli-flags.ts';

export const RUN_USAGE = `Usage: npm run vigil -- run --ping <ping URL> [options] -- <command> [args...]

  Pings <ping URL>/start, runs the command (its output still reaches the terminal), then pings
  <ping URL>/<exit status> with the tail of the command's output as the body. Exits with the
  command's exit status: 128 + the signal's number when a signal killed it, 127 when it could not
  be found, 126 when it could not be started.

  --ping <url>              The check's ping URL (http or https; a query string such as ?create=1
                            is kept). A fresh run id (?rid=<uuid>) ties each run's pings together.
  --no-start                Do not send the /start ping (no run duration is then measured).
  --timeout <seconds>       Per ping request attempt (default 5).
  --retries <n>             Retries of a ping after a network error, a timeout, or an answer 408,
                            429, 500, 502, 503 or 504, with backoff 1 s, 2 s, 4 s... (default 2).
  --ping-body-limit <bytes> Send at most the last <bytes> of the output (default 10000, at most
                            100000; a smaller Ping-Body-Limit answered by the server wins).
  --quiet                   Do not echo the command's output to the terminal (it is still sent).`;

/** The largest output tail sent: the server keeps 100 KB, with room left for vigil run's notes. */
export const MAX_PING_BODY_LIMIT = 100_000;

export interface RunOptions {
  pingUrl: URL;
  start: boolean;
  timeoutMs: number;
  retries: number;
  /** Bytes of output kept and sent; `explicit` when given on the command line. */
  bodyLimit: { bytes: number; explicit: boolean };
  quiet: boolean;
  command: [string, ...string[]];
}

export class RunUsageError extends Error {
  override name = 'RunUsageError';
}

const pingUrl = z
  .url({ protocol: /^https?$/, error: '--ping must be an http or https URL' })
  .transform((raw) => new URL(raw));

const optionsSchema = z.object({
  ping: z.string({ error: '--ping <url> is required' }).pipe(pingUrl),
  'no-start': z.boolean().default(false),
  timeout: integerFlag('--timeout', 1, 300).default(5),
  retries: integerFlag('--retries', 0, 10).default(2),
  'ping-body-limit': integerFlag('--ping-body-limit', 1, MAX_PING_BODY_LIMIT).optional(),
  quiet: z.boolean().default(false),
});

/**
 * `vigil run`'s arguments: options, then `--`, then the command. The separator is required so
 * that the command's own flags are never read as vigil's.
 */
export function parseRunArgs(args: string[]): RunOptions | 'help' {
  const separator = args.indexOf('--');
  const ours = separator === -1 ? args : args.slice(0, separator);
  if (ours.includes('--help') || ours.includes('-h')) return 'help';
  const [program, ...programArgs] = separator === -1 ? [] : args.slice(separator + 1);
  if (program === undefined) throw new RunUsageError('put the command to run after --');
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: ours,
      strict: true,
      allowPositionals: false,
      options: {
        ping: { type: 'string' },
        'no-start': { type: 'boolean' },
        timeout: { type: 'string' },
        retries: { type: 'string' },
        'ping-body-limit': { type: 'string' },
        quiet: { type: 'boolean' },
      },
    }).values;
  } catch (err) {
    throw new RunUsageError(err instanceof Error ? err.message : String(err));
  }
  const parsed = optionsSchema.safeParse(values);
  if (!parsed.success) throw new RunUsageError(parsed.error.issues.map((i) => i.message).join('; '));
  const o = parsed.data;
  const explicitLimit = o['ping-body-limit'];
  return {
    pingUrl: o.ping,
    start: !o['no-start'],
    timeoutMs: o.timeout * 1000,
    retries: o.retries,
    bodyLimit: { bytes: explicitLimit ?? 10_000, explicit: explicitLimit !== undefined },
    quiet: o.quiet,
    command: [program, ...programArgs],
  };
}
