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
    const started = Date.now();
    await d.close();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('lambda: ends before the function times out, naming where to resume, and the resumed stream loses nothing', async () => {
    const d = await startLambdaDriver({ pollMs: 100, maxDurationMs: 1500 });
    try {
      const push = await pushCheck(d);
      const first = await d.open({ authorization: `Bearer ${d.adminKey}` });
      await first.until(() => first.events.length > 0);
      await push(false);
      await first.until(() => first.stateChanges().length === 1);
      await first.ended;
      // The last frame names the newest position (here the event's own id: nothing newer to add).
      expect(first.lastEventId()).toBe(first.stateChanges()[0]?.transition_id);

      await push(true);
      const second = await d.open({
        authorization: `Bearer ${d.adminKey}`,
        'last-event-id': first.lastEventId() ?? '',
      });
      await second.until(() => second.stateChanges().length === 1);
      expect(second.stateChanges()[0]).toMatchObject({ from_state: 'down', to_state: 'up' });
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
