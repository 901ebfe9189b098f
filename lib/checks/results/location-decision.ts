import type { TenantStore } from '../../auth/tenants.ts';
import { createTenantCache } from '../../auth/tenants.ts';
import {
  DEFAULT_LOCATION,
  decideSlot,
  locationsOf,
  slotDeadlineMs,
  withLateReport,
} from '../../domain/states.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import { transactIf } from '../../store/items.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import type { CheckRun, CheckStore } from '../definitions/check-store.ts';
import { lastLocationsOp } from '../items/check-state-items.ts';
import {
  type LocationResultRecord,
  locationResultOp,
  slotLocationResults,
} from '../items/location-result-items.ts';
import { locationUptimeOp } from '../items/location-uptime-items.ts';
import { readSlotResult, slotBreakdownOp } from '../items/result-items.ts';
import type { RecordOutcome } from './result-input.ts';
import { type ResultRecorder, slotResultId } from './result-recorder.ts';

/** What one location found for a slot: its probe's result (the agent protocol's `result`). */
export type LocationProbeResult = Omit<
  LocationResultRecord,
  'tenant_id' | 'check_id' | 'slot_ms' | 'location'
>;

export interface LocationReportInput {
  tenantId: string;
  checkId: string;
  slotMs: number;
  location: string;
  result: LocationProbeResult;
  /** Ops committed with the location's result (the local queue's ack of the default location's probe job). */
  alsoCommit?: WriteOp[];
  /** The check as the caller just read it. */
  run?: CheckRun;
}

export type ReportOutcome = 'recorded' | 'duplicate' | 'gone';

/**
 * The details a decided slot's result carries (its steps, a browser run's screenshots and trace):
 * those of a leg that decided it, as a Checkly run shows the failing location's run. Down: a leg
 * that failed; up or degraded: a leg that succeeded; inconclusive: a leg that failed (why the slot
 * is not up). Among those, `default` first (the only leg whose screenshots are kept), then the
 * check's locations in order; the first with details. None when no such leg has any.
 */
function decidingDetails(
  kind: 'failure' | 'success' | 'inconclusive',
  locations: readonly string[],
  reports: readonly LocationResultRecord[],
): Record<string, unknown> | undefined {
  const success = kind === 'success';
  const order = [DEFAULT_LOCATION, ...locations.filter((l) => l !== DEFAULT_LOCATION)];
  const deciding = order
    .map((location) => reports.find((r) => r.location === location))
    .filter((r) => r !== undefined && r.success === success && r.details !== undefined);
  return deciding[0]?.details;
}

/**
 * The deciding side of probe locations (DECISIONS.md "Probe locations (wave 4)"): stores each
 * location's result for a slot and, once lib/domain/states/quorum.ts can decide the slot (early, when
 * every location reported, or at its deadline), records the slot's one result through the result
 * recorder, with the details of the leg that decided it (`decidingDetails`). Whoever decides, the
 * slot's result has the same id: a second decision is a duplicate. A leg reporting after the
 * decision joins its breakdown only: the result's details stay the deciding leg's.
 */
export function createLocationDecider(deps: {
  table: Table;
  recorder: ResultRecorder;
  checks: CheckStore;
  tenants: Pick<TenantStore, 'requireTenant'>;
  clock: Clock;
  logger: Logger;
}) {
  const tenants = createTenantCache(deps);

  const decide = async (
    tenantId: string,
    checkId: string,
    slotMs: number,
    final: boolean,
    known?: CheckRun,
  ): Promise<RecordOutcome | { status: 'waiting' }> => {
    const run = known ?? (await deps.checks.run(tenantId, checkId));
    if (!run?.definition.enabled) return { status: 'gone' };
    const check = run.definition;
    const reports = await slotLocationResults(deps.table, checkId, slotMs);
    const late = deps.clock.now() >= slotDeadlineMs(slotMs, check);
    const decision = decideSlot(check, reports, final || late);
    if (decision.kind === 'wait') return { status: 'waiting' };
    const details = decidingDetails(decision.kind, locationsOf(check), reports);
    return deps.recorder.record({
      tenantId,
      checkId,
      slotMs,
      checkedAtMs: slotMs,
      success: decision.kind === 'success',
      ...(decision.degraded ? { degraded: true } : {}),
      status_code: decision.status_code,
      latency_ms: decision.latency_ms,
      error_message: decision.message,
      locations: decision.locations,
      ...(details ? { details } : {}),
      ...(decision.kind === 'inconclusive' ? { inconclusive: true } : {}),
      ...(reports.some((r) => r.manual) ? { manual: true } : {}),
      run,
    });
  };

  /**
   * A report that came after its slot was decided (quorum reached without it): the slot's result
   * and, while that slot is the check's last, its state show what the location found instead of
   * `unknown`. The decision, the state and the transitions stay as they were.
   */
  const recordLate = async (input: LocationReportInput) => {
    const slotAt = isoTime(input.slotMs);
    const result = await readSlotResult(
      deps.table,
      input.checkId,
      slotAt,
      slotResultId(input.checkId, input.slotMs),
    );
    const late =
      result?.locations &&
      withLateReport(
        { ...result, locations: result.locations },
        { ...input.result, location: input.location },
      );
    if (!result || !late) return;
    await transactIf(deps.table, [slotBreakdownOp(result, slotAt, late)]);
    const { tenantId, checkId } = input;
    await transactIf(deps.table, [lastLocationsOp({ tenantId, checkId, slotAt, locations: late.locations })]);
  };

  return {
    /**
     * Stores one location's result for a slot (with `alsoCommit`), counts it in the location's
     * uptime, and tries to decide the slot. `duplicate`: the location reported this slot before;
     * `gone`: the check is deleted, disabled or no longer probed from that location.
     */
    async report(input: LocationReportInput): Promise<ReportOutcome> {
      const run = input.run ?? (await deps.checks.run(input.tenantId, input.checkId));
      if (!run?.definition.enabled || !locationsOf(run.definition).includes(input.location)) return 'gone';
      const { retention_days } = await tenants.requireTenant(input.tenantId);
      const record: LocationResultRecord = {
        ...input.result,
        tenant_id: input.tenantId,
        check_id: input.checkId,
        slot_ms: input.slotMs,
        location: input.location,
      };
      const stored = await transactIf(deps.table, [
        locationResultOp(record, Math.floor(input.slotMs / 1000) + retention_days * 86_400),
        locationUptimeOp({
          checkId: input.checkId,
          location: input.location,
          slotMs: input.slotMs,
          up: input.result.success,
          retentionDays: retention_days,
        }),
        ...(input.alsoCommit ?? []),
      ]);
      if (!stored) return 'duplicate';
      const decided = await decide(input.tenantId, input.checkId, input.slotMs, false, run);
      // Decided before: the report joins the slot's breakdown only.
      if (decided.status === 'duplicate') await recordLate(input);
      deps.logger.debug('location result stored', {
        check_id: input.checkId,
        slot_ms: input.slotMs,
        location: input.location,
        slot: decided.status,
      });
      return 'recorded';
    },

    /** Decides the slot if it can be (`final`: at its deadline, whoever has not reported is unknown). */
    decide: (tenantId: string, checkId: string, slotMs: number, final: boolean) =>
      decide(tenantId, checkId, slotMs, final),
  };
}

export type LocationDecider = ReturnType<typeof createLocationDecider>;
