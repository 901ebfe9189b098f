import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../platform/logger.ts';
import type { SqliteTable } from '../sqlite/sqlite-table.ts';

/** Items one sweep transaction deletes, and transactions one scheduler tick runs at most. */
const BATCH = 1000;
const MAX_BATCHES_PER_TICK = 20;

/**
 * Deletes expired TTL items (results, transitions, rollups, resolved incidents, ...) the way
 * DynamoDB TTL does in the cloud: in bounded batches, yielding between them so due probes are not
 * held up, and at most `maxBatches` per call. Returns how many items it deleted, and whether it
 * stopped at that bound with expired items left (`more`).
 */
export async function sweepRetention(
  table: Pick<SqliteTable, 'sweepExpired'>,
  nowMs: number,
  options: { batch?: number; maxBatches?: number } = {},
): Promise<{ deleted: number; more: boolean }> {
  const batch = options.batch ?? BATCH;
  const maxBatches = options.maxBatches ?? MAX_BATCHES_PER_TICK;
  const nowSeconds = Math.floor(nowMs / 1000);
  let deleted = 0;
  for (let round = 0; round < maxBatches; round += 1) {
    if (round > 0) await yieldToLoop();
    const count = await table.sweepExpired(nowSeconds, batch);
    deleted += count;
    if (count < batch) return { deleted, more: false };
  }
  return { deleted, more: true };
}

/**
 * The scheduler's retention sweep: every `everyMs` (a minute), and while a sweep stopped at its
 * per-tick bound with expired items left, again on every tick (a second) until none is due. A busy
 * tenant's expiries (tens of thousands of results a minute) are so kept up with: the bound is per
 * tick, up to 20,000 items a second, not per minute (issue 36: a fixed 20,000 a minute fell behind).
 */
export function createRetentionSweeper(deps: {
  table: Pick<SqliteTable, 'sweepExpired'>;
  logger: Logger;
  everyMs: number;
  batch?: number;
  maxBatches?: number;
  /** Swept with each periodic sweep (not the catch-up ones): the browser checks' expired screenshot files. */
  also?: ((nowMs: number) => Promise<number>) | undefined;
}) {
  let lastMs = Number.NEGATIVE_INFINITY;
  let behind = false;
  const options = {
    ...(deps.batch !== undefined ? { batch: deps.batch } : {}),
    ...(deps.maxBatches !== undefined ? { maxBatches: deps.maxBatches } : {}),
  };

  const sweep = async (nowMs: number): Promise<number> => {
    lastMs = nowMs;
    const { deleted, more } = await sweepRetention(deps.table, nowMs, options);
    behind = more;
    if (deleted > 0) deps.logger.info('retention sweep deleted expired items', { deleted, more });
    return deleted;
  };

  return {
    /** Sweeps now (tests, and the periodic sweep); answers how many items it deleted. */
    sweep,
    /** On a scheduler tick: sweeps when `everyMs` passed since the last sweep, or while behind. */
    async onTick(nowMs: number): Promise<number> {
      const periodic = nowMs - lastMs >= deps.everyMs;
      if (!behind && !periodic) return 0;
      const deleted = await sweep(nowMs);
      if (periodic && deps.also) await deps.also(nowMs);
      return deleted;
    },
    /** Whether the last sweep left expired items for the next tick. */
    get behind() {
      return behind;
    },
  };
}
