import { describe, expect, it, vi } from 'vitest';
import { downEntity, flowHarnessPerTest } from './support/flow-harness.ts';

/**
 * An incident acknowledged in Vigil reaches the channels that were sent its alert and whose type
 * tracks incidents (PagerDuty, Opsgenie: their definitions' acknowledge()): one `acknowledge`
 * delivery per channel, in the delivery log, retried as any delivery, and never twice.
 */

const h = flowHarnessPerTest();

const ackLogs = async (checkId: string) =>
  (await h.logs(checkId))
    .filter((l) => l.kind === 'acknowledge')
    .map((l) => `${l.channel_id}:${l.status}:${l.attempts}`);

describe('the acknowledge path', () => {
  it('tells each channel of the incident once, logged as an acknowledge delivery', async () => {
    h.acknowledgeWith(() => true);
    const { checkId, channel, incidentId, entityId } = await downEntity(h);
    const acknowledged = await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await h.settle();
    expect(h.acks).toHaveLength(1);
    expect(h.acks[0]?.channel.id).toBe(channel.id);
    expect(h.acks[0]?.ack).toMatchObject({
      incidentId,
      entity: { id: entityId, name: 'API' },
      by: acknowledged.acknowledged_by,
      at: acknowledged.acknowledged_at,
    });
    expect(await ackLogs(checkId)).toEqual([`${channel.id}:sent:1`]);
    // Acknowledging again changes nothing: the first acknowledgement stays, nothing is sent twice.
    await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await h.settle();
    expect(h.acks).toHaveLength(1);
  });

  it('retries a failed acknowledgement as any delivery', async () => {
    h.acknowledgeWith(
      () => true,
      (n) =>
        n === 1
          ? { ok: false, status_code: 429, error: 'rate limited' }
          : { ok: true, status_code: 202, error: null },
    );
    const { checkId, channel, incidentId } = await downEntity(h);
    await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await h.settle();
    await h.time.advance(5000, 1000);
    await h.settle();
    expect(h.acks).toHaveLength(2);
    expect(await ackLogs(checkId)).toEqual([`${channel.id}:sent:2`]);
  });

  it('sends nothing to channels whose type has no incidents', async () => {
    const { checkId, incidentId } = await downEntity(h);
    await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await h.settle();
    expect(h.acks).toEqual([]);
    expect(await ackLogs(checkId)).toEqual([]);
  });

  it('answers the acknowledgement while the queue refuses its job, and the change feed tells each channel once', async () => {
    h.acknowledgeWith(() => true);
    const { checkId, channel, incidentId } = await downEntity(h);
    const enqueue = h.queue.enqueue.bind(h.queue);
    let refused = 0;
    const spy = vi.spyOn(h.queue, 'enqueue').mockImplementation(async (jobs, options) => {
      const job = jobs.find((j) => j.body.kind === 'acknowledge');
      if (!job || refused >= 1) return enqueue(jobs, options);
      refused += 1;
      return { failed: [job.id] };
    });
    // Nothing acknowledged is ever lost (issue 75): the incident's write is what the feed carries
    // until its job is queued, so the caller is answered at once and never has to try again.
    const answer = await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    expect(answer).toMatchObject({ state: 'acknowledged' });
    // The feed's consumer fails while the queue refuses, leaving the change in the feed.
    await expect(h.settle()).rejects.toThrow('could not be queued');
    expect(h.acks).toEqual([]);
    await h.settle();
    expect(refused).toBe(1);
    spy.mockRestore();
    expect(h.acks.map((a) => a.channel.id)).toEqual([channel.id]);
    expect(await ackLogs(checkId)).toEqual([`${channel.id}:sent:1`]);
    // Acknowledged again: nothing is told twice.
    await h.call('POST', `/v1/incidents/${incidentId}/acknowledge`, undefined, 200);
    await h.settle();
    expect(h.acks.map((a) => a.channel.id)).toEqual([channel.id]);
  });
});
