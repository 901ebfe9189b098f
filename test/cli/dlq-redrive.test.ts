import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deadLetterRedrive } from '../../lib/cli/dlq.ts';
import { runOperatorCommand } from '../../lib/cli/operator.ts';
import { createSqliteJobQueue } from '../../lib/local/sqlite-job-queue.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { NOTIFY_QUEUE } from '../../lib/platform/feature.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { testBodySchema } from '../platform/job-queue-contract.ts';
import { DEPLOYED_QUEUES, type FauxqsEngine, startFauxqsEngine } from '../support/fauxqs.ts';

/** `npm run vigil -- dlq redrive <queue>`: dead letters back to their queue, on SQS (fauxqs) and in the local store. */

describe('dlq redrive on SQS', () => {
  let engine: FauxqsEngine;
  beforeAll(async () => {
    engine = await startFauxqsEngine();
  });
  afterAll(() => engine?.stop());

  it('moves every dead letter of the notify queue back to it, and moves nothing when run again', async () => {
    const queue = engine.createQueue('vigil-notify', DEPLOYED_QUEUES.notify);
    const bodies = Array.from({ length: 25 }, (_, i) => JSON.stringify({ id: `job-${i}`, body: { n: i } }));
    for (let i = 0; i < bodies.length; i += 10) {
      await engine.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queue.dlqUrl,
          Entries: bodies.slice(i, i + 10).map((MessageBody, j) => ({ Id: `e${j}`, MessageBody })),
        }),
      );
    }
    const config = loadConfig('cloud', { VIGIL_TABLE_NAME: 'unused', VIGIL_NOTIFY_QUEUE_URL: queue.url });
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const redrive = deadLetterRedrive({ config, table, clock: systemClock, sqs: engine.sqs });
    const run = () =>
      runOperatorCommand(['dlq', 'redrive', 'notify'], {
        table,
        clock: systemClock,
        redriveDeadLetters: redrive,
      });

    const first = JSON.parse(await run());
    const second = JSON.parse(await run());

    expect(first).toEqual({ queue: 'notify', moved: 25 });
    expect(second).toEqual({ queue: 'notify', moved: 0 });
    expect(engine.size(queue.dlqName)).toBe(0);
    expect(engine.bodies(queue.name).sort()).toEqual([...bodies].sort());
    await table.close();
  });

  it('refuses an unknown queue and names the missing queue URL', async () => {
    const config = loadConfig('cloud', { VIGIL_TABLE_NAME: 'unused' });
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const redriveDeadLetters = deadLetterRedrive({ config, table, clock: systemClock, sqs: engine.sqs });
    const deps = { table, clock: systemClock, redriveDeadLetters };

    await expect(runOperatorCommand(['dlq', 'redrive', 'mail'], deps)).rejects.toThrow(
      /notify, action, probe/,
    );
    await expect(runOperatorCommand(['dlq', 'redrive', 'action'], deps)).rejects.toThrow(
      /VIGIL_ACTION_QUEUE_URL is not set/,
    );
    await table.close();
  });
});

describe('dlq redrive in the local store', () => {
  let table: SqliteTable;
  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  });
  afterEach(() => table.close());

  const notifyQueue = () =>
    createSqliteJobQueue({
      table,
      name: NOTIFY_QUEUE,
      schema: testBodySchema,
      clock: systemClock,
      logger: silentLogger,
      maxAttempts: 1,
    });

  it('puts the dead letters back as queued jobs that the next start runs, once', async () => {
    const before = notifyQueue();
    await before.enqueue([
      { id: 'a', body: { n: 1 } },
      { id: 'b', body: { n: 2 } },
    ]);
    for (const job of await before.receive()) await before.fail(job, new Error('store unavailable'));
    expect((await before.deadLetters()).map((d) => d.id).sort()).toEqual(['a', 'b']);
    before.close();
    const config = loadConfig('local', { VIGIL_STORE: 'sqlite' });
    const redriveDeadLetters = deadLetterRedrive({ config, table, clock: systemClock });
    const run = async () =>
      JSON.parse(
        await runOperatorCommand(['dlq', 'redrive', 'notify'], {
          table,
          clock: systemClock,
          redriveDeadLetters,
        }),
      );

    expect(await run()).toEqual({ queue: 'notify', moved: 2 });
    expect(await run()).toEqual({ queue: 'notify', moved: 0 });

    const after = notifyQueue();
    expect(await after.load()).toEqual({ resumed: 2, dropped: 0 });
    const jobs = await after.receive();
    expect(jobs.map((j) => [j.id, j.body, j.attempt]).sort()).toEqual([
      ['a', { n: 1 }, 1],
      ['b', { n: 2 }, 1],
    ]);
    expect(await after.deadLetters()).toEqual([]);
    after.close();
  });
});
