/**
 * Probe locations' quorum (DECISIONS.md "Probe locations (wave 4)"): how one slot's per-location
 * results become the check's result. Pure: lib/checks/results/location-decision.ts reads the
 * reports and records what this decides.
 */

/** The runtime's own workers: every check's location unless it names others. */
export const DEFAULT_LOCATION = 'default';

/** The most locations one check may name. */
export const MAX_CHECK_LOCATIONS = 10;

/** What one location reported for a slot. */
export interface LocationReport {
  location: string;
  success: boolean;
  degraded?: boolean;
  status_code: number;
  latency_ms: number;
  error_message: string;
}

/** One location's part in a decided slot, as results show it (`unknown`: it did not report in time). */
export interface LocationOutcome {
  location: string;
  outcome: 'up' | 'degraded' | 'down' | 'unknown';
  status_code: number | null;
  latency_ms: number | null;
  error_message: string;
}

export type SlotDecision =
  | { kind: 'wait' }
  | {
      kind: 'failure' | 'success' | 'inconclusive';
      /** A success most of whose deciding locations were slow (at least `quorum` degraded). */
      degraded: boolean;
      /** The result's message: which locations said what ("down from 2 of 3 locations: …"). */
      message: string;
      status_code: number;
      /** The median latency of the locations that reported (0 when none did). */
      latency_ms: number;
      locations: LocationOutcome[];
    };

/** The default quorum: 1 for one location, a majority (floor(n/2)+1) for several. */
export function defaultQuorum(locationCount: number): number {
  return locationCount <= 1 ? 1 : Math.floor(locationCount / 2) + 1;
}

/** A check's quorum: its own, else the default for its locations. */
export function quorumOf(check: {
  locations?: readonly string[] | undefined;
  quorum?: number | null;
}): number {
  return check.quorum ?? defaultQuorum(locationsOf(check).length);
}

/** A check's locations (absent on checks stored before locations: `default`). */
export function locationsOf(check: { locations?: readonly string[] | undefined }): readonly string[] {
  return check.locations && check.locations.length > 0 ? check.locations : [DEFAULT_LOCATION];
}

/** Whether a check probes anywhere but its runtime's own workers (then it runs per slot, not in a cell). */
export function probesFromLocations(check: { locations?: readonly string[] | undefined }): boolean {
  const locations = locationsOf(check);
  return !(locations.length === 1 && locations[0] === DEFAULT_LOCATION);
}

/**
 * When a slot is decided at the latest: the interval or 60 s, whichever is less, plus the probe
 * timeout. A location that has not reported by then is unknown for the slot.
 */
export function slotDeadlineMs(
  slotMs: number,
  check: { interval_seconds: number; timeout_ms: number },
): number {
  return slotMs + Math.min(check.interval_seconds, 60) * 1000 + check.timeout_ms;
}

/**
 * Decides a slot from the reports in so far. A failure counts when at least `quorum` locations
 * report failure; a success when more than n − quorum report success (the failures can no longer
 * reach the quorum). Both are final as soon as they hold, so a slot is decided early. Otherwise it
 * waits, unless `final` (every location reported, or the deadline passed): then it is
 * `inconclusive`, recorded without moving the check's state. A location that did not report is
 * `unknown` and never counts as a failure.
 */
export function decideSlot(
  check: { locations?: readonly string[] | undefined; quorum?: number | null },
  reports: readonly LocationReport[],
  final: boolean,
): SlotDecision {
  const locations = locationsOf(check);
  const n = locations.length;
  const quorum = Math.min(quorumOf(check), n);
  const byLocation = new Map(
    reports.filter((r) => locations.includes(r.location)).map((r) => [r.location, r]),
  );
  const reported = [...byLocation.values()];
  const failed = reported.filter((r) => !r.success);
  const succeeded = reported.filter((r) => r.success);
  const everyone = reported.length === n;
  let kind: 'failure' | 'success' | 'inconclusive';
  if (failed.length >= quorum) kind = 'failure';
  else if (succeeded.length > n - quorum) kind = 'success';
  else if (final || everyone) kind = 'inconclusive';
  else return { kind: 'wait' };
  const outcomes = locations.map((location) => outcomeOf(location, byLocation.get(location)));
  const degraded = kind === 'success' && succeeded.filter((r) => r.degraded).length >= quorum;
  return {
    kind,
    degraded,
    message: messageOf(kind, degraded, outcomes, failed.length, n),
    status_code: (kind === 'failure' ? failed[0] : (succeeded[0] ?? failed[0]))?.status_code ?? 0,
    latency_ms: median(reported.map((r) => r.latency_ms)),
    locations: outcomes,
  };
}

/**
 * A decided slot's breakdown and message with a location's late report in them: the report came
 * after the slot was decided without it (its part `unknown`). The decision (its outcome) stays as
 * it was; the breakdown shows what the location found and the message names it as it would have
 * had the report come in time (an inconclusive slot's message, decided at its deadline, stays).
 * Undefined when the breakdown holds no unknown part of it.
 */
export function withLateReport(
  decided: {
    success: boolean;
    degraded?: boolean | undefined;
    inconclusive?: boolean | undefined;
    error_message: string;
    locations: readonly LocationOutcome[];
  },
  report: LocationReport,
): { locations: LocationOutcome[]; message: string } | undefined {
  const breakdown = decided.locations;
  const at = breakdown.findIndex((o) => o.location === report.location && o.outcome === 'unknown');
  if (at < 0) return undefined;
  const locations = breakdown.map((o, i) => (i === at ? outcomeOf(report.location, report) : o));
  if (decided.inconclusive) return { locations, message: decided.error_message };
  const failures = locations.filter((o) => o.outcome === 'down').length;
  const kind = decided.success ? 'success' : 'failure';
  const degraded = decided.degraded === true;
  return { locations, message: messageOf(kind, degraded, locations, failures, locations.length) };
}

function outcomeOf(location: string, report: LocationReport | undefined): LocationOutcome {
  if (!report)
    return { location, outcome: 'unknown', status_code: null, latency_ms: null, error_message: '' };
  return {
    location,
    outcome: !report.success ? 'down' : report.degraded ? 'degraded' : 'up',
    status_code: report.status_code,
    latency_ms: report.latency_ms,
    error_message: report.error_message,
  };
}

/** How one location reads in a message: `office 503`, `eu-west-1 timeout`, `us-east-1 ok`. */
function said(outcome: LocationOutcome): string {
  if (outcome.outcome === 'unknown') return `${outcome.location} no report`;
  if (outcome.outcome === 'up') return `${outcome.location} ok`;
  const what = outcome.error_message.trim() || (outcome.status_code ? String(outcome.status_code) : 'failed');
  return `${outcome.location} ${what.length > 120 ? `${what.slice(0, 119)}…` : what}`;
}

function messageOf(
  kind: 'failure' | 'success' | 'inconclusive',
  degraded: boolean,
  outcomes: LocationOutcome[],
  failures: number,
  n: number,
): string {
  const bad = outcomes.filter((o) => o.outcome === 'down' || o.outcome === 'degraded').map(said);
  const rest = outcomes.filter((o) => o.outcome !== 'down' && o.outcome !== 'degraded').map(said);
  const list = [bad.join(', '), rest.join(', ')].filter(Boolean).join('; ');
  if (kind === 'failure') return `down from ${failures} of ${n} locations: ${list}`;
  if (kind === 'inconclusive') {
    const heard = outcomes.filter((o) => o.outcome !== 'unknown').length;
    return `inconclusive: ${heard} of ${n} locations reported: ${list}`;
  }
  if (degraded) return `degraded from ${bad.length} of ${n} locations: ${list}`;
  return failures > 0 ? `up from ${n - failures} of ${n} locations: ${list}` : '';
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] ?? 0)
    : Math.round(((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2);
}
