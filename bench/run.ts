import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CrashFigures, runCrashRounds } from '../test/support/crash-rounds.ts';
import { runAbuse } from './abuse.ts';
import { runAlerts } from './alerts.ts';
import { runBrowserCost } from './browser-cost.ts';
import { runBrowserLoad } from './browser-load.ts';
import { type BundleFigures, formatBundles, runBundles } from './bundles.ts';
import { runChecksList } from './checks-list.ts';
import { benchDir, repoRoot } from './child.ts';
import { type ConfigApplyRun, formatConfigApply, runConfigApply } from './config-apply.ts';
import { runCost } from './cost.ts';
import { runCronBurstCloud, runCronBurstLocal } from './cronburst.ts';
import { runIngest } from './ingest.ts';
import { runIngestCostBench } from './ingest-cost.ts';
import { runLocationCostBench } from './location-cost.ts';
import { parseOptions } from './options.ts';
import { runPingCostBench } from './ping-cost.ts';
import { type Target as ProbeTarget, runBareLoop, runRuntime, startTarget } from './probes.ts';
import { stopOnExit } from './processes.ts';
import { runPush } from './push.ts';
import { describeMachine, evaluateTargets, formatResults, type Results } from './report.ts';
import { runSearch } from './search.ts';
import { emptySideBySide, prepareAgainst, roundOrder, type Side } from './side-by-side.ts';
import { runStatus } from './status.ts';
import { runStatusPage } from './status-page.ts';
import { runStorm, type StormFigures } from './storm.ts';
import { formatStormCloud, runStormCloudBench } from './storm-cloud.ts';
import { runUptime } from './uptime.ts';

/**
 * `npm run bench`: every workload in a child process of its own, talking to 127.0.0.1 only,
 * bounded in time and count, and compared with bare Node measured in the same run (the machine is
 * noisy, so ratios mean more than absolute figures). See docs/performance.md.
 */

let options: ReturnType<typeof parseOptions>;
try {
  options = parseOptions(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}

// Whatever ends the run (an error, a timeout, Ctrl-C, SIGTERM), no process it started outlives it.
stopOnExit();

const startedAt = new Date();
const stamp = startedAt
  .toISOString()
  .replaceAll(':', '-')
  .replace(/\.\d+Z$/, 'Z');
const resultsDir = join(benchDir, 'results');
const logDir = join(resultsDir, 'logs', stamp);
const profileDir = options.profile ? join(resultsDir, 'profiles', stamp) : undefined;
mkdirSync(logDir, { recursive: true });
if (profileDir) mkdirSync(profileDir, { recursive: true });
const log = (line: string) => process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const machine = describeMachine();
log(
  `machine: ${machine.nproc} CPUs (${machine.cpuModel}), ${machine.memoryGb} GB, node ${machine.node}, load ${machine.loadAverage.join(' ')}`,
);
log(`scenarios: ${options.only.join(', ')}; logs in ${logDir}`);

const wants = (name: (typeof options.only)[number]) => options.only.includes(name);
const durationMs = options.duration * 1000;
const results: Results = { bare: [] };
// --against/--rounds: the max and push scenarios run round by round, alternating the checkouts.
let against: ReturnType<typeof prepareAgainst> | undefined;
try {
  against = options.against ? prepareAgainst(options.against, repoRoot) : undefined;
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
process.once('exit', () => against?.remove());
const sides = emptySideBySide(repoRoot, against);
const order = roundOrder(options.rounds, against !== undefined);
const rootOf = (side: Side) => (side === 'against' ? sides.against?.dir : undefined);
if (sides.against)
  log(`side by side with ${sides.against.dir} (${sides.against.commit}), ${options.rounds} round(s)`);
let target: ProbeTarget | undefined;
let bundles: BundleFigures | undefined;
let crash: CrashFigures | undefined;
/** The storm scenario's runs: this checkout grouped and folded, the --against checkout on the same workload. */
const storm: (StormFigures & { commit: string })[] = [];
let configApply: ConfigApplyRun[] | undefined;

const bare = async () => {
  if (!target) return;
  log(`bare loop: ${options['bare-concurrency']} in flight for ${options.duration} s`);
  const figures = await runBareLoop(target, {
    concurrency: options['bare-concurrency'],
    durationMs,
    maxRequests: options['max-requests'],
    logFile: join(logDir, 'bare-loop.log'),
  });
  log(`  ${Math.round(figures.requestsPerSecond)} requests/s (${figures.failed} failed)`);
  results.bare.push(figures);
};

try {
  const runtimeScenarios = wants('scheduled') || wants('max') || wants('unrecorded') || wants('undici');
  if (wants('bare') || runtimeScenarios) {
    target = await startTarget(join(logDir, 'target.log'));
    log(`target: ${target.url}`);
  }
  if (wants('bare')) await bare();
  if (wants('scheduled')) {
    const warmupMs = (options.warmup ?? options.interval) * 1000;
    log(
      `scheduled: ${options.checks} checks every ${options.interval} s, warm-up ${warmupMs / 1000} s, measure ${options.duration} s`,
    );
    if (target) {
      results.scheduled = await runRuntime(target, {
        checks: options.checks,
        intervalSeconds: options.interval,
        concurrency: options.concurrency,
        dueShards: options['due-shards'],
        probeThreads: options['probe-threads'],
        warmupMs,
        durationMs,
        logFile: join(logDir, 'runtime-scheduled.log'),
        label: 'scheduled',
        restart: false,
        ...(profileDir ? { profileDir } : {}),
        onProgress: log,
      });
      const s = results.scheduled;
      log(`  ${Math.round(s.probesPerSecond)} probes/s, lateness p99 ${s.latenessMs.p99} ms`);
    }
  }
  const maxRate = async (label: 'max' | 'unrecorded' | 'undici', side: Side = 'this') => {
    if (!target) return undefined;
    const root = rootOf(side);
    const unrecorded = label === 'unrecorded';
    const aside = {
      max: '',
      unrecorded: ', nothing recorded (diagnostic)',
      undici: ', probes sent by undici',
    }[label];
    log(
      `maximum rate${aside}${root ? ` (${sides.against?.commit})` : ''}: ${options['max-checks']} checks every ${options['max-interval']} s, measure ${options.duration} s`,
    );
    const figures = await runRuntime(target, {
      checks: options['max-checks'],
      intervalSeconds: options['max-interval'],
      concurrency: options.concurrency,
      dueShards: options['due-shards'],
      probeThreads: options['probe-threads'],
      warmupMs: options['max-warmup'] * 1000,
      durationMs,
      logFile: join(logDir, `runtime-${label}${root ? '-against' : ''}.log`),
      label,
      restart: true,
      record: !unrecorded,
      ...(label === 'undici' ? { env: { VIGIL_PROBE_HTTP_CLIENT: 'undici' } } : {}),
      ...(profileDir ? { profileDir } : {}),
      ...(root ? { root } : {}),
      onProgress: log,
    });
    log(
      unrecorded
        ? `  ${Math.round(figures.probesPerSecond)} probes/s`
        : `  ${Math.round(figures.resultsPerSecond)} results/s`,
    );
    return figures;
  };
  if (wants('max')) {
    for (const side of order) {
      const figures = await maxRate('max', side);
      if (figures) sides.max[side].push(figures);
    }
    results.max = sides.max.this[0];
  }
  if (wants('unrecorded')) results.unrecorded = await maxRate('unrecorded');
  if (wants('undici')) results.undici = await maxRate('undici');
  // The ceiling again after the runtime scenarios: the mean of both brackets the noise.
  if (wants('bare') && runtimeScenarios) await bare();
  await target?.child.stop();
  target = undefined;
  if (wants('push')) {
    for (const side of order) {
      const root = rootOf(side);
      log(
        `push${root ? ` (${sides.against?.commit})` : ''}: ${options['push-checks']} push checks, concurrencies ${options['push-concurrency'].join(', ')}, ${options['push-duration']} s each`,
      );
      const figures = await runPush({
        checks: options['push-checks'],
        concurrencies: options['push-concurrency'],
        durationMs: options['push-duration'] * 1000,
        warmupMs: options['push-warmup'] * 1000,
        maxRequests: options['max-requests'],
        logFile: join(logDir, root ? 'serve-against.log' : 'serve.log'),
        ...(profileDir ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
        ...(root ? { root } : {}),
        onProgress: log,
      });
      sides.push[side].push(figures);
    }
    results.push = sides.push.this[0];
  }
  if (wants('alerts')) {
    for (const side of order) {
      const root = rootOf(side);
      log(
        `alerts${root ? ` (${sides.against?.commit})` : ''}: ${options['alert-checks']} push checks alerting at once, ${options['alert-rounds']} rounds of down and up, webhooks over HTTPS`,
      );
      const a = await runAlerts({
        checks: options['alert-checks'],
        rounds: options['alert-rounds'],
        warmupRounds: options['alert-warmup-rounds'],
        phaseTimeoutMs: options['alert-timeout'] * 1000,
        flapWindowSeconds: options['alert-flap-window'],
        logFile: join(logDir, root ? 'alerts-against.log' : 'alerts.log'),
        ...(profileDir ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
        ...(root ? { root } : {}),
        onProgress: log,
      });
      sides.alerts[side].push(a);
      log(
        `  ${a.alerts} alerts, p99 ${Math.round(a.from201Ms.p99)} ms (bare POSTs p99 ${Math.round(a.bare.latencyMs.p99)} ms)`,
      );
      const f = a.flapping;
      if (f)
        log(
          `  flapping: ${f.notices.read} notices, ${f.leaked} leaked while held, ${f.settled.rightState}/${f.settled.expected} settled down, p99 ${Math.round(f.settled.lateMs.p99)} ms after the window`,
        );
    }
    results.alerts = sides.alerts.this[0];
  }
  if (wants('status')) {
    log(`status: ${options['status-entities']} entities in one tenant, paged and unpaged GET /v1/status`);
    results.status = await runStatus({
      entities: options['status-entities'],
      requests: options['status-requests'],
      unpagedRequests: options['status-unpaged-requests'],
      logFile: join(logDir, 'status.log'),
      onProgress: log,
    });
    const st = results.status;
    log(`  paged p99 ${Math.round(st.paged.p99)} ms, unpaged p99 ${Math.round(st.unpaged.p99)} ms`);
    if (st.firstRows) log(`  first rows in Chromium: p50 ${Math.round(st.firstRows.p50)} ms`);
  }
  if (wants('checks-list')) {
    log(
      `checks-list: ${options['list-checks']} checks in one tenant, first pages of GET /v1/checks and /checks in Chromium`,
    );
    results.checksList = await runChecksList({
      checks: options['list-checks'],
      requests: options['list-requests'],
      logFile: join(logDir, 'checks-list.log'),
      onProgress: log,
    });
    const cl = results.checksList;
    for (const r of cl.requests)
      log(`  ${r.path}: p50 ${Math.round(r.latency.p50)} ms, p99 ${Math.round(r.latency.p99)} ms`);
    if (cl.firstRows) log(`  first rows in Chromium: p50 ${Math.round(cl.firstRows.p50)} ms`);
  }
  if (wants('status-page')) {
    log(`status-page: a public page of ${options['page-entities']} entities, keyless GET /p/{slug}`);
    results.statusPage = await runStatusPage({
      entities: options['page-entities'],
      requests: options['page-requests'],
      logFile: join(logDir, 'status-page.log'),
      onProgress: log,
    });
    const sp = results.statusPage;
    log(
      `  p50 ${Math.round(sp.latencyMs.p50)} ms, p99 ${Math.round(sp.latencyMs.p99)} ms, ${sp.bytes} bytes`,
    );
  }
  if (wants('search')) {
    log(
      `search: ${options['search-entities']} entities and ${options['search-checks']} checks, GET /v1/search`,
    );
    results.search = await runSearch({
      entities: options['search-entities'],
      checks: options['search-checks'],
      requests: options['search-requests'],
      logFile: join(logDir, 'search.log'),
      onProgress: log,
    });
  }
  if (wants('abuse')) {
    results.abuse = [];
    for (const side of ['this', 'against'] as const) {
      const checkout = sides[side];
      if (!checkout) continue;
      log(
        `abuse (${checkout.commit}): ${options['abuse-addresses']} addresses on a public page, ${options['abuse-readers']} expensive-read loops of one key, GET /healthz`,
      );
      const a = await runAbuse({
        entities: options['page-entities'],
        addresses: options['abuse-addresses'],
        readers: options['abuse-readers'],
        samples: options['abuse-samples'],
        logFile: join(logDir, `abuse-${side}.log`),
        ...(side === 'against' ? { root: checkout.dir } : {}),
        onProgress: log,
      });
      results.abuse.push({ ...a, commit: checkout.commit });
      log(
        `  /healthz p50 ${Math.round(a.healthz.p50)} ms, p99 ${Math.round(a.healthz.p99)} ms (${a.healthz.count} GETs, ${a.healthzFailed} failed); pages ${a.pages.ok}; subscribes ${a.subscribes.accepted} accepted, ${a.subscribes.other} other; reads ${a.reads.ok} ok, ${a.reads.refused} refused`,
      );
    }
  }
  if (wants('ingest')) {
    log(
      `ingest: ${options['ingest-entities'] * options['ingest-alerts-per-entity']} Alertmanager alerts on ${options['ingest-entities']} entities in ${options['ingest-requests']} requests (${options['ingest-concurrency']} at once), then their resolves`,
    );
    results.ingest = await runIngest({
      entities: options['ingest-entities'],
      alertsPerEntity: options['ingest-alerts-per-entity'],
      requests: options['ingest-requests'],
      concurrency: options['ingest-concurrency'],
      logFile: join(logDir, 'ingest.log'),
      onProgress: log,
    });
  }
  if (wants('ingestcost')) {
    log(
      `ingestcost: ${options['ingestcost-alerts']} Alertmanager alerts on ${options['ingestcost-entities']} entities, ${options['ingestcost-per-request']} a request, through the api function over DynamoDB Local, then their resolves`,
    );
    results.ingestCost = await runIngestCostBench({
      entities: options['ingestcost-entities'],
      alerts: options['ingestcost-alerts'],
      perRequest: options['ingestcost-per-request'],
      onProgress: (line) => log(`  ${line}`),
    });
    const ic = results.ingestCost;
    log(
      `  $${(ic.fire.perAlert.dollarsPerMillion.atScale + ic.resolve.perAlert.dollarsPerMillion.atScale).toFixed(2)} per million alerts (fire and resolve)`,
    );
  }
  if (wants('uptime')) {
    log(`uptime: a 1-minute check with ${options['uptime-days']} days of history, GET .../uptime?window=90d`);
    results.uptime = await runUptime({
      days: options['uptime-days'],
      requests: options['uptime-requests'],
      logFile: join(logDir, 'uptime.log'),
      onProgress: log,
    });
    const u = results.uptime;
    log(
      `  uptime p50 ${Math.round(u.uptime.p50)} ms, p99 ${Math.round(u.uptime.p99)} ms; sparkline p50 ${Math.round(u.sparkline.p50)} ms, p99 ${Math.round(u.sparkline.p99)} ms`,
    );
  }
  if (wants('cost')) {
    log(
      `cost: ${options['cost-checks']} pull checks through the cloud handlers over DynamoDB Local, ${options['cost-cycles']} metered minutes healthy, then flapping`,
    );
    results.cost = await runCost({
      checks: options['cost-checks'],
      cycles: options['cost-cycles'],
      onProgress: (line) => log(`  ${line}`),
    });
    const c = results.cost;
    log(
      `  $${c.healthy.perResult.dollarsPerMillion.atScale.toFixed(2)} per million healthy checks, $${c.flapping.perResult.dollarsPerMillion.atScale.toFixed(2)} per million state changes`,
    );
  }
  if (wants('pingcost')) {
    log(
      `pingcost: ${options['pingcost-checks']} push checks per mode, ${options['pingcost-pings']} reports each (one every ${options['pingcost-every']} min) through the ping function URL, the API's /ping/* route and the keyed route over DynamoDB Local`,
    );
    results.pingCost = await runPingCostBench({
      checks: options['pingcost-checks'],
      pings: options['pingcost-pings'],
      everyMinutes: options['pingcost-every'],
      onProgress: (line) => log(`  ${line}`),
    });
    const pc = results.pingCost;
    log(
      `  $${pc.pingUrl.perPing.dollarsPerMillion.atScale.toFixed(2)} per million pings through the ping function URL, $${pc.ping.perPing.dollarsPerMillion.atScale.toFixed(2)} through API Gateway, $${pc.keyed.perPing.dollarsPerMillion.atScale.toFixed(2)} per million keyed results`,
    );
  }
  if (wants('cronburst')) {
    const jobs = options['cronburst-jobs'];
    log(
      `cronburst: ${jobs} heartbeats of one tenant, each /start in one second then its success 1–30 s later (a fake clock), ${options['cronburst-concurrency']} in flight; then ${options['cronburst-cloud-jobs']} through the cloud handlers over DynamoDB Local`,
    );
    const local = await runCronBurstLocal({
      jobs,
      concurrency: options['cronburst-concurrency'],
      logFile: join(logDir, 'cronburst.log'),
      onProgress: (line) => log(`  ${line}`),
    });
    const cloudJobs = options['cronburst-cloud-jobs'];
    const cloud =
      cloudJobs > 0
        ? await runCronBurstCloud({
            jobs: cloudJobs,
            ...(options['cronburst-due-shards'] ? { dueShards: options['cronburst-due-shards'] } : {}),
            onProgress: (line) => log(`  ${line}`),
          })
        : undefined;
    results.cronBurst = { local, ...(cloud ? { cloud } : {}) };
  }
  if (wants('locationcost')) {
    log(
      `locationcost: ${options['locationcost-checks']} checks from ${options['locationcost-regions']} AWS regions (quorum ${options['locationcost-quorum']}), ${options['locationcost-slots']} slots each, through the generator, the worker and the agent routes over DynamoDB Local`,
    );
    results.locationCost = await runLocationCostBench({
      checks: options['locationcost-checks'],
      slots: options['locationcost-slots'],
      regions: options['locationcost-regions'],
      quorum: options['locationcost-quorum'],
      leaseBatch: options['locationcost-lease-batch'],
      postBatch: options['locationcost-post-batch'],
      onProgress: (line) => log(`  ${line}`),
    });
    const lc = results.locationCost;
    log(
      `  $${lc.perSlot.dollarsPerMillion.atScale.toFixed(2)} per million located slots, $${(lc.perSlot.dollarsPerMillion.atScale / lc.regions.length).toFixed(2)} per million region probes`,
    );
  }
  if (wants('storm-cloud')) {
    log(
      `storm-cloud: ${options['storm-cloud-entities']} entities of one tenant down at once, through the cloud handlers`,
    );
    const cloud = await runStormCloudBench({
      entities: options['storm-cloud-entities'],
      onProgress: (line) => log(`  ${line}`),
    });
    log(formatStormCloud(cloud));
  }
  if (wants('storm')) {
    const runs: { mode: StormFigures['mode']; side: Side }[] = [
      { mode: 'grouped', side: 'this' },
      { mode: 'fold', side: 'this' },
      // The commit before has no grouping: the same workload through a plain route.
      ...(sides.against ? [{ mode: 'fold' as const, side: 'against' as const }] : []),
    ];
    for (const { mode, side } of runs) {
      const root = rootOf(side);
      const commit = root ? (sides.against?.commit ?? 'against') : 'this';
      log(
        `storm (${mode}, ${commit}): ${options['storm-entities']} entities down at once, up after ${options['storm-outage']} s`,
      );
      const figures = await runStorm({
        entities: options['storm-entities'],
        outageSeconds: options['storm-outage'],
        mode,
        logFile: join(logDir, `storm-${mode}${root ? '-against' : ''}.log`),
        ...(root ? { root } : {}),
        onProgress: log,
      });
      storm.push({ ...figures, commit });
      log(`  ${JSON.stringify(figures)}`);
    }
  }
  if (wants('config-apply')) {
    log(
      `config-apply: ${options['config-apply-checks'].join(' and ')} push checks in one POST /v1/config/apply and one by one (at most ${options['config-apply-one-by-one-max']}), ${options['config-apply-runtimes'].join(' and ')}`,
    );
    configApply = await runConfigApply({
      counts: options['config-apply-checks'],
      oneByOneMax: options['config-apply-one-by-one-max'],
      runtimes: options['config-apply-runtimes'],
      onProgress: (line) => log(`  ${line}`),
    });
  }
  if (wants('browser')) {
    log(
      `browser: ${options['browser-checks']} browser checks every ${options['browser-interval']} s, ${options['browser-minutes']} measured minute(s)`,
    );
    const figures = await runBrowserLoad({
      checks: options['browser-checks'],
      intervalSeconds: options['browser-interval'],
      minutes: options['browser-minutes'],
      timeoutMs: 20_000,
      browserRuns: options['browser-runs'],
      probeThreads: options['probe-threads'],
      logFile: join(logDir, 'browser.log'),
      onProgress: (line) => log(`  ${line}`),
    });
    results.browser = figures;
    log(
      `  runs due ${figures.due}, started ${figures.started}, done ${figures.done}; lateness p99 ${Math.round(figures.latenessMs.p99)} ms; ${figures.cpuCores} cores`,
    );
  }
  if (wants('browsercost')) {
    log(`browsercost: ${options['browsercost-runs']} browser runs one at a time, priced as cloud runs`);
    const figures = await runBrowserCost({
      runs: options['browsercost-runs'],
      failureRate: options['browsercost-failure-rate'],
      onProgress: (line) => log(`  ${line}`),
    });
    results.browserCost = figures;
    log(`  $${figures.cost.total.toFixed(4)} per 1,000 runs (run p50 ${Math.round(figures.runMs.p50)} ms)`);
  }
  if (wants('bundles')) {
    log(`bundles: each functions/*.ts built as CDK builds it, then ${options['bundle-runs']} fresh imports`);
    bundles = await runBundles({
      root: repoRoot,
      ...(against ? { against: against.dir } : {}),
      runs: options['bundle-runs'],
      onProgress: log,
    });
  }
  if (wants('crash')) {
    log(`crash: ${options['crash-rounds']} kill -9 rounds of served processes (half at the cell seam)`);
    crash = await runCrashRounds({ rounds: options['crash-rounds'], onProgress: (line) => log(`  ${line}`) });
    log(
      `  ${crash.lostMoves} of ${crash.expectedMoves} state moves lost, ${crash.unexpectedMoves} unexpected; ${crash.lostPushResults} acknowledged push results lost`,
    );
  }
} finally {
  await target?.child.stop();
}

if (sides.against || options.rounds > 1) results.sideBySide = sides;
const targets = evaluateTargets(results);
process.stdout.write(`\n${formatResults(results, targets)}\n`);
if (bundles) process.stdout.write(`${formatBundles(bundles)}\n`);
if (configApply) process.stdout.write(`${formatConfigApply(configApply)}\n`);
const finishedAt = new Date();
const out = options.out ?? join(resultsDir, `${stamp}.json`);
writeFileSync(
  out,
  `${JSON.stringify(
    {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      seconds: Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000),
      machine: { ...machine, loadAverageAtEnd: describeMachine().loadAverage },
      options,
      results,
      ...(bundles ? { bundles } : {}),
      ...(crash ? { crash } : {}),
      ...(storm.length > 0 ? { storm } : {}),
      ...(configApply ? { configApply } : {}),
      targets,
    },
    null,
    2,
  )}\n`,
);
log(`figures written to ${out}`);
