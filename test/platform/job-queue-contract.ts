import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { JobQueue, ReceivedJob } from '../../lib/platform/job-queue.ts';

export const T0 = Date.parse('2026-03-01T12:00:00.000Z');

/** The body every contract job carries. */
export const testBodySchema = z.strictObject({ n: z.number().int() });
export type TestBody = z.infer<typeof testBodySchema>;

interface QueueUnderTest {
  queue: JobQueue<TestBody>;
  /** Ids of the jobs that are dead letters now. */
  deadLetterIds(): Promise<string[]>;
  cleanup(): Promise<void> | void;
}

export type MakeQueue = () => Promise<QueueUnderTest>;

/** Moves fake time (Date and timeouts); real I/O (sqlite commits) keeps running. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** Receives until the queue has nothing visible (at most 20 rounds). */
async function receiveAll(queue: JobQueue<TestBody>): Promise<ReceivedJob<TestBody>[]> {
  const all: ReceivedJob<TestBody>[] = [];
  for (let round = 0; round < 20; round += 1) {
    const jobs = await queue.receive({ max: 10 });
    if (jobs.length === 0) break;
    all.push(...jobs);
  }
  return all;
}

/**
 * What every adapter of the job-queue port does (lib/platform/job-queue.ts), on fake time: delays,
 * ids on every delivery, in-flight jobs hidden, ack, retries after 1 s, 2 s, 4 s, then a dead letter.
 */
export function describeJobQueueContract(name: string, makeQueue: MakeQueue): void {
  describe(`JobQueue contract: ${name}`, () => {
    let q: QueueUnderTest;
    beforeEach(async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
      q = await makeQueue();
    });
    afterEach(async () => {
      await q.cleanup();
      vi.useRealTimers();
    });

    it('delivers a job once its delay has passed, with its id, body and attempt 1', async () => {
      expect(await q.queue.enqueue([{ id: 'job-a', body: { n: 1 } }], { delaySeconds: 5 })).toEqual({
        failed: [],
      });
      await advance(4000);
      expect(await q.queue.receive()).toEqual([]);
      await advance(1000);
      const [job, ...rest] = await q.queue.receive();
      expect(rest).toEqual([]);
      expect(job).toMatchObject({ id: 'job-a', body: { n: 1 }, attempt: 1, receipt: expect.any(String) });
    });

    it('gives each job its own delay when it has one', async () => {
      await q.queue.enqueue(
        [
          { id: 'late', body: { n: 1 }, delaySeconds: 10 },
          { id: 'soon', body: { n: 2 } },
        ],
        { delaySeconds: 2 },
      );
      await advance(2000);
      expect((await q.queue.receive()).map((j) => j.id)).toEqual(['soon']);
      await advance(8000);
      expect((await q.queue.receive()).map((j) => j.id)).toEqual(['late']);
    });

    it('delivers every job of a large enqueue, at most `max` per receive', async () => {
      const jobs = Array.from({ length: 25 }, (_, n) => ({ id: `job-${n}`, body: { n } }));
      expect(await q.queue.enqueue(jobs)).toEqual({ failed: [] });
      await advance(0);
      expect(await q.queue.receive({ max: 3 })).toHaveLength(3);
      const rest = await receiveAll(q.queue);
      expect(rest).toHaveLength(22);
    });

    it('hides a delivered job until it is acked or failed, and an acked job never comes back', async () => {
      await q.queue.enqueue([{ id: 'job-a', body: { n: 1 } }]);
      await advance(0);
      const [job] = await q.queue.receive();
      expect(job?.id).toBe('job-a');
      await advance(60_000);
      expect(await q.queue.receive()).toEqual([]);
      await q.queue.ack(job ? [job] : []);
      await advance(3_600_000);
      expect(await q.queue.receive()).toEqual([]);
      expect(await q.deadLetterIds()).toEqual([]);
    });

    it('brings a failed job back after 1 s, 2 s and 4 s, then makes it a dead letter', async () => {
      await q.queue.enqueue([{ id: 'job-f', body: { n: 7 } }]);
      await advance(0);
      const attempts: { attempt: number; atMs: number }[] = [];
      const outcomes: unknown[] = [];
      for (const wait of [0, 1000, 2000, 4000]) {
        if (wait > 0) {
          await advance(wait - 10);
          expect(await q.queue.receive()).toEqual([]);
          await advance(10);
        }
        const [job] = await q.queue.receive();
        if (!job) throw new Error(`job-f was not delivered ${wait} ms after its last failure`);
        expect(job).toMatchObject({ id: 'job-f', body: { n: 7 } });
        attempts.push({ attempt: job.attempt, atMs: Date.now() - T0 });
        outcomes.push(await q.queue.fail(job, new Error('boom')));
      }
      expect(attempts).toEqual([
        { attempt: 1, atMs: 0 },
        { attempt: 2, atMs: 1000 },
        { attempt: 3, atMs: 3000 },
        { attempt: 4, atMs: 7000 },
      ]);
      expect(outcomes).toEqual([
        { status: 'retry', retryInSeconds: 1 },
        { status: 'retry', retryInSeconds: 2 },
        { status: 'retry', retryInSeconds: 4 },
        { status: 'dead' },
      ]);
      await advance(60_000);
      expect(await q.queue.receive()).toEqual([]);
      expect(await q.deadLetterIds()).toEqual(['job-f']);
    });

    it('carries the same id on every delivery of a re-enqueued job, so its consumer sees the duplicate', async () => {
      await q.queue.enqueue([{ id: 'job-d', body: { n: 1 } }]);
      await q.queue.enqueue([{ id: 'job-d', body: { n: 1 } }]);
      await advance(0);
      const delivered = await receiveAll(q.queue);
      expect(delivered.length).toBeGreaterThanOrEqual(1);
      expect(new Set(delivered.map((j) => j.id))).toEqual(new Set(['job-d']));
    });
  });
}
