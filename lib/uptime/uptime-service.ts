import { getEntity, getEntityById } from '../catalog/entities.ts';
import {
  checkBuckets,
  checkTransitionsSource,
  type DailyCheck,
  entityDailyChecks,
  parseTransition,
} from '../checks/results.ts';
import type { CheckService } from '../checks/services.ts';
import {
  bucketStartMs,
  DAY_MS,
  dayStartMs,
  downtimeOf,
  errorBudgetRemaining,
  lastDays,
  mergeRollups,
  percentileFromRollup,
  ROLLUP_BUCKET_MS,
  type Rollup,
  statePeriods,
  uptimeRatio,
} from '../domain/rollups.ts';
import { readIncidents } from '../incidents/incident-items.ts';
import type { Clock } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import { type PageDeps, readPage } from '../store/paging.ts';
import { dailyBars, summedDailyRollups } from './daily-uptime.ts';
import { type LocationUptime, locationUptimeOf } from './location-uptime.ts';

/**
 * Uptime and SLO figures of a check or an entity over a window (DECISIONS.md "Operations features
 * (wave 3)"), from rollups only: `24h` from the 5-minute rollups of the last 24 hours (at most 288
 * per place the check's results are in), `7d`/`30d`/`90d` from daily rollups of that many UTC days,
 * today included (lib/checks/results/day-rollups.ts). Downtime, incidents and MTTR come from the check's
 * transitions, or the entity's incidents.
 */

export const UPTIME_WINDOWS = ['24h', '7d', '30d', '90d'] as const;
export type UptimeWindow = (typeof UPTIME_WINDOWS)[number];
const WINDOW_DAYS: Record<UptimeWindow, number> = { '24h': 1, '7d': 7, '30d': 30, '90d': 90 };

/** Transitions or incidents read for one answer at most (newest first, back to the window's start). */
const MAX_EVENTS = 2000;
const PAGE = 200;

export interface UptimeDeps extends PageDeps {
  clock: Clock;
  checkService: CheckService;
}

export interface UptimeFigures {
  window: UptimeWindow;
  uptime_ratio: number | null;
  results: number;
  failures: number;
  downtime_seconds: number;
  incidents: number;
  mttr_seconds: number | null;
  latency_ms: { p50: number | null; p95: number | null; p99: number | null };
  slo_target?: number;
  error_budget_remaining?: number | null;
  /** The daily windows (7d, 30d, 90d): each UTC day's uptime, oldest first (the console's bars). */
  days?: DailyUptime[];
  /** A located check: each location's own reports in the window (its first and last UTC days whole). */
  locations?: LocationUptime[];
}

export interface DailyUptime {
  date: string;
  uptime_ratio: number | null;
}

/** The window's start (ms): 24 h before the end of the current 5-minute bucket, or the first of its UTC days. */
function windowStart(window: UptimeWindow, nowMs: number): number {
  if (window === '24h') return bucketStartMs(nowMs) + ROLLUP_BUCKET_MS - DAY_MS;
  return dayStartMs(nowMs) - (WINDOW_DAYS[window] - 1) * DAY_MS;
}

async function rollupOf(
  deps: UptimeDeps,
  checks: readonly DailyCheck[],
  window: UptimeWindow,
  nowMs: number,
): Promise<{ rollup: Rollup; days?: DailyUptime[] }> {
  if (window === '24h') {
    const end = bucketStartMs(nowMs) + ROLLUP_BUCKET_MS;
    const buckets = await Promise.all(checks.map((c) => checkBuckets(deps.table, c, end - DAY_MS, end)));
    return { rollup: mergeRollups(buckets.flat().map((b) => b.rollup)) };
  }
  const dates = lastDays(nowMs, WINDOW_DAYS[window]);
  const daily = await summedDailyRollups(deps.table, checks, dates, nowMs);
  // The per-day answer costs nothing more: the window's figures are the sum of these days.
  return { rollup: mergeRollups([...daily.values()]), days: dailyBars(dates, daily) };
}

function figures(
  window: UptimeWindow,
  { rollup, days }: { rollup: Rollup; days?: DailyUptime[] },
  down: ReturnType<typeof downtimeOf>,
  slo?: number,
) {
  const ratio = uptimeRatio(rollup.total, rollup.failures);
  const answer: UptimeFigures = {
    window,
    uptime_ratio: ratio,
    results: rollup.total,
    failures: rollup.failures,
    ...down,
    latency_ms: {
      p50: percentileFromRollup(rollup, 0.5),
      p95: percentileFromRollup(rollup, 0.95),
      p99: percentileFromRollup(rollup, 0.99),
    },
  };
  if (slo !== undefined) {
    answer.slo_target = slo;
    answer.error_budget_remaining = errorBudgetRemaining(ratio, slo);
  }
  if (days) answer.days = days;
  return answer;
}

export function createUptimeService(deps: UptimeDeps) {
  /** The check's transitions back to before `startMs` (oldest first), at most MAX_EVENTS. */
  const checkTransitions = async (checkId: string, startMs: number) => {
    const read: { atMs: number; from: string; to: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await readPage(deps, checkTransitionsSource(checkId), { limit: PAGE, cursor });
      for (const item of page.items) {
        const t = parseTransition(item);
        read.push({ atMs: Date.parse(t.created_at), from: t.from_state, to: t.to_state });
      }
      cursor = page.nextCursor ?? undefined;
      if ((read.at(-1)?.atMs ?? 0) < startMs) break;
    } while (cursor && read.length < MAX_EVENTS);
    return read.reverse();
  };

  const checkUptime = async (tenantId: string, checkId: string, window: UptimeWindow) => {
    const check = await deps.checkService.requireCheck(tenantId, checkId);
    const nowMs = deps.clock.now();
    const start = windowStart(window, nowMs);
    const [rollup, transitions, locations] = await Promise.all([
      rollupOf(deps, [check], window, nowMs),
      checkTransitions(check.id, start),
      locationUptimeOf(deps.table, check, start, nowMs),
    ]);
    // A check created in the window has no state before it: only its time since counts.
    const from = Math.max(start, Date.parse(check.created_at));
    const before = transitions.filter((t) => t.atMs < from).at(-1);
    const initial = before?.to ?? transitions.find((t) => t.atMs >= from)?.from ?? check.state;
    const periods = statePeriods(initial, transitions, from, nowMs);
    const slo = check.slo_target ?? undefined;
    const answer = figures(window, rollup, downtimeOf(periods, start, nowMs), slo);
    return locations ? { ...answer, locations } : answer;
  };

  /** The entity's incidents back to the first opened before `startMs` (an entity has one at a time). */
  const entityIncidents = async (tenantId: string, entityId: string, startMs: number) => {
    const read: { opened: number; resolved: number | null }[] = [];
    let cursor: string | undefined;
    do {
      const page = await readIncidents(deps, tenantId, { entity_id: entityId, limit: PAGE, cursor });
      for (const i of page.incidents) {
        read.push({
          opened: Date.parse(i.opened_at),
          resolved: i.resolved_at ? Date.parse(i.resolved_at) : null,
        });
      }
      cursor = page.nextCursor ?? undefined;
      if ((read.at(-1)?.opened ?? 0) < startMs) break;
    } while (cursor && read.length < MAX_EVENTS);
    return read;
  };

  const entityUptime = async (tenantId: string, entityId: string, window: UptimeWindow) => {
    const nowMs = deps.clock.now();
    const start = windowStart(window, nowMs);
    const checks = await entityDailyChecks(deps.table, tenantId, entityId);
    const [rollup, incidents] = await Promise.all([
      rollupOf(deps, checks, window, nowMs),
      entityIncidents(tenantId, entityId, start),
    ]);
    // An incident is the entity away from up (down or degraded) until it is up again.
    const periods = incidents
      .map((i) => ({ startMs: i.opened, endMs: i.resolved ?? nowMs, state: 'down' }))
      .filter((p) => p.endMs > start)
      .map((p) => ({ ...p, startMs: Math.max(p.startMs, start) }))
      .sort((a, b) => a.startMs - b.startMs);
    return figures(window, rollup, downtimeOf(periods, start, nowMs));
  };

  return {
    checkUptime,
    /** GET /v1/blueprints/{bp}/entities/{slug}/uptime: 404 for an entity of no (or another) tenant. */
    async entityUptimeBySlug(tenantId: string, blueprintSlug: string, slug: string, window: UptimeWindow) {
      const entity = await getEntity(deps.table, tenantId, blueprintSlug, slug);
      if (!entity) throw new NotFoundError('entity');
      return entityUptime(tenantId, entity.id, window);
    },
    async entityUptimeById(tenantId: string, entityId: string, window: UptimeWindow) {
      const entity = await getEntityById(deps.table, tenantId, entityId);
      if (!entity) throw new NotFoundError('entity');
      return entityUptime(tenantId, entity.id, window);
    },
  };
}

export type UptimeService = ReturnType<typeof createUptimeService>;
