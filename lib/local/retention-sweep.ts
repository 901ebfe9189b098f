import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SqliteTable } from '../store/sqlite-table.ts';

/**
 * Deletes expired TTL items (results, transitions, rollups, ...) the way DynamoDB TTL does in the
 * cloud: in bounded batches, yielding between them so due probes are not held up, and at most
 * `maxBatches` per call (the next sweep continues). Returns how many items it deleted.
 */
export async function sweepRetention(
  table: Pick<SqliteTable, 'sweepExpired'>,
  nowMs: number,
  options: { batch?: number; maxBatches?: number } = {},
): Promise<number> {
  const batch = options.batch ?? 1000;
  const maxBatches = options.maxBatches ?? 20;
  const nowSeconds = Math.floor(nowMs / 1000);
  let deleted = 0;
  for (let round = 0; round < maxBatches; round += 1) {
    if (round > 0) await yieldToLoop();
    const count = await table.sweepExpired(nowSeconds, batch);
    deleted += count;
    if (count < batch) break;
  }
  return deleted;
}
