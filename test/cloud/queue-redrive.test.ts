import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OUTAGE_RETRIES } from '../../lib/platform/job-queue.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';

/**
 * The notify and action queues under their Lambda consumers, on fauxqs with the deployed redrive
 * policy: a job the consumer cannot take fails its record, the handler sets the retry delay
 * (1 s, 2 s, 4 s … capped at 60 s: a store outage of 15 minutes is outlasted) as the message's
 * visibility, and after maxReceiveCount receives the engine's
 * redrive moves it to the queue's DLQ. fauxqs keeps time with Date.now(): the fake Date moves it.
 */

let h: LambdaHarness;

beforeAll(async () => {
  h = await startLambdaHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

describe.each([
  { name: 'notify', queue: () => h.notifySqs, source: () => h.eventSources.notify },
  { name: 'action', queue: () => h.actionSqs, source: () => h.eventSources.action },
])('the $name queue under its consumer', ({ name, queue, source }) => {
  it('retries a job the consumer cannot take with growing delays capped at a minute for 15 minutes, then the redrive moves it to the DLQ', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const body = JSON.stringify({ id: `${name}-unknown`, body: { kind: 'nonsense' } });
    await h.sqs.sqs.send(
      new SendMessageBatchCommand({ QueueUrl: queue().url, Entries: [{ Id: 'x', MessageBody: body }] }),
    );
    const started = Date.now();
    /** One poll: each record's receive count and how many records failed. */
    const receive = async () => {
      const invocation = await source().pollOnce();
      return invocation?.event.Records.map((r) => [
        r.attributes.ApproximateReceiveCount,
        invocation.failed.length,
      ]);
    };

    const seen = [await receive()];
    const expected: unknown[] = [[['1', 1]]];
    const waits: number[] = [];
    for (let receiveNo = 2; receiveNo <= OUTAGE_RETRIES.maxAttempts; receiveNo += 1) {
      const wait = Math.min(60, 2 ** (receiveNo - 2)) * 1000;
      waits.push(wait);
      vi.setSystemTime(Date.now() + wait - 10);
      seen.push(await receive());
      vi.setSystemTime(Date.now() + 10);
      seen.push(await receive());
      expected.push(undefined, [[String(receiveNo), 1]]);
    }
    seen.push(await receive());
    expected.push(undefined);

    expect(seen).toEqual(expected);
    expect(waits.slice(0, 8)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15 * 60_000);
    expect(queue().deadLetterBodies()).toEqual([body]);
    expect(queue().size()).toBe(0);
  });
});
