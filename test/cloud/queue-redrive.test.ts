import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';

/**
 * The notify and action queues under their Lambda consumers, on fauxqs with the deployed redrive
 * policy: a job the consumer cannot take fails its record, the handler sets the retry delay
 * (1 s, 2 s, 4 s) as the message's visibility, and after maxReceiveCount receives the engine's
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
  it('retries a job the consumer cannot take after 1 s, 2 s and 4 s, then the redrive moves it to the DLQ', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const body = JSON.stringify({ id: `${name}-unknown`, body: { kind: 'nonsense' } });
    await h.sqs.sqs.send(
      new SendMessageBatchCommand({ QueueUrl: queue().url, Entries: [{ Id: 'x', MessageBody: body }] }),
    );
    /** One poll: each record's receive count and how many records failed. */
    const receive = async () => {
      const invocation = await source().pollOnce();
      return invocation?.event.Records.map((r) => [
        r.attributes.ApproximateReceiveCount,
        invocation.failed.length,
      ]);
    };

    const seen = [await receive()];
    for (const wait of [1000, 2000, 4000]) {
      vi.setSystemTime(Date.now() + wait - 10);
      seen.push(await receive());
      vi.setSystemTime(Date.now() + 10);
      seen.push(await receive());
    }
    seen.push(await receive());

    expect(seen).toEqual([
      [['1', 1]],
      undefined,
      [['2', 1]],
      undefined,
      [['3', 1]],
      undefined,
      [['4', 1]],
      undefined,
    ]);
    expect(queue().deadLetterBodies()).toEqual([body]);
    expect(queue().size()).toBe(0);
  });
});
