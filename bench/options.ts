import { parseArgs } from 'node:util';
import { z } from 'zod';

/** The benchmark's command line: which scenarios, what sizes, for how long. */

const SCENARIOS = [
  'bare',
  'scheduled',
  'max',
  'unrecorded',
  'undici',
  'push',
  'alerts',
  'status',
  'status-page',
  'search',
  'abuse',
  'uptime',
  'cost',
  'pingcost',
  'cronburst',
  'locationcost',
  'storm-cloud',
  'bundles',
  'crash',
  'storm',
  'checks-list',
  'config-apply',
  'browser',
  'browsercost',
  'ingest',
  'ingestcost',
] as const;
type Scenario = (typeof SCENARIOS)[number];

/**
 * Scenario groups accepted by --only besides the names themselves. `unrecorded` (the maximum-rate
 * mode with nothing recorded) and `undici` (the maximum-rate mode with probes sent by undici instead
 * of lib/egress/http1-client.ts) are diagnostics, run only when named.
 */
const GROUPS: Record<string, Scenario[]> = {
  probes: ['bare', 'scheduled', 'max'],
  all: [
    'bare',
    'scheduled',
    'max',
    'push',
    'alerts',
    'status',
    'status-page',
    'abuse',
    'uptime',
    'cost',
    'pingcost',
  ],
};

const int = (min: number) => z.coerce.number().int().min(min);
const list = z
  .string()
  .transform((s) => s.split(',').map((v) => Number(v.trim())))
  .pipe(z.array(z.number().int().min(1)).min(1));

const optionsSchema = z.object({
  only: z
    .string()
    .default('all')
    .transform((s) => [...new Set(s.split(',').flatMap((name) => GROUPS[name.trim()] ?? [name.trim()]))])
    .pipe(z.array(z.enum(SCENARIOS)).min(1)),
  checks: int(1).default(20_000),
  interval: int(1).default(10),
  duration: int(1).default(30),
  warmup: int(0).optional(),
  'max-checks': int(1).default(5000),
  'max-interval': int(1).default(1),
  'max-warmup': int(0).default(5),
  concurrency: int(1).default(256),
  'bare-concurrency': int(1).default(64),
  'due-shards': int(1).default(4),
  'probe-threads': int(0).default(1),
  'push-checks': int(1).default(8),
  'push-concurrency': list.default([1, 8, 32, 64]),
  'push-duration': int(1).default(8),
  'push-warmup': int(0).default(1),
  'max-requests': int(1).default(5_000_000),
  'alert-checks': int(1).default(100),
  'storm-entities': int(1).default(1000),
  'storm-outage': int(1).default(65),
  'alert-rounds': int(1).default(10),
  'alert-warmup-rounds': int(0).default(1),
  'alert-timeout': int(1).default(30),
  'alert-flap-window': int(0)
    .refine((s) => s === 0 || (s >= 60 && s <= 86_400), '0, or 60 to 86400 (the API bounds the flap window)')
    .default(60),
  'status-entities': int(1).default(100_000),
  'status-requests': int(1).default(200),
  'status-unpaged-requests': int(1).default(5),
  'search-entities': int(1).default(10_000),
  'search-checks': int(1).default(2_000),
  'search-requests': int(1).default(100),
  'page-entities': int(1).default(100),
  'page-requests': int(1).default(200),
  'abuse-addresses': int(1).default(40),
  'abuse-readers': int(1).default(16),
  'abuse-samples': int(1).default(300),
  'ingest-entities': int(1).default(1000),
  'ingest-alerts-per-entity': int(1).default(10),
  'ingest-requests': int(1).default(100),
  'ingest-concurrency': int(1).default(10),
  'ingestcost-entities': int(1).default(1000),
  'ingestcost-alerts': int(1).default(10_000),
  'ingestcost-per-request': int(1).max(1000).default(100),
  'uptime-days': int(2).default(90),
  'uptime-requests': int(1).default(200),
  'cost-checks': int(1).default(200),
  'cost-cycles': int(1).default(5),
  'pingcost-checks': int(1).default(50),
  'pingcost-pings': int(1).max(99).default(20),
  'pingcost-every': int(1).max(1440).default(1),
  'cronburst-jobs': int(1).default(10_000),
  'cronburst-concurrency': int(1).default(64),
  'cronburst-cloud-jobs': int(0).default(1000),
  'cronburst-due-shards': int(1).max(256).optional(),
  'locationcost-checks': int(1).default(50),
  'locationcost-slots': int(1).default(5),
  'locationcost-regions': int(1).max(5).default(3),
  'locationcost-quorum': int(1).default(2),
  'locationcost-lease-batch': int(1).max(100).default(20),
  'locationcost-post-batch': int(1).max(100).default(10),
  'crash-rounds': int(2).default(32),
  'storm-cloud-entities': int(1).default(5000),
  'bundle-runs': int(1).default(9),
  'list-checks': int(1).default(10_000),
  'list-requests': int(1).default(20),
  'config-apply-checks': list.default([1000, 10_000]),
  'config-apply-one-by-one-max': int(1).default(1000),
  'browser-checks': int(1).default(50),
  'browser-minutes': int(1).default(3),
  'browser-interval': int(60).default(60),
  'browser-runs': int(1).max(32).default(2),
  'browsercost-runs': int(1).default(10),
  'browsercost-failure-rate': z.coerce.number().min(0).max(1).default(0.01),
  'config-apply-runtimes': z
    .string()
    .default('local,cloud')
    .transform((s) => s.split(',').map((v) => v.trim()))
    .pipe(z.array(z.enum(['local', 'cloud'])).min(1)),
  against: z.string().min(1).optional(),
  rounds: int(1).default(1),
  profile: z.boolean().default(false),
  out: z.string().optional(),
});

export type BenchOptions = z.output<typeof optionsSchema>;

const USAGE = `Usage: npm run bench -- [options]

  --only <list>             scenarios: bare, scheduled, max, push, alerts, status, status-page, abuse, uptime, cost, pingcost, cronburst, locationcost, bundles, crash, storm, storm-cloud, checks-list, config-apply, search, browser, browsercost, ingest, ingestcost, or the groups probes, all (default all);
                            also unrecorded, a diagnostic run only when named: the maximum-rate mode
                            with the result recorder replaced by a no-op
  --checks <n>              scheduled mode: http checks (default 20000)
  --interval <s>            scheduled mode: check interval (default 10)
  --duration <s>            measured window of the probe scenarios and of the bare loop (default 30)
  --warmup <s>              scheduled mode: warm-up after setup (default one interval)
  --max-checks <n>          maximum-rate mode: checks (default 5000)
  --max-interval <s>        maximum-rate mode: interval (default 1, so demand exceeds capacity)
  --max-warmup <s>          maximum-rate mode: warm-up (default 5)
  --concurrency <n>         VIGIL_WORKER_CONCURRENCY of the runtime (default 256, the product default)
  --bare-concurrency <n>    requests in flight in the bare loop (default 64)
  --due-shards <n>          VIGIL_DUE_SHARDS (default 4)
  --probe-threads <n>       VIGIL_PROBE_THREADS of the runtime (default 1, the product default; 0: probes on the event loop)
  --push-checks <n>         push checks the load is spread over (default 8)
  --push-concurrency <list> push load concurrencies (default 1,8,32,64)
  --push-duration <s>       measured seconds per push level and server (default 8)
  --push-warmup <s>         unmeasured seconds before each push level (default 1)
  --max-requests <n>        bound on requests per load run (default 5000000)
  --storm-entities <n>      storm: entities of one blueprint going down at once through one route (default 1000)
  --storm-outage <s>        storm: seconds they stay down, at least the 60 s group interval (default 65)
  --storm-cloud-entities <n> storm-cloud: entities of one tenant going down through the cloud handlers (default 5000)
  --alert-checks <n>        alerts: push checks alerting at once, each with a webhook (default 100)
  --alert-rounds <n>        alerts: measured rounds, each every check down then up (default 10: 2000 alerts)
  --alert-warmup-rounds <n> alerts: unmeasured rounds first (default 1)
  --alert-timeout <s>       alerts: longest wait for one phase's alerts (default 30)
  --alert-flap-window <s>   alerts: the flapping round's window, 60 to 86400, after the latency rounds (which run with
                            flap detection off); 0: no flapping round (default 60)
  --status-entities <n>     status: entities of the one tenant (default 100000)
  --status-requests <n>     status: measured GET /v1/status?state=down&limit=100 (default 200)
  --status-unpaged-requests <n>  status: measured unpaged GET /v1/status, the baseline (default 5)
  --list-checks <n>         checks-list: push checks of the one tenant (default 10000)
  --list-requests <n>       checks-list: measured GETs of each first page (default 20)
  --config-apply-checks <list>  config-apply: push checks created per measurement (default 1000,10000)
  --config-apply-one-by-one-max <n>  config-apply: most checks created one by one; more are extrapolated (default 1000)
  --browser-checks <n>      browser: browser checks (goto + assert on a page served on 127.0.0.1) (default 50)
  --browser-minutes <n>     browser: measured minutes after one unmeasured interval (default 3)
  --browser-interval <s>    browser: the checks' interval, 60 or more (default 60)
  --browser-runs <n>        browser: VIGIL_BROWSER_RUNS of the runtime (default 2, the product default)
  --browsercost-runs <n>    browsercost: browser runs measured one at a time for the billed duration (default 10)
  --browsercost-failure-rate <r>  browsercost: share of runs failing, each keeping a screenshot in S3 (default 0.01)
  --config-apply-runtimes <list>  config-apply: local, cloud or both (default local,cloud)
  --page-entities <n>       status-page: entities on the public page (default 100)
  --page-requests <n>       status-page: measured keyless GET /p/{slug} (default 200)
  --search-entities <n>     search: entities of the one tenant (default 10000)
  --search-checks <n>       search: push checks made through the API (default 2000)
  --search-requests <n>     search: measured GET /v1/search per text (default 100)
  --abuse-addresses <n>     abuse: keyless visitors of the public page, one loopback address each (default 40)
  --abuse-readers <n>       abuse: one key's loops of expensive reads (status, metrics, incidents; default 16)
  --abuse-samples <n>       abuse: measured GET /healthz under that load, one at a time (default 300)
  --uptime-days <n>         uptime: days of history of the 1-minute check (default 90)
  --ingest-entities <n>     ingest: entities the alerts land on (default 1000)
  --ingest-alerts-per-entity <n>  ingest: alerts on each entity (default 10)
  --ingest-requests <n>     ingest: Alertmanager requests carrying them, and as many resolving (default 100)
  --ingest-concurrency <n>  ingest: requests in flight at once (default 10)
  --ingestcost-entities <n> ingestcost: entities the alerts land on (default 1000)
  --ingestcost-alerts <n>   ingestcost: alerts sent through the cloud handlers, then resolved (default 10000)
  --ingestcost-per-request <n> ingestcost: alerts a request (default 100)
  --uptime-requests <n>     uptime: measured GET .../uptime?window=90d, and as many sparkline reads (default 200)
  --cost-checks <n>         cost: pull checks of the cloud path under the cost meter (default 200)
  --cost-cycles <n>         cost: metered one-minute cycles, healthy and then flapping (default 5)
  --pingcost-checks <n>     pingcost: push checks per mode (ping URL, keyed route) under the cost meter (default 50)
  --pingcost-pings <n>      pingcost: reports per check, one a minute (default 20, at most 99)
  --pingcost-every <n>      pingcost: minutes between a check's reports (default 1; 5 or more closes a rollup bucket each report)
  --cronburst-jobs <n>      cronburst: heartbeats of one tenant pinging at the top of the hour, locally (default 10000)
  --cronburst-concurrency <n> cronburst: pings in flight locally (default 64, as push's top level)
  --cronburst-cloud-jobs <n> cronburst: the same burst through the cloud handlers over DynamoDB Local (default 1000; 0: none)
  --cronburst-due-shards <n> cronburst: the cloud's due index shards (VIGIL_DUE_SHARDS; default its default, 4)
  --locationcost-checks <n> locationcost: http checks probed from AWS regions under the cost meter (default 50)
  --locationcost-slots <n>  locationcost: metered slots (minutes) per check (default 5)
  --locationcost-regions <n> locationcost: AWS regions each check is probed from (default 3, at most 5)
  --locationcost-quorum <n> locationcost: the checks' quorum (default 2)
  --locationcost-lease-batch <n> locationcost: jobs per lease, the region function's concurrency (default 20)
  --locationcost-post-batch <n>  locationcost: results per post (default 10)
  --storm-entities <n>      storm-cloud: entities of one tenant that go down at once (default 5000)
  --bundle-runs <n>         bundles: fresh imports of each function's bundle (default 9)
  --crash-rounds <n>        crash: kill -9 rounds of served processes, half at the cell seam (default 32)
  --against <dir|commit>    also run max, push, alerts, storm, abuse and bundles on another checkout, in the same run, side
                            by side: a directory (e.g. a git worktree of the previous commit, node_modules linked), or a
                            commit of this repository (unpacked with git archive into a temporary directory, removed after)
  --rounds <n>              max, push and alerts: runs per checkout, alternating with --against (default 1)
  --profile                 write CPU profiles (runtime: measured window; serve: whole run) to bench/results/profiles
  --out <file>              JSON output (default bench/results/<timestamp>.json)
`;

/** Parses argv; throws with the usage text on anything unknown or invalid. */
export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      only: { type: 'string' },
      checks: { type: 'string' },
      interval: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'max-checks': { type: 'string' },
      'max-interval': { type: 'string' },
      'max-warmup': { type: 'string' },
      concurrency: { type: 'string' },
      'bare-concurrency': { type: 'string' },
      'due-shards': { type: 'string' },
      'probe-threads': { type: 'string' },
      'push-checks': { type: 'string' },
      'push-concurrency': { type: 'string' },
      'push-duration': { type: 'string' },
      'push-warmup': { type: 'string' },
      'max-requests': { type: 'string' },
      'alert-checks': { type: 'string' },
      'storm-entities': { type: 'string' },
      'storm-outage': { type: 'string' },
      'alert-rounds': { type: 'string' },
      'alert-warmup-rounds': { type: 'string' },
      'alert-timeout': { type: 'string' },
      'alert-flap-window': { type: 'string' },
      'status-entities': { type: 'string' },
      'status-requests': { type: 'string' },
      'status-unpaged-requests': { type: 'string' },
      'search-entities': { type: 'string' },
      'search-checks': { type: 'string' },
      'search-requests': { type: 'string' },
      'page-entities': { type: 'string' },
      'page-requests': { type: 'string' },
      'abuse-addresses': { type: 'string' },
      'abuse-readers': { type: 'string' },
      'abuse-samples': { type: 'string' },
      'ingest-entities': { type: 'string' },
      'ingest-alerts-per-entity': { type: 'string' },
      'ingest-requests': { type: 'string' },
      'ingest-concurrency': { type: 'string' },
      'ingestcost-entities': { type: 'string' },
      'ingestcost-alerts': { type: 'string' },
      'ingestcost-per-request': { type: 'string' },
      'uptime-days': { type: 'string' },
      'uptime-requests': { type: 'string' },
      'bundle-runs': { type: 'string' },
      'list-checks': { type: 'string' },
      'list-requests': { type: 'string' },
      'config-apply-checks': { type: 'string' },
      'config-apply-one-by-one-max': { type: 'string' },
      'config-apply-runtimes': { type: 'string' },
      'browser-checks': { type: 'string' },
      'browser-minutes': { type: 'string' },
      'browser-interval': { type: 'string' },
      'browser-runs': { type: 'string' },
      'browsercost-runs': { type: 'string' },
      'browsercost-failure-rate': { type: 'string' },
      'cost-checks': { type: 'string' },
      'cost-cycles': { type: 'string' },
      'pingcost-checks': { type: 'string' },
      'pingcost-pings': { type: 'string' },
      'pingcost-every': { type: 'string' },
      'cronburst-jobs': { type: 'string' },
      'cronburst-concurrency': { type: 'string' },
      'cronburst-cloud-jobs': { type: 'string' },
      'cronburst-due-shards': { type: 'string' },
      'locationcost-checks': { type: 'string' },
      'locationcost-slots': { type: 'string' },
      'locationcost-regions': { type: 'string' },
      'locationcost-quorum': { type: 'string' },
      'locationcost-lease-batch': { type: 'string' },
      'locationcost-post-batch': { type: 'string' },
      'crash-rounds': { type: 'string' },
      'storm-cloud-entities': { type: 'string' },
      against: { type: 'string' },
      rounds: { type: 'string' },
      profile: { type: 'boolean' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new Error(USAGE);
  const parsed = optionsSchema.safeParse(values);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  --${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`${issues}\n\n${USAGE}`);
  }
  return parsed.data;
}
