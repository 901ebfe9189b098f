import { describe, expect, it } from 'vitest';
import { flowHarnessPerTest } from './support/flow-harness.ts';

const h = flowHarnessPerTest();

const kinds = () => h.sent.map((s) => `${s.alert.kind}:${s.alert.event.to_state}`);

describe('repeats', () => {
  it('re-sends every repeat_interval_seconds while the entity stays down, and stops at recovery', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { repeat_interval_seconds: 60, cooldown_seconds: 0 });
    await h.result(checkId, false);
    await h.time.advance(59_000, 1000);
    expect(kinds()).toEqual(['alert:down']);
    await h.time.advance(2000, 500);
    expect(kinds()).toEqual(['alert:down', 'repeat:down']);
    await h.time.advance(60_000, 1000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down', 'repeat:down']);

    await h.result(checkId, true);
    await h.time.advance(180_000, 5000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down', 'repeat:down', 'alert:up']);
    const logs = await h.logs(checkId);
    expect(logs.map((l) => l.kind)).toEqual(['alert', 'repeat', 'repeat', 'alert']);
    // Each says what it is and how long it has been down (issue 35: say what each message is).
    const repeats = h.sent.filter((s) => s.alert.kind === 'repeat').map((s) => s.alert.downForSeconds);
    expect(repeats.map((d) => Math.floor((d ?? 0) / 60))).toEqual([1, 2]);
    expect(h.sent[0]?.alert.downForSeconds).toBeUndefined();
  });

  it('stops when the policy changed', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { repeat_interval_seconds: 60 });
    await h.result(checkId, false);
    await h.time.advance(61_000, 1000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down']);
    await h.policy(checkId, { repeat_interval_seconds: 60, cooldown_seconds: 10 });
    await h.time.advance(240_000, 5000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down']);
  });

  it('stops when the policy is silenced', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { repeat_interval_seconds: 60 });
    await h.result(checkId, false);
    await h.policy(checkId, { repeat_interval_seconds: 60, silenced: true });
    await h.time.advance(240_000, 5000);
    expect(kinds()).toEqual(['alert:down']);
  });

  it('waits in hops of at most 15 minutes for a long interval', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { repeat_interval_seconds: 3600 });
    await h.result(checkId, false);
    await h.time.advance(3_590_000, 60_000);
    expect(kinds()).toEqual(['alert:down']);
    await h.time.advance(20_000, 1000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down']);
  });

  it('sends no repeats when the interval is 0', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.result(checkId, false);
    await h.time.advance(600_000, 30_000);
    expect(kinds()).toEqual(['alert:down']);
    expect(h.queue.timed).toBe(0);
  });
});

describe('repeats and incidents', () => {
  it('stop when the entity’s open incident is acknowledged', async () => {
    const { entityId, checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { repeat_interval_seconds: 60, cooldown_seconds: 0 });
    await h.result(checkId, true);
    await h.result(checkId, false);
    await h.time.advance(61_000, 1000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down']);
    // The router takes the query apart from the path: list through the service the route calls.
    const { incidents } = await h.app.incidents.list(
      { tenantId: h.tenantId, userId: 'usr_test' },
      { limit: 10, entity_id: entityId, state: 'open' },
    );
    expect(incidents).toHaveLength(1);
    await h.call('POST', `/v1/incidents/${incidents[0]?.id}/acknowledge`, undefined, 200);
    await h.time.advance(240_000, 5000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down']);
  });
});

describe('repeats and checks also failing', () => {
  it('names a check that started failing inside the down entity in the next repeat, without paging for it', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Orders');
    const second = await h.call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
      name: 'Queue depth',
    });
    await h.channel(checkId);
    await h.policy(checkId, { repeat_interval_seconds: 60, cooldown_seconds: 0 });
    await h.result(checkId, true);
    await h.result(second.id, true);
    await h.result(checkId, false);
    expect(kinds()).toEqual(['alert:down']);
    expect(h.sent[0]?.alert.alsoFailing).toBeUndefined();

    await h.result(second.id, false);
    expect(kinds()).toEqual(['alert:down']);
    await h.time.advance(61_000, 1000);
    expect(kinds()).toEqual(['alert:down', 'repeat:down']);
    expect(h.sent[1]?.alert.alsoFailing).toEqual(['Queue depth']);
  });
});
