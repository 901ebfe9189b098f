import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotifyQueueJob as NotifyJob } from '../../lib/features/list.ts';
import type { EnqueueResult, JobInput } from '../../lib/platform/job-queue.ts';
import { downEntity } from '../notify/support/flow-harness.ts';
import { decodeWords } from '../support/smtp-server.ts';
import { pageablePeople, pagingFlowHarness, policyOfSteps } from './support.ts';

/**
 * Nothing acknowledged is ever lost (issue 75): the resolution message to the people a climb paged
 * is queued by a hook of the incidents consumer (a recovery) and of the incident service (resolved
 * by hand). When the queue refuses that job once, the failure reaches the change feed, which
 * delivers the recovery again, or the person's request, which answers an error and queues it when
 * tried again; the paged person is then told exactly once, by a real SMTP server. The local runtime
 * (SQLite, its change feed, the durable notify queue); the cloud's: test/cloud/resolution-outage.test.ts.
 */

const { h, smtp, mailedSince, until } = pagingFlowHarness();

const MINUTE = 60_000;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The queue refuses the first `page_resolved` job it is given (`how`: it throws, or answers it failed). */
function refuseResolutionOnce(how: 'throws' | 'fails') {
  const enqueue = h.queue.enqueue.bind(h.queue);
  let refused = 0;
  vi.spyOn(h.queue, 'enqueue').mockImplementation(
    async (jobs: JobInput<NotifyJob>[], options): Promise<EnqueueResult> => {
      const job = jobs.find((j) => j.body.kind === 'page_resolved');
      if (job && refused === 0) {
        refused += 1;
        if (how === 'throws') throw new Error('the queue is down');
        return { failed: [job.id] };
      }
      return enqueue(jobs, options);
    },
  );
  return () => refused;
}

/** A person paged by a one-step policy for an entity that went down; its check and incident. */
async function pagedOnce() {
  const [ana] = await pageablePeople(h, ['ana']);
  if (!ana) throw new Error('people');
  await policyOfSteps(h, [{ userId: ana.id, delaySeconds: 300 }], 0);
  const mark = smtp().received.length;
  const start = h.time.clock.now();
  const { checkId, incidentId } = await downEntity(h);
  await until(start, 2 * MINUTE);
  expect(mailedSince(mark)).toEqual([ana.email]);
  return { ana, mark, start, checkId, incidentId };
}

describe('a resolution message the queue refuses once', () => {
  it('is queued again when the change feed delivers the recovery again, and told once', async () => {
    const { ana, mark, start, checkId } = await pagedOnce();
    const refused = refuseResolutionOnce('throws');
    // The recovery's settle fails (the change feed's consumer threw), leaving its change in the feed.
    await expect(h.result(checkId, true)).rejects.toThrow('the queue is down');
    expect(refused()).toBe(1);
    await h.settle();
    await until(start, 20 * MINUTE);
    expect(mailedSince(mark)).toEqual([ana.email, ana.email]);
    const told = smtp().received.at(-1)?.message;
    expect(decodeWords(told?.headers.get('subject') ?? '')).toBe('[Vigil] Resolved: API');
    expect(told?.text).toContain('it is up again');
  });

  it('fails the resolve by hand, and is queued when the person tries again, told once', async () => {
    const { ana, mark, start, incidentId } = await pagedOnce();
    const refused = refuseResolutionOnce('fails');
    await h.call('POST', `/v1/incidents/${incidentId}/resolve`, undefined, 500);
    expect(refused()).toBe(1);
    await until(start, 10 * MINUTE);
    // Not told yet: the job was never queued.
    expect(mailedSince(mark)).toEqual([ana.email]);
    const resolved = await h.call('POST', `/v1/incidents/${incidentId}/resolve`, undefined, 200);
    expect(resolved.state).toBe('resolved');
    await until(start, 20 * MINUTE);
    // Resolved again: the job is queued again, and its claims tell nobody twice.
    await h.call('POST', `/v1/incidents/${incidentId}/resolve`, undefined, 200);
    await until(start, 30 * MINUTE);
    expect(mailedSince(mark)).toEqual([ana.email, ana.email]);
    expect(smtp().received.at(-1)?.message.text).toContain('it was resolved by hand');
  });
});
