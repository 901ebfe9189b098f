import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { integerFlag } from '../platform/cli-flags.ts';

export const AGENT_USAGE = `Usage: npm run vigil -- agent --url <Vigil URL> (--key-file <file> | --key <key>) [options]

  Runs a probe location's agent: leases the jobs of its location from Vigil, probes them from this
  host, and posts the results. The location and its key come from POST /v1/locations (docs/agent.md).

  --url <url>                Vigil's URL (https; http only to this host, or with --allow-http).
                             Default: $VIGIL_URL.
  --key-file <file>          A file holding the location key (vlk_…), e.g. systemd's credentials.
  --key <key>                The location key. It shows in \`ps\`: prefer --key-file or
                             $VIGIL_LOCATION_KEY (used when neither flag is given).
  --concurrency <n>          The most probes running at once (default 10, at most 1000).
  --browser-runs <n>         The most browser checks running at once, each a headless Chromium
                             (default 2, at most 32; docs/scripted-checks.md). Default: $VIGIL_BROWSER_RUNS.
  --chromium <path>          The Chromium browser checks run (default $VIGIL_CHROMIUM_PATH, else
                             /usr/bin/chromium: Debian's chromium package).
  --metrics-port <port>      Serve Prometheus metrics at http://<metrics host>:<port>/metrics
                             (0: any free port, logged). Default: no metrics server.
  --metrics-host <address>   The address the metrics server listens on (default 127.0.0.1).
  --max-unsent <n>           The most results held while Vigil cannot be reached; leasing waits
                             at the bound (default 10000).
  --heartbeat-interval <s>   Seconds between heartbeats (default 30).
  --max-backoff <s>          The longest wait between attempts while Vigil fails (default 30).
  --stop-grace <s>           After SIGTERM or SIGINT: how long running probes may finish and
                             results be posted before the agent exits anyway (default 30).
  --public-only              Probe public addresses only (refuse private, loopback, link-local).
                             Cloud metadata addresses are refused either way.
  --allow-http               Allow an http:// Vigil URL that is not this host (the key and the
                             checks' secrets then travel in clear text).
  --log-level <level>        debug, info, warn or error (default info). Logs are JSON lines on stdout.`;

export class AgentUsageError extends Error {
  override name = 'AgentUsageError';
}

const flagsSchema = z.object({
  url: z.string().optional(),
  key: z.string().optional(),
  'key-file': z.string().optional(),
  concurrency: integerFlag('--concurrency', 1, 1000).default(10),
  'browser-runs': integerFlag('--browser-runs', 1, 32).optional(),
  chromium: z.string().min(1).optional(),
  'metrics-port': integerFlag('--metrics-port', 0, 65535).optional(),
  'metrics-host': z.string().default('127.0.0.1'),
  'max-unsent': integerFlag('--max-unsent', 1, 1_000_000).default(10_000),
  'heartbeat-interval': integerFlag('--heartbeat-interval', 1, 3600).default(30),
  'max-backoff': integerFlag('--max-backoff', 1, 3600).default(30),
  'stop-grace': integerFlag('--stop-grace', 0, 3600).default(30),
  'public-only': z.boolean().default(false),
  'allow-http': z.boolean().default(false),
  'log-level': z
    .enum(['debug', 'info', 'warn', 'error'], { error: '--log-level: debug, info, warn or error' })
    .default('info'),
});

/** Where the agent's location key comes from: the command line, a file (read at start), or the environment. */
type KeySource = { key: string } | { file: string };

export interface AgentCliOptions {
  url: URL;
  key: KeySource;
  concurrency: number;
  /** Browser checks: how many run at once, and the Chromium they run. */
  browser: { runs: number; chromiumPath: string };
  metrics?: { host: string; port: number };
  maxUnsent: number;
  heartbeatIntervalMs: number;
  maxBackoffMs: number;
  stopGraceMs: number;
  allowPrivate: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/** The location key's shape (`vlk_` and base62): a typo or an API key is refused before any request. */
const LOCATION_KEY = /^vlk_[0-9A-Za-z]{16,200}$/;

/** Checks a location key read from a flag, a file or the environment; answers it trimmed. */
export function checkLocationKey(raw: string, from: string): string {
  const key = raw.trim();
  if (!LOCATION_KEY.test(key)) throw new AgentUsageError(`${from} does not hold a location key (vlk_…)`);
  return key;
}

/** `vigil agent`'s arguments, with $VIGIL_URL and $VIGIL_LOCATION_KEY as fallbacks. */
export function parseAgentArgs(
  args: string[],
  env: Record<string, string | undefined>,
): AgentCliOptions | 'help' {
  if (args.includes('--help') || args.includes('-h')) return 'help';
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(
        Object.keys(flagsSchema.shape).map((name) => [
          name,
          { type: name === 'public-only' || name === 'allow-http' ? 'boolean' : 'string' },
        ]),
      ) as Record<string, { type: 'string' | 'boolean' }>,
    }).values;
  } catch (err) {
    throw new AgentUsageError(err instanceof Error ? err.message : String(err));
  }
  const parsed = flagsSchema.safeParse(values);
  if (!parsed.success) throw new AgentUsageError(parsed.error.issues[0]?.message ?? 'invalid arguments');
  const flags = parsed.data;
  const url = vigilUrl(flags.url ?? env.VIGIL_URL, flags['allow-http']);
  if (flags.key !== undefined && flags['key-file'] !== undefined) {
    throw new AgentUsageError('give --key or --key-file, not both');
  }
  const envKey = env.VIGIL_LOCATION_KEY;
  let key: KeySource;
  if (flags['key-file'] !== undefined) key = { file: flags['key-file'] };
  else if (flags.key !== undefined) key = { key: checkLocationKey(flags.key, '--key') };
  else if (envKey !== undefined && envKey !== '')
    key = { key: checkLocationKey(envKey, '$VIGIL_LOCATION_KEY') };
  else
    throw new AgentUsageError(
      'the location key is required: --key-file <file>, $VIGIL_LOCATION_KEY or --key',
    );
  const port = flags['metrics-port'];
  return {
    url,
    key,
    concurrency: flags.concurrency,
    browser: {
      runs: flags['browser-runs'] ?? browserRunsOf(env.VIGIL_BROWSER_RUNS),
      chromiumPath: flags.chromium ?? (env.VIGIL_CHROMIUM_PATH || '/usr/bin/chromium'),
    },
    ...(port !== undefined ? { metrics: { host: flags['metrics-host'], port } } : {}),
    maxUnsent: flags['max-unsent'],
    heartbeatIntervalMs: flags['heartbeat-interval'] * 1000,
    maxBackoffMs: flags['max-backoff'] * 1000,
    stopGraceMs: flags['stop-grace'] * 1000,
    allowPrivate: !flags['public-only'],
    logLevel: flags['log-level'],
  };
}

/** $VIGIL_BROWSER_RUNS as --browser-runs reads it; 2 when unset. */
function browserRunsOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 2;
  const parsed = integerFlag('$VIGIL_BROWSER_RUNS', 1, 32).safeParse(raw);
  if (!parsed.success)
    throw new AgentUsageError(parsed.error.issues[0]?.message ?? 'invalid $VIGIL_BROWSER_RUNS');
  return parsed.data;
}

/** Vigil's URL: https, or http to this host (or anywhere with --allow-http); no credentials, query or fragment. */
function vigilUrl(raw: string | undefined, allowHttp: boolean): URL {
  if (raw === undefined || raw === '')
    throw new AgentUsageError("Vigil's URL is required: --url or $VIGIL_URL");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AgentUsageError(`--url is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AgentUsageError('--url must be https (or http)');
  if (url.username || url.password || url.search || url.hash) {
    throw new AgentUsageError('--url takes no credentials, query or fragment: the key goes in --key-file');
  }
  if (url.protocol === 'http:' && !allowHttp && !isThisHost(url.hostname)) {
    throw new AgentUsageError(
      `--url ${url.origin} is http: the location key and the checks' secrets would travel in clear text. Use https, or --allow-http`,
    );
  }
  return url;
}

function isThisHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
