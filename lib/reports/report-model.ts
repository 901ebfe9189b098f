import { mergeRollups, percentileFromRollup, type Rollup, uptimeRatio } from '../domain/rollups.ts';
import type { ReportPeriod } from './report-period.ts';

/**
 * The report of one period (pure): what the tenant's data says about it, bounded for an e-mail.
 * As Healthchecks' monthly report: uptime of each blueprint and status page over the period, the
 * incidents opened in it with their durations (one still open at the period's end is ongoing), the
 * mean time to resolve of those resolved in it, and the slowest checks by p95 latency.
 */

/** Rows an e-mail lists per section at most; the rest are counted ("and K more"). */
export const REPORT_BOUNDS = { blueprints: 20, pages: 20, incidents: 25, slowest: 5 } as const;

/** A blueprint or page: its name and its checks' rollups over the period's days. */
interface UptimeSource {
  name: string;
  rollups: readonly Rollup[];
}

interface IncidentSource {
  entityName: string;
  openedMs: number;
  resolvedMs: number | null;
}

export interface CheckSource {
  name: string;
  entityName: string;
  rollups: readonly Rollup[];
}

export interface ReportInput {
  tenantName: string;
  period: ReportPeriod;
  blueprints: readonly UptimeSource[];
  pages: readonly UptimeSource[];
  /** Incidents opened before the period's end and not resolved before its start (any others are ignored). */
  incidents: readonly IncidentSource[];
  /** Checks with their rollups; the builder lists the slowest by p95 (a reader may pass those only). */
  checks: readonly CheckSource[];
  /** The checks the period's figures cover. */
  checkCount: number;
}

export interface UptimeRow {
  name: string;
  /** 0..1, 5 decimals; null without results in the period. */
  uptime: number | null;
}

export interface IncidentRow {
  entity: string;
  openedMs: number;
  resolvedMs: number | null;
  /** Open at the period's end: its duration counts to the end. */
  ongoing: boolean;
  durationMs: number;
}

export interface Listed<T> {
  rows: T[];
  /** Rows left out by the bound. */
  more: number;
}

export interface ReportModel {
  tenantName: string;
  period: ReportPeriod;
  blueprints: Listed<UptimeRow>;
  pages: Listed<UptimeRow>;
  incidents: Listed<IncidentRow>;
  /** Mean of open-to-resolve of the incidents resolved in the period; null when none was. */
  mttrMs: number | null;
  slowest: { name: string; entity: string; p95Ms: number }[];
  counts: { opened: number; resolved: number; ongoing: number; checks: number };
}

function listed<T>(rows: T[], bound: number): Listed<T> {
  return { rows: rows.slice(0, bound), more: Math.max(0, rows.length - bound) };
}

function uptimeRows(sources: readonly UptimeSource[]): UptimeRow[] {
  return sources
    .map((s) => {
      const r = mergeRollups(s.rollups);
      return { name: s.name, uptime: uptimeRatio(r.total, r.failures) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The mean of `durations`, or null for none. */
function meanOf(durations: readonly number[]): number | null {
  if (durations.length === 0) return null;
  return durations.reduce((sum, d) => sum + d, 0) / durations.length;
}

/** The report of `input.period`. */
export function buildReport(input: ReportInput): ReportModel {
  const { startMs, endMs } = input.period;
  const inPeriod = (ms: number) => ms >= startMs && ms < endMs;
  const opened = input.incidents
    .filter((i) => inPeriod(i.openedMs))
    .map((i): IncidentRow => {
      const ongoing = i.resolvedMs === null || i.resolvedMs >= endMs;
      const end = ongoing ? endMs : (i.resolvedMs ?? endMs);
      return {
        entity: i.entityName,
        openedMs: i.openedMs,
        resolvedMs: ongoing ? null : i.resolvedMs,
        ongoing,
        durationMs: end - i.openedMs,
      };
    })
    .sort((a, b) => a.openedMs - b.openedMs || a.entity.localeCompare(b.entity));
  const resolved = input.incidents.filter(
    (i) => i.resolvedMs !== null && inPeriod(i.resolvedMs) && i.openedMs <= i.resolvedMs,
  );
  const slowest = input.checks
    .map((c) => ({
      name: c.name,
      entity: c.entityName,
      p95Ms: percentileFromRollup(mergeRollups(c.rollups), 0.95),
    }))
    .filter((c): c is { name: string; entity: string; p95Ms: number } => c.p95Ms !== null)
    .sort((a, b) => b.p95Ms - a.p95Ms || a.name.localeCompare(b.name))
    .slice(0, REPORT_BOUNDS.slowest);
  return {
    tenantName: input.tenantName,
    period: input.period,
    blueprints: listed(uptimeRows(input.blueprints), REPORT_BOUNDS.blueprints),
    pages: listed(uptimeRows(input.pages), REPORT_BOUNDS.pages),
    incidents: listed(opened, REPORT_BOUNDS.incidents),
    mttrMs: meanOf(resolved.map((i) => (i.resolvedMs ?? 0) - i.openedMs)),
    slowest,
    counts: {
      opened: opened.length,
      resolved: resolved.length,
      ongoing: opened.filter((i) => i.ongoing).length,
      checks: input.checkCount,
    },
  };
}
