import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSqsBatchHandler } from '../../lib/cloud/queues/sqs-batch.ts';
import { createSqsJobQueue } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { createSqliteJobQueue } from '../../lib/local/sqlite-job-queue.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { DEFAULT_MAX_ATTEMPTS, type ReceivedJob } from '../../lib/platform/job-queue.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { lambdaContext } from '../cloud/support.ts';
import { type FauxqsEngine, startFauxqsEngine, type TestQueue } from '../support/fauxqs.ts';
import { createSqsEventSource } from '../support/sqs-event-source.ts';
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

let engine: FauxqsEngine;
beforeAll(async () => {
  engine = await startFauxqsEngine();
});
afterAll(() => engine?.stop());

let queueCount = 0;
/** A fresh queue (and DLQ) per test, shaped like the deployed ones: redrive after the job queue's attempts. */
const freshQueue = (visibilityTimeoutSeconds = 600): TestQueue => {
  queueCount += 1;
  return engine.createQueue(`jobs-${queueCount}`, {
    visibilityTimeoutSeconds,
    maxReceiveCount: DEFAULT_MAX_ATTEMPTS,
    batchSize: 10,
  });
};

const sqsQueue = (queue: TestQueue) =>
  createSqsJobQueue({
    sqs: engine.sqs,
    queueUrl: queue.url,
    name: 'test',
    schema: testBodySchema,
    logger: silentLogger,
  });

// fauxqs reads Date.now() in this process: the contract's fake time moves its delays and visibility.
describeJobQueueContract('sqs (fauxqs)', async () => {
  const queue = freshQueue();
  return {
    queue: sqsQueue(queue),
    deadLetterIds: async () => engine.deadLetterIds(queue),
    cleanup: () => undefined,
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
  afterEach(() => {
    vi.useRealTimers();
  });

  const failNegative =
    (runs: { id: string; attempt: number; atMs: number }[]) =>
    async (job: { id: string; attempt: number; body: TestBody }) => {
      runs.push({ id: job.id, attempt: job.attempt, atMs: Date.now() - T0 });
      if (job.body.n < 0) throw new Error('cannot handle a negative job');
    };

  it('reports only the failing record, retries it after 1 s, 2 s and 4 s, then the redrive dead-letters it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const step = (ms: number) => vi.setSystemTime(Date.now() + ms);
    const target = freshQueue();
    const queue = sqsQueue(target);
    const runs: { id: string; attempt: number; atMs: number }[] = [];
    const handler = createSqsBatchHandler({ queue, logger: silentLogger, handle: failNegative(runs) });
    const source = createSqsEventSource({ sqs: engine.sqs, queue: target, handler });
    await queue.enqueue([
      { id: 'good', body: { n: 1 } },
      { id: 'bad', body: { n: -1 } },
    ]);

    const first = await source.pollOnce();
    const badRecord = first?.event.Records.find((r) => r.body.includes('"bad"'));
    expect(first?.failed).toEqual([badRecord?.messageId]);
    expect(first?.batchFailed).toBe(false);
    for (const wait of [1000, 2000, 4000]) {
      step(wait - 10);
      expect(await source.pollOnce()).toBeUndefined();
      step(10);
      const retry = await source.pollOnce();
      expect(retry?.failed).toEqual([badRecord?.messageId]);
    }
    expect(runs).toEqual([
      { id: 'good', attempt: 1, atMs: 0 },
      { id: 'bad', attempt: 1, atMs: 0 },
      { id: 'bad', attempt: 2, atMs: 1000 },
      { id: 'bad', attempt: 3, atMs: 3000 },
      { id: 'bad', attempt: 4, atMs: 7000 },
    ]);
    // The last failure left it visible: the engine's redrive moves it on the next receive.
    expect(engine.size(target.name)).toBe(1);
    expect(await source.pollOnce()).toBeUndefined();
    expect(engine.deadLetterIds(target)).toEqual(['bad']);
    expect(engine.size(target.name)).toBe(0);
  });

  it('brings a whole batch back after the queue’s visibility timeout when the handler throws, in real seconds', async () => {
    const target = freshQueue(1);
    const queue = sqsQueue(target);
    let calls = 0;
    const source = createSqsEventSource({
      sqs: engine.sqs,
      queue: target,
      handler: async () => {
        calls += 1;
        if (calls === 1) throw new Error('the function crashed');
        return { batchItemFailures: [] };
      },
    });
    await queue.enqueue([
      { id: 'a', body: { n: 1 } },
      { id: 'b', body: { n: 2 } },
    ]);

    const crashed = await source.pollOnce();
    expect(crashed).toMatchObject({ batchFailed: true });
    // The records as Lambda builds them from ReceiveMessage.
    expect(crashed?.event.Records[0]).toMatchObject({
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d{13}$/),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d{13}$/),
      },
      eventSource: 'aws:sqs',
      eventSourceARN: target.arn,
      md5OfBody: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(crashed?.failed).toHaveLength(2);
    expect(await source.pollOnce()).toBeUndefined();
    await source.drain({ until: () => source.invocations.length === 2, timeoutMs: 10_000 });

    const [again] = source.invocations.slice(1);
    expect(again?.batchFailed).toBe(false);
    expect(again?.event.Records.map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['2', '2']);
    expect(engine.size(target.name)).toBe(0);
  });

  it('dead-letters a message after maxReceiveCount receives when the handler keeps throwing', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const target = freshQueue(30);
    const source = createSqsEventSource({
      sqs: engine.sqs,
      queue: target,
      handler: async () => {
        throw new Error('always');
      },
    });
    await sqsQueue(target).enqueue([{ id: 'doomed', body: { n: 1 } }]);

    for (let receive = 1; receive <= DEFAULT_MAX_ATTEMPTS; receive += 1) {
      const invocation = await source.pollOnce();
      expect(invocation?.event.Records[0]?.attributes.ApproximateReceiveCount).toBe(String(receive));
      vi.setSystemTime(Date.now() + 30_000);
    }
    expect(await source.pollOnce()).toBeUndefined();
    expect(engine.deadLetterIds(target)).toEqual(['doomed']);
  });

  it('fails a record that is not a job of the queue like one that threw', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const target = freshQueue();
    const queue = sqsQueue(target);
    const handler = createSqsBatchHandler({ queue, logger: silentLogger, handle: async () => undefined });
    const source = createSqsEventSource({ sqs: engine.sqs, queue: target, handler });
    await queue.enqueue([{ id: 'ok', body: { n: 1 } }]);
    await engine.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: target.url,
        Entries: [{ Id: 'x', MessageBody: JSON.stringify({ id: 'odd', body: { n: 'one' } }) }],
      }),
    );

    const invocation = await source.pollOnce();

    const odd = invocation?.event.Records.find((r) => r.body.includes('"odd"'));
    expect(invocation?.event.Records).toHaveLength(2);
    expect(invocation?.failed).toEqual([odd?.messageId]);
    vi.setSystemTime(Date.now() + 1000);
    expect((await source.pollOnce())?.event.Records.map((r) => r.messageId)).toEqual([odd?.messageId]);
  });

  it('rejects an event that is not an SQS batch', async () => {
    const handler = createSqsBatchHandler({
      queue: sqsQueue(freshQueue()),
      logger: silentLogger,
      handle: async () => undefined,
    });
    await expect(handler({ Records: [{ body: '{}' }] }, lambdaContext('worker'))).rejects.toThrow();
  });
});
