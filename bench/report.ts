import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import type { AbuseFigures } from './abuse.ts';
import type { FlapFigures } from './alert-flapping.ts';
import type { AlertFigures } from './alerts.ts';
import { type BrowserCostFigures, formatBrowserCost } from './browser-cost.ts';
import { type BrowserLoadFigures, formatBrowserLoad } from './browser-load.ts';
import type { ChecksListFigures } from './checks-list.ts';
import { type CostBenchFigures, formatCost } from './cost.ts';
import { type CronBurstFigures, formatCronBurst } from './cronburst.ts';
import type { IngestFigures } from './ingest.ts';
import { formatIngestCost, type IngestCostBenchFigures } from './ingest-cost.ts';
import { formatLocationCost, type LocationCostBenchFigures } from './location-cost.ts';
import { table } from './markdown.ts';
import { formatPingCost, type PingCostBenchFigures } from './ping-cost.ts';
import type { BareFigures, RuntimeFigures } from './probes.ts';
import type { PushFigures } from './push.ts';
import type { SearchFigures } from './search.ts';
import { formatSideBySide, type SideBySide } from './side-by-side.ts';
import { round } from './stats.ts';
import type { StatusFigures } from './status.ts';
import type { StatusPageFigures } from './status-page.ts';
import { THREAD_GROUPS } from './threads.ts';
import type { UptimeFigures } from './uptime.ts';

/** The machine, the tables printed at the end of a run, and the verdict on each target. */

export interface Machine {
  nproc: number;
  memoryGb: number;
  node: string;
  cpuModel: string;
  loadAverage: number[];
}

export function describeMachine(): Machine {
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // Not Linux: os.cpus() it is.
  }
  return {
    nproc: cpus().length,
    memoryGb: round(totalmem() / 1024 ** 3),
    node: process.version,
    cpuModel,
    loadAverage: loadavg().map((l) => round(l, 2)),
  };
}

export interface Results {
  bare: BareFigures[];
  scheduled?: RuntimeFigures;
  max?: RuntimeFigures;
  /** The maximum-rate mode with nothing recorded (a diagnostic; no target). */
  unrecorded?: RuntimeFigures;
  /** The maximum-rate mode with probes sent by undici (the `undici` diagnostic). */
  undici?: RuntimeFigures;
  push?: PushFigures;
  alerts?: AlertFigures;
  status?: StatusFigures;
  statusPage?: StatusPageFigures;
  checksList?: ChecksListFigures;
  /** This checkout's figure, then the --against checkout's when given. */
  abuse?: (AbuseFigures & { commit: string })[];
  uptime?: UptimeFigures;
  ingest?: IngestFigures;
  cost?: CostBenchFigures;
  pingCost?: PingCostBenchFigures;
  cronBurst?: CronBurstFigures;
  ingestCost?: IngestCostBenchFigures;
  browser?: BrowserLoadFigures;
  browserCost?: BrowserCostFigures;
  locationCost?: LocationCostBenchFigures;
  search?: SearchFigures;
  /** --against / --rounds: every run of max and push, per checkout. */
  sideBySide?: SideBySide;
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

/** The bare ceiling: the mean of the bare runs (one before and one after the runtime scenarios). */
function bareCeiling(results: Results): number | undefined {
  if (results.bare.length === 0) return undefined;
  return results.bare.reduce((sum, b) => sum + b.requestsPerSecond, 0) / results.bare.length;
}

export function evaluateTargets(results: Results): Target[] {
  const targets: Target[] = [];
  const s = results.scheduled;
  if (s) {
    targets.push({
      name: 'scheduled lateness',
      goal: `p99 <= 50 ms at ${Math.round(s.demandPerSecond)} probes/s`,
      measured: `p99 ${s.latenessMs.p99} ms at ${Math.round(s.probesPerSecond)} probes/s`,
      met: s.latenessMs.p99 <= 50 && s.probesPerSecond >= 0.98 * s.demandPerSecond,
    });
  }
  const abuse = results.abuse?.[0];
  if (abuse) {
    // Issue 36: no key or address may push /healthz past 300 ms at p99.
    targets.push({
      name: '/healthz under the abuse mix',
      goal: 'p99 <= 300 ms',
      measured: `p50 ${round(abuse.healthz.p50)} ms, p99 ${round(abuse.healthz.p99)} ms`,
      met: abuse.healthz.p99 <= 300 && abuse.healthzFailed === 0,
    });
  }
  const ceiling = bareCeiling(results);
  if (results.max && ceiling) {
    // With --rounds, the mean of this checkout's runs.
    const runs = results.sideBySide?.max.this ?? [results.max];
    const rate = runs.reduce((sum, r) => sum + r.resultsPerSecond, 0) / runs.length;
    const ratio = rate / ceiling;
    targets.push({
      name: 'maximum rate vs bare loop',
      goal: '>= 80% of the bare Node loop',
      measured: `${Math.round(rate)} / ${Math.round(ceiling)} = ${Math.round(ratio * 100)}%`,
      met: ratio >= 0.8,
    });
  }
  const p = results.push;
  if (p) {
    const best = [...p.levels].sort((a, b) => b.vigil.requestsPerSecond - a.vigil.requestsPerSecond)[0];
    // Issue 26: 8,000 results/s at p99 <= 25 ms with 32 in flight.
    const at32 = p.levels.find((l) => l.concurrency === 32);
    const meeting =
      at32 && at32.vigil.requestsPerSecond >= 8000 && at32.vigil.latencyMs.p99 <= 25 ? at32 : undefined;
    const shown = at32 ?? best;
    targets.push({
      name: 'push ingestion',
      goal: '>= 8000 results/s with p99 <= 25 ms at 32 in flight',
      measured: shown
        ? `${Math.round(shown.vigil.requestsPerSecond)} results/s, p99 ${round(shown.vigil.latencyMs.p99)} ms (c=${shown.concurrency})`
        : 'no level ran',
      met: meeting !== undefined,
    });
    targets.push({
      name: 'push durability',
      goal: 'stored results = acknowledged (201) results',
      measured: `${p.stored} stored / ${p.acknowledged} acknowledged`,
      met: p.verified,
    });
  }
  const a = results.alerts;
  if (a) {
    targets.push({
      name: 'alert latency',
      goal: `p99 <= 50 ms from the result's 201 to the receiver's read, ${a.checks} at once, >= 1000 alerts`,
      measured: `p99 ${round(a.from201Ms.p99)} ms from the 201, ${round(a.fromEventMs.p99)} ms from the event time, over ${a.alerts} alerts`,
      met: a.alerts >= 1000 && a.missing === 0 && a.from201Ms.p99 <= 50,
    });
  }
  if (results.status) {
    const p99 = results.status.paged.p99;
    targets.push({
      name: 'status page at scale',
      goal: `counts + first page of down entities p99 <= 100 ms (${results.status.entities} entities)`,
      measured: `p99 ${round(p99, 1)} ms`,
      met: p99 <= 100,
    });
  }
  if (results.ingest) {
    const i = results.ingest;
    const worst = Math.max(i.fire.settledMs, i.resolve.settledMs);
    targets.push({
      name: 'outside alerts in',
      goal: `${i.alerts} Alertmanager alerts on ${i.entities} entities settled within 10 s, and their resolves`,
      measured: `${(i.fire.settledMs / 1000).toFixed(1)} s firing (${i.fire.inState} down), ${(i.resolve.settledMs / 1000).toFixed(1)} s resolving (${i.resolve.inState} up)`,
      met: worst <= 10_000 && i.fire.inState === i.entities && i.resolve.inState === i.entities,
    });
    const cpu = Math.max(i.fire.cpuMsPerAlert, i.resolve.cpuMsPerAlert);
    targets.push({
      name: 'CPU per outside alert',
      goal: '<= 1 ms of server CPU per alert',
      measured: `${i.fire.cpuMsPerAlert.toFixed(2)} ms firing, ${i.resolve.cpuMsPerAlert.toFixed(2)} ms resolving`,
      met: cpu <= 1,
    });
    targets.push({
      name: 'outside alert to a channel',
      goal: 'p99 from the answer that moved an entity to the webhook receiver’s read (no target: reported)',
      measured: `p99 ${Math.round(i.fire.toChannelMs.p99)} ms firing, ${Math.round(i.resolve.toChannelMs.p99)} ms resolving (${i.fire.unread + i.resolve.unread} unread, ${i.fire.digests + i.resolve.digests} digests)`,
      met: i.fire.unread + i.resolve.unread === 0,
    });
  }
  if (results.uptime) {
    const p99 = results.uptime.uptime.p99;
    targets.push({
      name: 'uptime over 90 days',
      goal: `GET .../uptime?window=90d p99 <= 50 ms (a 1-minute check, ${results.uptime.days} days)`,
      measured: `p99 ${round(p99, 1)} ms`,
      met: p99 <= 50,
    });
  }
  const c = results.cost;
  if (c) {
    const healthy = c.healthy.perResult.dollarsPerMillion.atScale;
    const change = c.flapping.perResult.dollarsPerMillion.atScale;
    targets.push({
      name: 'cost of a pull check (cloud)',
      goal: '<= $0.50 per million healthy 1-minute checks, <= $2 per million state changes',
      measured: `$${round(healthy, 2)} healthy, $${round(change, 2)} per state change`,
      met: healthy <= 0.5 && change <= 2,
    });
  }
  const pc = results.pingCost;
  if (pc) {
    // The ping URLs the API shows are on the ping function's URL: the path a ping takes.
    const ping = pc.pingUrl.perPing.dollarsPerMillion.atScale;
    targets.push({
      name: 'cost of a ping (cloud)',
      goal: '<= $2 per million healthy pings (issue 39)',
      measured: `$${round(ping, 2)} per ping through the ping function URL ($${round(pc.ping.perPing.dollarsPerMillion.atScale, 2)} through API Gateway), $${round(pc.keyed.perPing.dollarsPerMillion.atScale, 2)} keyed`,
      met: ping <= 2,
    });
  }
  const cb = results.cronBurst;
  if (cb) {
    const { local: l, cloud: c } = cb;
    const answered = (l.starts.statuses['200'] ?? 0) + (l.successes.statuses['200'] ?? 0);
    const p99 = Math.max(l.starts.latencyMs.p99, l.successes.latencyMs.p99);
    targets.push({
      name: 'the top of the hour (local)',
      goal: `${l.jobs} heartbeats each pinging once in one second: all 200, no 429, p99 <= 250 ms, the runs formed`,
      measured: `${answered} of ${2 * l.jobs} pings 200, ${l.refused} × 429, p99 ${round(p99)} ms, ${l.runsFormed} runs`,
      met: answered === 2 * l.jobs && l.refused === 0 && p99 <= 250 && l.runsFormed === l.jobs,
    });
    if (c) {
      // The starts' second and the successes' seconds, the table's keys and the indexes'.
      const keys = [...c.hottest, ...c.successesHottest].sort((a, b) => b.projected - a.projected);
      const hottest = keys[0]?.projected ?? 0;
      targets.push({
        name: 'the top of the hour (cloud): hottest key',
        goal: '<= 1,000 WCU per partition key (table or index) in a second of the burst, projected to 100,000 jobs',
        measured: `${round(hottest, 0)} WCU (${keys[0]?.pk ?? '-'}), from ${c.jobs} jobs`,
        met: hottest <= 1000,
      });
    }
  }
  return targets;
}

const ms = (v: number) => String(round(v, 1));

function vsBare(mode: string, r: RuntimeFigures, ceiling: number): string {
  if (mode === 'maximum rate' || mode === 'max, undici')
    return `${Math.round((r.resultsPerSecond / ceiling) * 100)}%`;
  if (mode === 'max, unrecorded') return `${Math.round((r.probesPerSecond / ceiling) * 100)}% (probes)`;
  return '-';
}

/** The tables (Markdown), as printed and as pasted into docs/performance.md. */
export function formatResults(results: Results, targets: Target[]): string {
  const out: string[] = [];
  if (results.bare.length > 0) {
    out.push('Bare Node loop (fresh connection per GET, agent: false, its own process):\n');
    out.push(
      table(
        [
          'run',
          'in flight',
          'requests/s',
          'failed',
          'latency p50 ms',
          'p99 ms',
          'loop busy',
          'CPU cores',
          'target CPU',
        ],
        results.bare.map((b, i) => [
          i === 0 ? 'before' : 'after',
          b.concurrency,
          Math.round(b.requestsPerSecond),
          b.failed,
          ms(b.latencyMs.p50),
          ms(b.latencyMs.p99),
          round(b.loop.utilization, 2),
          round(b.loop.cpuCores, 2),
          round(b.targetCpuCores, 2),
        ]),
      ),
    );
  }
  const present: [string, RuntimeFigures][] = [];
  if (results.scheduled) present.push(['scheduled', results.scheduled]);
  if (results.max) present.push(['maximum rate', results.max]);
  if (results.unrecorded) present.push(['max, unrecorded', results.unrecorded]);
  if (results.undici) present.push(['max, undici', results.undici]);
  if (present.length > 0) {
    out.push('\nLocal runtime (startLocalRuntime, SQLite in a temp dir, its own process):\n');
    out.push(
      table(
        ['mode', 'checks', 'interval s', 'demand/s', 'probes/s', 'results/s', 'target req/s', 'vs bare'],
        present.map(([mode, r]) => {
          const ceiling = bareCeiling(results);
          return [
            mode,
            r.checks,
            r.intervalSeconds,
            Math.round(r.demandPerSecond),
            Math.round(r.probesPerSecond),
            Math.round(r.resultsPerSecond),
            Math.round(r.targetRequestsPerSecond),
            // Only the maximum-rate modes run at capacity; the scheduled mode runs at its demand.
            // The unrecorded diagnostic records nothing, so its probes are what counts.
            ceiling ? vsBare(mode, r, ceiling) : '-',
          ];
        }),
      ),
    );
    out.push('');
    out.push(
      table(
        [
          'mode',
          'lateness p50 ms',
          'p95',
          'p99',
          'max',
          'loop delay p99 ms',
          'loop busy',
          'CPU cores',
          'RSS max MB',
          'setup s',
        ],
        present.map(([mode, r]) => [
          mode,
          r.latenessMs.p50,
          r.latenessMs.p95,
          r.latenessMs.p99,
          r.latenessMs.max,
          ms(r.loop.delayP99Ms),
          round(r.loop.utilization, 2),
          round(r.loop.cpuCores, 2),
          r.loop.rssMaxMb,
          round(r.setupSeconds),
        ]),
      ),
    );
    out.push("\nCPU per job by thread, µs (the thread group's cores ÷ jobs started per second):\n");
    out.push(
      table(
        ['mode', ...THREAD_GROUPS, 'process'],
        present.map(([mode, r]) => {
          const perJob = (cores: number) => Math.round((cores * 1e6) / Math.max(1, r.probesPerSecond));
          const all = THREAD_GROUPS.reduce((sum, g) => sum + r.threadCores[g], 0);
          return [mode, ...THREAD_GROUPS.map((g) => perJob(r.threadCores[g])), perJob(all)];
        }),
      ),
    );
  }
  const p = results.push;
  if (p) {
    out.push(`\nPush ingestion (bin/serve.ts child, keep-alive load over ${p.checks} push checks):\n`);
    out.push(
      table(
        [
          'in flight',
          'vigil results/s',
          'p50 ms',
          'p99 ms',
          'errors',
          'server CPU',
          'bare 201/s',
          'bare p50',
          'bare p99',
          'ratio',
        ],
        p.levels.map((l) => [
          l.concurrency,
          Math.round(l.vigil.requestsPerSecond),
          ms(l.vigil.latencyMs.p50),
          ms(l.vigil.latencyMs.p99),
          l.vigil.failed,
          round(l.vigil.serverCpuCores, 2),
          Math.round(l.bare.requestsPerSecond),
          ms(l.bare.latencyMs.p50),
          ms(l.bare.latencyMs.p99),
          `${Math.round(l.ratio * 100)}%`,
        ]),
      ),
    );
    out.push(
      `\nStored results read back through GET /v1/checks/{id}/results: ${p.stored}; acknowledged with 201: ${p.acknowledged} (${p.verified ? 'equal' : 'MISMATCH'}).`,
    );
  }
  const a = results.alerts;
  if (a) {
    out.push(
      `\nAlert latency (bin/serve.ts child, ${a.checks} push checks alerting at once, signed webhooks to an HTTPS receiver child; ms to the receiver's read):\n`,
    );
    const row = (name: string, p: typeof a.from201Ms, count: number, perSecond: number) => [
      name,
      count,
      ms(p.p50),
      ms(p.p95),
      ms(p.p99),
      ms(p.max),
      Math.round(perSecond),
    ];
    out.push(
      table(
        ['from', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'per s'],
        [
          row(
            "the crossing result's 201 (upper bound of its commit)",
            a.from201Ms,
            a.alerts,
            a.alertsPerSecond,
          ),
          row("the event's timestamp (before the commit)", a.fromEventMs, a.alerts, a.alertsPerSecond),
          row(
            'bare HTTPS POST started (same receiver, same width)',
            a.bare.latencyMs,
            a.bare.requests,
            a.bare.requestsPerSecond,
          ),
          row(
            'stage: event time to delivery record (feed, queue, flow)',
            a.stagesMs.toRecord,
            a.stagesMs.toRecord.count,
            a.alertsPerSecond,
          ),
          row(
            'stage: delivery record to read (deliver job, send)',
            a.stagesMs.toRead,
            a.stagesMs.toRead.count,
            a.alertsPerSecond,
          ),
        ],
      ),
    );
    out.push(
      `\n${a.alerts} of ${a.expected} alerts read (${a.missing} missing, ${a.duplicates} duplicate, ${a.badSignatures} bad signatures, ${a.foreign} unmatched); ${a.sentLogged} deliveries logged sent of ${a.sentExpected} with the warm-up; server CPU ${round(a.serverCpuMsPerAlert, 2)} ms per alert; p99 ${round(a.from201Ms.p99 / Math.max(0.001, a.bare.latencyMs.p99), 1)}x the bare POST's.${a.flapSettings ? ' Flap detection off in these rounds.' : ' The server has no flap settings.'}`,
    );
    if (a.flapping) out.push(formatFlapping(a.flapping));
  }
  const cl = results.checksList;
  if (cl) {
    out.push(`\nChecks list, ${cl.checks} checks in one tenant (sequential first pages over HTTP):\n`);
    out.push(
      table(
        ['request', 'requests', 'rows', 'p50 ms', 'p99 ms', 'max ms', 'body bytes'],
        cl.requests.map((r) => [
          `GET ${r.path}`,
          r.latency.count,
          r.rows,
          ms(r.latency.p50),
          ms(r.latency.p99),
          ms(r.latency.max),
          r.bytes,
        ]),
      ),
    );
    if (cl.firstRows) {
      out.push(
        `\nChromium, "Checks" clicked to the first row of /checks: p50 ${ms(cl.firstRows.p50)} ms, max ${ms(cl.firstRows.max)} ms (${cl.firstRows.count} times).`,
      );
    }
  }
  const st = results.status;
  if (st) {
    out.push(`\nStatus page, ${st.entities} entities in one tenant (sequential GETs over HTTP):\n`);
    out.push(
      table(
        ['request', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'body bytes'],
        [
          [
            'GET /v1/status?state=down&limit=100',
            st.paged.count,
            ms(st.paged.p50),
            ms(st.paged.p99),
            ms(st.paged.max),
            st.pagedBytes,
          ],
          [
            'GET /v1/status?limit=100&include=recent (strips, a push check per row)',
            st.strips.count,
            ms(st.strips.p50),
            ms(st.strips.p99),
            ms(st.strips.max),
            st.stripsBytes,
          ],
          [
            'GET /v1/status (unpaged baseline)',
            st.unpaged.count,
            ms(st.unpaged.p50),
            ms(st.unpaged.p99),
            ms(st.unpaged.max),
            st.unpagedBytes,
          ],
        ],
      ),
    );
    out.push(`\nStartup seeding the counters and state index of every entity: ${st.startupSeconds} s.`);
    if (st.firstRows) {
      out.push(
        `\nChromium, "Status" clicked to the board's first row: p50 ${ms(st.firstRows.p50)} ms, max ${ms(st.firstRows.max)} ms (${st.firstRows.count} times).`,
      );
    }
  }
  if (results.abuse?.length) {
    const first = results.abuse[0];
    out.push(
      `\nGET /healthz under the abuse mix (${first?.addresses} addresses reading a public page of ${first?.entities} entities, one key's ${first?.readers} loops of expensive reads; /healthz one GET at a time):\n`,
    );
    out.push(
      table(
        [
          'commit',
          'healthz',
          'failed',
          'p50 ms',
          'p99 ms',
          'max ms',
          'page answers',
          'reads 200',
          'reads 429',
        ],
        results.abuse.map((a) => [
          a.commit,
          a.healthz.count,
          a.healthzFailed,
          ms(a.healthz.p50),
          ms(a.healthz.p99),
          ms(a.healthz.max),
          a.pages.ok,
          a.reads.ok,
          a.reads.refused,
        ]),
      ),
    );
  }
  const up = results.uptime;
  if (up) {
    out.push(
      `\nUptime of a 1-minute check with ${up.days} days of history (${up.items} items, ${up.todayBuckets} buckets of today folded; sequential GETs over HTTP):\n`,
    );
    out.push(
      table(
        ['request', 'requests', 'p50 ms', 'p99 ms', 'max ms'],
        [
          [
            'GET /v1/checks/{id}/uptime?window=90d',
            up.uptime.count,
            ms(up.uptime.p50),
            ms(up.uptime.p99),
            ms(up.uptime.max),
          ],
          [
            'GET /v1/checks/{id}/sparkline?hours=24&buckets=48',
            up.sparkline.count,
            ms(up.sparkline.p50),
            ms(up.sparkline.p99),
            ms(up.sparkline.max),
          ],
        ],
      ),
    );
  }
  if (results.sideBySide) out.push(formatSideBySide(results.sideBySide, bareCeiling(results)));
  if (results.cost) out.push(`\n${formatCost(results.cost)}`);
  if (results.pingCost) out.push(`\n${formatPingCost(results.pingCost)}`);
  if (results.cronBurst) out.push(`\n${formatCronBurst(results.cronBurst)}`);
  if (results.ingestCost) out.push(`\n${formatIngestCost(results.ingestCost)}`);
  if (results.browser) out.push(`\n${formatBrowserLoad(results.browser)}`);
  if (results.browserCost) out.push(`\n${formatBrowserCost(results.browserCost)}`);
  if (results.locationCost) out.push(`\n${formatLocationCost(results.locationCost)}`);
  const se = results.search;
  if (se) {
    out.push(
      `\nGlobal search, ${se.entities} entities and ${se.checks} checks in one tenant (sequential GETs over HTTP):\n`,
    );
    out.push(
      table(
        ['GET /v1/search?', 'finds', 'results', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
        se.queries.map((q) => [
          q.query,
          q.what,
          q.results,
          ms(q.latency.p50),
          ms(q.latency.p95),
          ms(q.latency.p99),
          ms(q.latency.max),
        ]),
      ),
    );
    const c = se.console;
    if (c)
      out.push(
        `\nConsole (Chromium): last typed character to the first result shown, the 150 ms typing pause included: p50 ${ms(c.p50)}, p95 ${ms(c.p95)}, max ${ms(c.max)} ms (${c.count} texts).`,
      );
  }
  if (targets.length > 0) {
    out.push('\nTargets:\n');
    out.push(
      table(
        ['target', 'goal', 'measured', 'met'],
        targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : 'no']),
      ),
    );
  }
  return out.join('\n');
}

/** The flapping round of the alerts scenario, apart from its latency. */
function formatFlapping(f: FlapFigures): string {
  return [
    `\nFlapping (same ${f.checks} checks, flap_changes 2, window ${f.windowSeconds} s; changes down, up, down, up, down at once):\n`,
    table(
      ['what', 'expected', 'read', 'p50 ms', 'p99 ms', 'max ms'],
      [
        ['alerts of the first two changes', f.passed.expected, f.passed.read, '', '', ''],
        [
          "flapping notices (from the third change's 201)",
          f.notices.expected,
          f.notices.read,
          ms(f.notices.from201Ms.p50),
          ms(f.notices.from201Ms.p99),
          ms(f.notices.from201Ms.max),
        ],
        ['alerts of held changes read before the window ran out', 0, f.leaked, '', '', ''],
        [
          "settled alerts naming down (from the last change's 201)",
          f.settled.expected,
          `${f.settled.rightState} of ${f.settled.read}`,
          ms(f.settled.afterLastChangeMs.p50),
          ms(f.settled.afterLastChangeMs.p99),
          ms(f.settled.afterLastChangeMs.max),
        ],
        [
          'the same, less the window',
          '',
          '',
          ms(f.settled.lateMs.p50),
          ms(f.settled.lateMs.p99),
          ms(f.settled.lateMs.max),
        ],
      ],
    ),
    `\n${f.duplicates} duplicate notices or settled alerts.`,
  ].join('\n');
}
