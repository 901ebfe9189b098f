import type { TenantStore } from '../../auth/tenants.ts';
import { createTenantCache } from '../../auth/tenants.ts';
import type { CheckDefinitionRecord } from '../../check-types/check-record.ts';
import { type CheckStateSnapshot, evaluateCellSlot, sameSnapshot } from '../../domain/states.ts';
import { resultsCountedOp } from '../../metrics/metric-counter-items.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { type Logger, silentLogger } from '../../platform/logger.ts';
import type { Prober } from '../../probes/types.ts';
import { mergeCounterUpdates } from '../../store/merge-updates.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import { type CellRecord, getCell } from '../cells/cell-items.ts';
import type { CellJob } from '../cells/cell-job.ts';
import { oneOffBeforeRegular, oneOffRunSlot, oneOffSlot } from '../cells/cell-one-off.ts';
import {
  type CellResultsRecord,
  type CellStateRecord,
  cellResultsBetween,
  cellResultsOp,
  cellStateOp,
  getCellResults,
  getCellState,
} from '../cells/cell-result-items.ts';
import { rollUpFinishedBucket } from '../cells/cell-rollups.ts';
import { checkDefinitionsById } from '../check-items.ts';
import type { TransitionRecord } from '../items/transition-items.ts';
import { closeCellDay } from '../results/day-rollups.ts';
import { type ProberFor, probeMembers } from './cell-probe.ts';
import { cellTransitionOps } from './cell-transitions.ts';

export { type CellJob, cellJobId, cellJobSchema } from '../cells/cell-job.ts';

export type CellOutcome =
  | {
      status: 'recorded' | 'duplicate';
      results: number;
      transitions: TransitionRecord[];
      /** The slot's stored results (a manual run answers its member's). */
      record: CellResultsRecord;
    }
  | { status: 'gone' };

export interface CellRunnerDeps {
  table: Table;
  prober: Prober;
  tenants: Pick<TenantStore, 'requireTenant'>;
  clock: Clock;
  /** Where members' screenshots are stored (lib/checks/artifacts); absent: none are kept. */
  artifacts?: ArtifactStore | undefined;
  /** Told of a screenshot that could not be stored; default silent. */
  logger?: Logger;
  /**
   * A fault-injection seam (tests, the crash bench): runs after a slot's results are stored and
   * before its state moves are written, the window a crash must not lose anything in.
   */
  afterResultsStored?: (job: CellJob, record: CellResultsRecord) => void | Promise<void>;
}

const UP: CheckStateSnapshot = { state: 'up', consecutive_failures: 0 };
/** Ops per transaction (DynamoDB's limit). */
const MAX_OPS = 100;
/** Rounds of one slot at most: 100 members of 100 entities take about 17. */
const MAX_ROUNDS = 64;
/** How far back a moving slot looks for stored slots left unapplied: past a redelivery's delay. */
const CATCH_UP_MS = 15 * 60_000;
const CATCH_UP_SLOTS = 100;

/**
 * Runs one slot of a cell: probes its members together, stores their results as ONE item (a plain
 * conditional put: the whole cost of a healthy slot), and only when some member's state or failure
 * count moved, writes the cell's state with those members' transitions and their entities'
 * aggregates, in transactions held on the state's version. A redelivered job finds its slot's
 * results and applies them to the members they have not moved yet (each member keeps the slot
 * that last moved it), so nothing is recorded twice.
 */
export function createCellRunner(deps: CellRunnerDeps) {
  const tenants = createTenantCache(deps);
  /** Definitions kept parsed, by `<tenant>/<check>`, reused while the cell names their version. */
  const definitions = new Map<string, CheckDefinitionRecord>();

  const membersOf = async (cell: CellRecord): Promise<CheckDefinitionRecord[]> => {
    const key = (id: string) => `${cell.tenant_id}/${id}`;
    const stale = Object.entries(cell.members)
      .filter(([id, version]) => definitions.get(key(id))?.version !== version)
      .map(([id]) => id);
    if (stale.length > 0) {
      for (const definition of await checkDefinitionsById(deps.table, cell.tenant_id, stale)) {
        definitions.set(key(definition.id), definition);
      }
    }
    // In id order: a map's order is not kept by every engine, a slot's results are.
    return Object.keys(cell.members)
      .sort()
      .flatMap((id) => {
        const definition = definitions.get(key(id));
        return definition?.enabled && definition.execution_mode === 'pull' ? [definition] : [];
      });
  };

  /**
   * Applies a slot's results to the members it has not moved yet, in rounds of at most one
   * transaction: each round reads the state, evaluates the members still pending (a member keeps
   * the slot that last moved it) and commits the moves that fit, held on the state's version. A
   * crash between rounds leaves the rest pending, and the redelivered job finishes them.
   */
  const applySlot = async (
    cell: CellRecord,
    members: CheckDefinitionRecord[],
    record: CellResultsRecord,
    retentionDays: number,
    catchingUp = false,
  ): Promise<TransitionRecord[]> => {
    const recorded: TransitionRecord[] = [];
    const thresholds = Object.fromEntries(members.map((m) => [m.id, m.failure_threshold]));
    const successThresholds = Object.fromEntries(members.map((m) => [m.id, m.success_threshold ?? 1]));
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const current = await getCellState(deps.table, cell.id);
      // A slot older than one that already moved a member is stored, not applied: states move forward
      // (but members' one-offs moved in another order than they were stored in are each applied).
      if (current && record.slot < current.last_slot && !(await oneOffBeforeRegular(deps, cell, record)))
        return recorded;
      const pending = record.results.filter((entry) => (current?.members[entry.c]?.slot ?? '') < record.slot);
      const before: Record<string, CheckStateSnapshot> = {};
      for (const entry of pending) {
        const stored = current?.members[entry.c];
        before[entry.c] = stored
          ? {
              state: stored.state,
              consecutive_failures: stored.consecutive_failures,
              consecutive_successes: stored.consecutive_successes ?? 0,
            }
          : UP;
      }
      const evaluation = evaluateCellSlot(
        before,
        pending.map((entry) => ({
          check_id: entry.c,
          success: entry.ok,
          ...(entry.g ? { degraded: true, message: entry.e } : {}),
        })),
        thresholds,
        successThresholds,
      );
      if (!evaluation.changed) return recorded;
      // First the stored slots since the last move, oldest first: one applied before moved nobody, so it
      // moves nobody again; one whose worker died between its two writes is applied now, not made too old.
      const slotMs = Date.parse(record.slot);
      const back = Math.min(CATCH_UP_MS, CATCH_UP_SLOTS * cell.interval_seconds * 1000);
      const fromMs = Math.max(slotMs - back, current?.last_slot ? Date.parse(current.last_slot) + 1 : 0);
      // Nothing lies between the last applied slot and this one when this one is that slot (two
      // members' one-off probes in the same millisecond).
      if (round === 0 && !catchingUp && fromMs <= slotMs - 1) {
        const older = await cellResultsBetween(deps.table, cell.id, {
          from: isoTime(fromMs),
          to: isoTime(slotMs - 1),
          max: CATCH_UP_SLOTS,
        });
        for (const slot of older)
          recorded.push(...(await applySlot(cell, members, slot, retentionDays, true)));
        if (older.length > 0) continue;
      }
      const moved = await cellTransitionOps(
        deps,
        cell,
        members,
        evaluation.transitions,
        record.slot,
        retentionDays,
        MAX_OPS - 1,
      );
      const transitioning = new Set(evaluation.transitions.map((t) => t.check_id));
      const nextMembers: CellStateRecord['members'] = { ...(current?.members ?? {}) };
      for (const [id, snapshot] of Object.entries(evaluation.next)) {
        const was = before[id];
        const same = was !== undefined && sameSnapshot(was, snapshot);
        // This round moves the members without a transition and those whose entity fitted.
        if (same || (transitioning.has(id) && !moved.covered.has(id))) continue;
        if (snapshot.state === 'up' && snapshot.consecutive_failures === 0) delete nextMembers[id];
        else nextMembers[id] = { ...snapshot, slot: record.slot };
      }
      const next: CellStateRecord = {
        cell_id: cell.id,
        tenant_id: cell.tenant_id,
        last_slot: current && current.last_slot > record.slot ? current.last_slot : record.slot,
        members: nextMembers,
        version: (current?.version ?? 0) + 1,
      };
      try {
        await deps.table.transact(mergeCounterUpdates([cellStateOp(next, current?.version), ...moved.ops]));
        recorded.push(...moved.transitions);
      } catch (error) {
        // Another writer moved the state or an entity meanwhile: read again and evaluate again.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    throw new Error(`cell ${cell.id} kept changing while its slot was recorded`);
  };

  /** A stored slot's state moves, then the rollups it finishes (each written once). */
  const finish = async (
    cell: CellRecord,
    members: CheckDefinitionRecord[],
    record: CellResultsRecord,
    retentionDays: number,
    slotMs: number,
  ): Promise<TransitionRecord[]> => {
    const transitions = await applySlot(cell, members, record, retentionDays);
    await rollUpFinishedBucket(deps.table, cell, slotMs, retentionDays);
    await closeCellDay(deps.table, cell, slotMs, retentionDays);
    return transitions;
  };

  return {
    /**
     * Applies a slot's stored results without probing: what a restart does for a slot whose
     * process died between its results and its state moves (the members it moved already keep
     * it). `stored: false` when the slot has no results (it never probed: nothing to apply).
     */
    async reapply(job: CellJob): Promise<{ stored: boolean; transitions: TransitionRecord[] }> {
      const cell = await getCell(deps.table, job.shard, job.cell_id);
      if (!cell || cell.tenant_id !== job.tenant_id) return { stored: false, transitions: [] };
      // A one-off's results are under the first slot from its own holding its member.
      const own = job.check_id ? await oneOffSlot(deps.table, cell, job.slot_ms, job.check_id) : undefined;
      const record = own ? own.ran : await getCellResults(deps.table, cell.id, isoTime(job.slot_ms));
      if (!record) return { stored: false, transitions: [] };
      const members = await membersOf(cell);
      if (members.length === 0) return { stored: true, transitions: [] };
      const tenant = await tenants.requireTenant(cell.tenant_id);
      return {
        stored: true,
        transitions: own
          ? await applySlot(cell, members, record, tenant.retention_days)
          : await finish(cell, members, record, tenant.retention_days, job.slot_ms),
      };
    },

    /** `proberFor`: each member's prober instead of deps.prober (locally: bounded, with the hooks). */
    async run(job: CellJob, options: { proberFor?: ProberFor } = {}): Promise<CellOutcome> {
      const cell = await getCell(deps.table, job.shard, job.cell_id);
      if (!cell || cell.tenant_id !== job.tenant_id) return { status: 'gone' };
      const members = (await membersOf(cell)).filter((m) => !job.check_id || m.id === job.check_id);
      if (members.length === 0) return { status: 'gone' };
      const tenant = await tenants.requireTenant(cell.tenant_id);
      // A one-off's own slot (cell-one-off.ts); a late first probe is dropped.
      const slotMs = job.check_id ? await oneOffRunSlot(deps, cell, job) : job.slot_ms;
      if (slotMs === undefined) return { status: 'gone' };
      const slot = isoTime(slotMs);
      const probed = await probeMembers(members, slotMs, options.proberFor ?? (() => deps.prober), {
        artifacts: deps.artifacts,
        logger: deps.logger ?? silentLogger,
      });
      const results = job.manual ? probed.map((entry) => ({ ...entry, m: true })) : probed;
      let record: CellResultsRecord = { cell_id: cell.id, tenant_id: cell.tenant_id, slot, results };
      let fresh = true;
      try {
        await deps.table.transact([cellResultsOp(record, tenant.retention_days)]);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // Delivered before: the first delivery's results stand; apply what it may not have.
        fresh = false;
        record = (await getCellResults(deps.table, cell.id, slot)) ?? record;
      }
      // The tenant's result counters (GET /v1/metrics) move as the slot lands, by the delivery that
      // stored it: never twice; a crash between the two writes loses one slot's counts, as the
      // alert tally may lose a batch. One small write a slot, outside the put: in one transaction
      // the slot item, several KB, would cost twice its write.
      if (fresh)
        await deps.table.update(
          resultsCountedOp(cell.tenant_id, cell.id, {
            total: record.results.length,
            failures: record.results.filter((r) => !r.ok).length,
          }),
        );
      await deps.afterResultsStored?.(job, record);
      // A one-off finishes no bucket or day: the next regular slot does, after every slot before it.
      const transitions = job.check_id
        ? await applySlot(cell, members, record, tenant.retention_days)
        : await finish(cell, members, record, tenant.retention_days, slotMs);
      return {
        status: fresh || transitions.length > 0 ? 'recorded' : 'duplicate',
        results: record.results.length,
        transitions,
        record,
      };
    },
  };
}

export type CellRunner = ReturnType<typeof createCellRunner>;
