/**
 * `npx tsx bench/generator-cells.ts [cells per shard] [shards]`: the cloud generator's time per
 * cell, through its Lambda handler over DynamoDB Local (docs/performance.md "Scale model (cloud)").
 * Fills `shards` due shards with full cells (100 members each, ~4 KB), then runs the handler for
 * three minutes in a row for one shard group (infra/capacity.ts SHARDS_PER_GROUP) and prints the
 * time per run and per cell. The queue takes every job in memory: SendMessageBatch's time in AWS
 * (10 jobs a call, 25 calls in flight) is added in the doc's arithmetic, not here.
 */
import { cellCreatedOp } from '../lib/checks/cells/cell-items.ts';
import { createGenerator } from '../lib/cloud/workers/generator.ts';
import { createGeneratorHandler } from '../lib/cloud/workers/generator-handler.ts';
import type { WorkerJob } from '../lib/cloud/workers/worker.ts';
import { createDynamoTable } from '../lib/dynamodb/dynamodb-table.ts';
import { createFakeClock, isoTime } from '../lib/platform/clock.ts';
import type { JobQueue } from '../lib/platform/job-queue.ts';
import { silentLogger } from '../lib/platform/logger.ts';
import { createTestTable, startDynamoDbLocal } from '../test/support/dynamodb-local.ts';

const cellsPerShard = Number(process.argv[2] ?? 250);
const shards = Number(process.argv[3] ?? 4);
const START_MS = Date.parse('2026-01-01T00:00:00.000Z');

const local = await startDynamoDbLocal({ waitUntilReady: true });
const testTable = await createTestTable(local.endpoint, 'vigil-bench');
try {
  const table = createDynamoTable({ client: testTable.client, tableName: testTable.tableName });
  const fill = Date.now();
  const records = Array.from({ length: shards * cellsPerShard }, (_, i) => ({
    id: `cel_${String(i).padStart(8, '0')}`,
    tenant_id: `ten_${String(i % 50).padStart(4, '0')}`,
    shard: i % shards,
    interval_seconds: 60,
    members: Object.fromEntries(Array.from({ length: 100 }, (_, m) => [`chk_${i}_${m}_abcdefghijklmn`, 1])),
    version: 1,
    created_at: isoTime(START_MS - 3_600_000),
  }));
  for (let i = 0; i < records.length; i += 25)
    await Promise.all(records.slice(i, i + 25).map((r) => table.transact([cellCreatedOp(r)])));
  process.stdout.write(`filled ${records.length} cells in ${Date.now() - fill} ms\n`);

  let jobs = 0;
  const queue = {
    name: 'probe',
    async enqueue(input: unknown[]) {
      jobs += input.length;
      return { failed: [] };
    },
  } as unknown as JobQueue<WorkerJob>;
  const clock = createFakeClock(START_MS);
  const generator = createGenerator({ table, queue, clock, dueShards: shards, logger: silentLogger });
  const handler = createGeneratorHandler({ generator, clock, logger: silentLogger });
  for (let minute = 0; minute < 3; minute += 1) {
    const at = START_MS + minute * 60_000;
    clock.set(at);
    jobs = 0;
    const started = performance.now();
    await handler({ scheduled_time: isoTime(at), shard_from: 0, shard_to: shards });
    const ms = performance.now() - started;
    const cells = shards * cellsPerShard;
    process.stdout.write(
      `minute ${minute}: ${cells} cells in ${shards} shards, ${jobs} jobs, ${Math.round(ms)} ms: ${(ms / cells).toFixed(3)} ms per cell\n`,
    );
  }
} finally {
  await testTable.drop();
  await local.stop();
}
