import type { CheckRecord } from '../../check-types/check-record.ts';
import { runsAlone } from '../../check-types/registry.ts';
import { probesFromLocations } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import type { WriteOp } from '../../store/table.ts';
import type { CellMembership, CellPlace } from './cell-membership.ts';

/** A cell the check left, and when (lib/check-types/check-record.ts `former_cells`). */
export type FormerCell = NonNullable<CheckRecord['former_cells']>[number];

/**
 * Former cells kept at most, however often a check is disabled and enabled within its retention:
 * each is a read of the results list and the sparkline, and the definition item stays small.
 */
export const MAX_FORMER_CELLS = 20;

const DAY_MS = 86_400_000;

/** What decides whether a check runs in a cell. */
export interface CellFields {
  check_type: string;
  execution_mode: string;
  enabled: boolean;
  locations?: readonly string[] | undefined;
}

/**
 * Whether a check runs in a cell: enabled pull checks do (issue 26's layout), except located ones
 * (lib/domain/states/quorum.ts), whose slots are per-check probe jobs that fan out to their locations,
 * and those of a type whose every run is a process of its own (browser), whose slots are per-check
 * probe jobs too: a cell's slot would wait for its slowest member, and the cloud runs them elsewhere.
 */
export const inCell = (check: CellFields) =>
  check.execution_mode === 'pull' &&
  check.enabled &&
  !probesFromLocations(check) &&
  !runsAlone(check.check_type);

/**
 * `former` with `left` added in front, without entries whose results have all expired (left more
 * than the retention ago) and bounded to MAX_FORMER_CELLS.
 */
export function withFormerCell(
  former: readonly FormerCell[] | undefined,
  left: FormerCell,
  options: { nowMs: number; retentionDays: number },
): FormerCell[] {
  const oldest = options.nowMs - options.retentionDays * DAY_MS;
  return [left, ...(former ?? []).filter((f) => Date.parse(f.until) >= oldest)].slice(0, MAX_FORMER_CELLS);
}

/** What an update does to the check's cells: ops for its transaction, where it runs after, what it left. */
export interface CellMove {
  ops: WriteOp[];
  cell: CellPlace | null;
  /** The check's former cells when it left one (undefined: unchanged). */
  formerCells: FormerCell[] | undefined;
}

/**
 * The cells side of an update: a check that stays in its cell keeps it (its new version recorded
 * there); one that leaves pull mode, is disabled, probes from other locations or changes interval
 * leaves its cell, which is added
 * to its former cells so its results there stay listed; and one that runs anew joins a cell. Its
 * running state travels with it into the cell it joins.
 */
export async function moveCells(
  cells: CellMembership,
  current: CheckRecord,
  next: CellFields & { interval_seconds: number },
  options: { nowMs: number; retentionDays: () => Promise<number> },
): Promise<CellMove> {
  const { id, tenant_id, state, consecutive_failures } = current;
  const version = current.version + 1;
  const from = current.cell ?? null;
  if (from && inCell(next) && next.interval_seconds === current.interval_seconds) {
    return { ops: await cells.touch(from, id, version), cell: from, formerCells: undefined };
  }
  const ops: WriteOp[] = [];
  let formerCells: FormerCell[] | undefined;
  if (from) {
    ops.push(...(await cells.leave(from, id)));
    const left = {
      cell_id: from.cell_id,
      shard: from.shard,
      interval_seconds: current.interval_seconds,
      until: isoTime(options.nowMs),
    };
    formerCells = withFormerCell(current.former_cells, left, {
      nowMs: options.nowMs,
      retentionDays: await options.retentionDays(),
    });
  }
  if (!inCell(next)) return { ops, cell: null, formerCells };
  const entry =
    state === 'up' && consecutive_failures === 0 ? null : { state, consecutive_failures, slot: '' };
  const joined = await cells.join(
    { id, tenant_id, interval_seconds: next.interval_seconds, version },
    0,
    entry,
  );
  return { ops: [...ops, ...joined.ops], cell: joined.place ?? null, formerCells };
}
