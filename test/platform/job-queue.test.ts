import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSqsBatchHandler } from '../../lib/cloud/sqs-batch.ts';
import { createSqsJobQueue, jobEnvelopeSchema } from '../../lib/cloud/sqs-job-queue.ts';
import { createSqliteJobQueue } from '../../lib/local/sqlite-job-queue.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { DEFAULT_MAX_ATTEMPTS, type ReceivedJob } from '../../lib/platform/job-queue.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/store/sqlite-table.ts';
import { lambdaContext } from '../cloud/support.ts';
import { createFakeSqs, FAKE_QUEUE_URL, type FakeSqs } from './fake-sqs.ts';
import { describeJobQueueContract, T0, type TestBody, testBodySchema } from './job-queue-contract.ts';

const localQueue = (table: SqliteTable) =>
  createSqliteJobQueue({
    table,
    name: 'test',
    schema: testBodySchema,
    clock: systemClock,
    logger: silentLogger,
  });

describeJobQueueContract('sqlite', async () => {
  const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  const queue = localQueue(table);
  return {
    queue,
    deadLetterIds: async () => (await queue.deadLetters()).map((d) => d.id),
    cleanup: async () => {
      queue.close();
      await table.close();
    },
  };
});

const sqsQueue = (fake: FakeSqs) =>
  createSqsJobQueue({
    sqs: fake.sqs,
    queueUrl: FAKE_QUEUE_URL,
    name: 'test',
    schema: testBodySchema,
    logger: silentLogger,
  });

describeJobQueueContract('sqs', async () => {
  const fake = createFakeSqs({ maxReceiveCount: DEFAULT_MAX_ATTEMPTS });
  return {
    queue: sqsQueue(fake),
    deadLetterIds: async () =>
      fake.deadLetterBodies().map((body) => jobEnvelopeSchema.parse(JSON.parse(body)).id),
    cleanup: () => fake.restore(),
  };
});

describe('the sqlite job queue', () => {
  let table: SqliteTable;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  });
  afterEach(async () => {
    await table.close();
    vi.useRealTimers();
  });

  it('stores a re-enqueued id once and delivers it once', async () => {
    const queue = localQueue(table);
    await queue.enqueue([{ id: 'a', body: { n: 1 } }]);
    await queue.enqueue([
      { id: 'a', body: { n: 2 } },
      { id: 'a', body: { n: 3 } },
    ]);
    // A second process (or a restart) enqueueing the same id finds it stored.
    const other = localQueue(table);
    await other.enqueue([{ id: 'a', body: { n: 4 } }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(await queue.receive()).toEqual([{ id: 'a', body: { n: 1 }, attempt: 1, receipt: 'a' }]);
    expect(await other.receive()).toEqual([]);
    expect((await table.query({ pk: 'QUEUE#test' })).items).toHaveLength(1);
    queue.close();
  });

  it('resumes a retry after a restart at its stored time and attempt', async () => {
    const before = localQueue(table);
    await before.enqueue([{ id: 'r', body: { n: 1 } }]);
    await vi.advanceTimersByTimeAsync(0);
    const [first] = await before.receive();
    if (!first) throw new Error('not delivered');
    await before.fail(first, new Error('boom'));
    before.close();

    const after = localQueue(table);
    expect(await after.load()).toEqual({ resumed: 1, dropped: 0 });
    await vi.advanceTimersByTimeAsync(990);
    expect(await after.receive()).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    expect(await after.receive()).toEqual([{ id: 'r', body: { n: 1 }, attempt: 2, receipt: 'r' }]);
    after.close();
  });

  it('hands due jobs to a consumer as they become visible', async () => {
    const queue = localQueue(table);
    const handed: ReceivedJob<TestBody>[] = [];
    queue.consume((jobs) => handed.push(...jobs));
    await queue.enqueue([{ id: 'c', body: { n: 1 } }], { delaySeconds: 3 });
    await vi.advanceTimersByTimeAsync(2999);
    expect(handed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(handed.map((j) => [j.id, Date.now() - T0])).toEqual([['c', 3000]]);
    queue.close();
  });
});

describe('the SQS job queue through a Lambda event source (partial batch failures)', () => {
  let fake: FakeSqs;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
    fake = createFakeSqs({ maxReceiveCount: DEFAULT_MAX_ATTEMPTS });
  });
  afterEach(() => {
    fake.restore();
    vi.useRealTimers();
  });

  it('reports only the failing record, retries it after 1 s, 2 s and 4 s, then the redrive dead-letters it', async () => {
    const queue = sqsQueue(fake);
    const runs: { id: string; attempt: number; atMs: number }[] = [];
    const handler = createSqsBatchHandler({
      queue,
      logger: silentLogger,
      handle: async (job) => {
        runs.push({ id: job.id, attempt: job.attempt, atMs: Date.now() - T0 });
        if (job.body.n < 0) throw new Error('cannot handle a negative job');
      },
    });
    await queue.enqueue([
      { id: 'good', body: { n: 1 } },
      { id: 'bad', body: { n: -1 } },
    ]);
    /** One poll of the event-source mapping: the batch to the handler, then the successes deleted. */
    const poll = async () => {
      const event = await fake.pollEvent();
      if (!event) return undefined;
      const response = await handler(event, lambdaContext('worker'));
      await fake.deleteSucceeded(event, response.batchItemFailures);
      return { event, failed: response.batchItemFailures.map((f) => f.itemIdentifier) };
    };

    const first = await poll();
    const badRecord = first?.event.Records.find((r) => r.body.includes('"bad"'));
    expect(first?.failed).toEqual([badRecord?.messageId]);
    for (const wait of [1000, 2000, 4000]) {
      await vi.advanceTimersByTimeAsync(wait - 10);
      expect(await poll()).toBeUndefined();
      await vi.advanceTimersByTimeAsync(10);
      expect((await poll())?.failed).toHaveLength(1);
    }
    expect(runs).toEqual([
      { id: 'good', attempt: 1, atMs: 0 },
      { id: 'bad', attempt: 1, atMs: 0 },
      { id: 'bad', attempt: 2, atMs: 1000 },
      { id: 'bad', attempt: 3, atMs: 3000 },
      { id: 'bad', attempt: 4, atMs: 7000 },
    ]);
    // The last failure left it visible: the next poll finds it past maxReceiveCount, and SQS moves it.
    expect(await poll()).toBeUndefined();
    expect(fake.deadLetterBodies().map((b) => jobEnvelopeSchema.parse(JSON.parse(b)).id)).toEqual(['bad']);
    expect(fake.size()).toBe(0);
  });

  it('fails a record that is not a job of the queue like one that threw', async () => {
    const queue = sqsQueue(fake);
    const handler = createSqsBatchHandler({ queue, logger: silentLogger, handle: async () => undefined });
    await queue.enqueue([{ id: 'ok', body: { n: 1 } }]);
    await fake.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: FAKE_QUEUE_URL,
        Entries: [{ Id: 'x', MessageBody: JSON.stringify({ id: 'odd', body: { n: 'one' } }) }],
      }),
    );
    const event = await fake.pollEvent();
    if (!event) throw new Error('nothing delivered');

    const response = await handler(event, lambdaContext('worker'));

    const odd = event.Records.find((r) => r.body.includes('"odd"'));
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: odd?.messageId }]);
    await fake.deleteSucceeded(event, response.batchItemFailures);
    await vi.advanceTimersByTimeAsync(1000);
    expect((await fake.pollEvent())?.Records.map((r) => r.messageId)).toEqual([odd?.messageId]);
  });

  it('rejects an event that is not an SQS batch', async () => {
    const handler = createSqsBatchHandler({
      queue: sqsQueue(fake),
      logger: silentLogger,
      handle: async () => undefined,
    });
    await expect(handler({ Records: [{ body: '{}' }] }, lambdaContext('worker'))).rejects.toThrow();
  });
});
