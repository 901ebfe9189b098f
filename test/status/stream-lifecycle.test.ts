import { describe, expect, it, vi } from 'vitest';
import { startLambdaDriver, startLocalDriver } from './stream-drivers.ts';

// functions/status-stream.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

/** A push check on a new entity whose every change of `success` moves the entity (threshold 1). */
async function pushCheck(d: Awaited<ReturnType<typeof startLocalDriver | typeof startLambdaDriver>>) {
  await d.api('POST', '/v1/blueprints', d.adminKey, { slug: 'job', name: 'Job' });
  const entity = await d.api('POST', '/v1/blueprints/job/entities', d.adminKey, { slug: 'n', name: 'N' });
  const check = await d.api('POST', '/v1/checks', d.adminKey, {
    entity_id: entity.body.id,
    check_type: 'push',
    failure_threshold: 1,
  });
  return async (success: boolean) => {
    const res = await d.api('POST', `/v1/checks/${check.body.id}/results`, d.adminKey, {
      success,
      latency_ms: 1,
    });
    expect(res.status).toBe(201);
  };
}

describe('status stream lifetime', () => {
  it('local: stop() ends open streams at once instead of waiting for their clients', async () => {
    const d = await startLocalDriver();
    const stream = await d.open({ authorization: `Bearer ${d.adminKey}` });
    await stream.until(() => stream.events.length > 0);
    // Waiting for its client, close() would never end (the client never leaves): the test's own
    // timeout is the bound, not a time measured here (a busy machine may take a while to stop).
    await d.close();
    await stream.ended;
  });

  it('lambda: ends before the function times out, naming where to resume, and the resumed stream loses nothing', async () => {
    const d = await startLambdaDriver({ pollMs: 100, maxDurationMs: 1500 });
    try {
      const push = await pushCheck(d);
      const first = await d.open({ authorization: `Bearer ${d.adminKey}` });
      await first.until(() => first.events.length > 0);
      await push(false);
      await first.ended;
      // The stream ends on its own after 1.5 s. On a busy machine the change may come after that:
      // then the resumed stream carries it. Either way nothing is lost and nothing repeats.
      const early = first.stateChanges();
      // The last frame names the newest position (the event's own id when it came: nothing newer).
      if (early.length > 0) expect(first.lastEventId()).toBe(early[0]?.transition_id);

      await push(true);
      const second = await d.open({
        authorization: `Bearer ${d.adminKey}`,
        'last-event-id': first.lastEventId() ?? '',
      });
      await second.until(() => early.length + second.stateChanges().length === 2);
      const all = [...early, ...second.stateChanges()];
      expect(all.map((e) => `${e.from_state}>${e.to_state}`)).toEqual(['unknown>down', 'down>up']);
      expect(new Set(all.map((e) => e.transition_id)).size).toBe(2);
      await second.ended;
    } finally {
      await d.close();
    }
  });

  it('lambda: a stream that saw no event still ends on a position the client resumes from', async () => {
    const d = await startLambdaDriver({ pollMs: 100, maxDurationMs: 800 });
    try {
      const push = await pushCheck(d);
      const first = await d.open({ authorization: `Bearer ${d.adminKey}` });
      await first.ended;
      expect(first.stateChanges()).toEqual([]);
      const position = first.lastEventId() ?? '';
      expect(position).toMatch(/^trn_/);
      await push(false);
      const second = await d.open({ authorization: `Bearer ${d.adminKey}`, 'last-event-id': position });
      await second.until(() => second.stateChanges().length === 1);
    } finally {
      await d.close();
    }
  });
});
