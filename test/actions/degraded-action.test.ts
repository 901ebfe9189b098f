import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ActionHarness, startActionHarness } from './support/action-harness.ts';

/**
 * `trigger_to_state: degraded` (issue 29): a degraded result, recorded through the per-check
 * layout (the result recorder: state item, transitions, entity aggregate), fires the actions
 * waiting for degraded and not those waiting for down; a plain success then fires the up ones.
 */
describe('state_change actions on degraded (local flow, fake time)', () => {
  let h: ActionHarness;
  beforeEach(async () => {
    h = await startActionHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  const degradedResult = async (checkId: string) => {
    const outcome = await h.app.recorder.record({
      tenantId: h.tenantId,
      checkId,
      success: true,
      degraded: true,
      status_code: 200,
      latency_ms: 900,
      error_message: 'latency 900 ms is above degraded_latency_ms 500',
      checkedAtMs: h.time.clock.now(),
    });
    expect(outcome.status).toBe('recorded');
    await h.settle();
  };

  it('fires the degraded action once with to_state degraded, not the down one; up fires on recovery', async () => {
    const { entityId, checkId } = await h.entityWithCheck('svc');
    const hook = (to: string) => ({
      trigger_type: 'state_change',
      check_id: checkId,
      trigger_to_state: to,
      url: `${h.receiverUrl}/${to}/{{entity_id}}?from={{from_state}}&to={{to_state}}`,
    });
    await h.result(checkId, true);
    const onDegraded = await h.action(hook('degraded'));
    const onDown = await h.action(hook('down'));
    const onUp = await h.action(hook('up'));

    await degradedResult(checkId);
    expect(h.received.map((r) => r.url)).toEqual([`/degraded/${entityId}?from=up&to=degraded`]);
    const check = await h.call('GET', `/v1/checks/${checkId}`, undefined, 200);
    expect(check.state).toBe('degraded');
    const results = await h.call('GET', `/v1/checks/${checkId}/results`, undefined, 200);
    expect(results.results[0]).toMatchObject({ outcome: 'degraded', degraded: true, success: true });
    // Still degraded: no new transition, nothing fired again.
    await h.time.advance(1000);
    await degradedResult(checkId);
    expect(h.received).toHaveLength(1);

    await h.time.advance(1000);
    await h.result(checkId, true);
    expect(h.received.map((r) => r.url)).toEqual([
      `/degraded/${entityId}?from=up&to=degraded`,
      `/up/${entityId}?from=degraded&to=up`,
    ]);
    expect(await h.executions(onDegraded.id)).toHaveLength(1);
    expect(await h.executions(onDown.id)).toHaveLength(0);
    expect(await h.executions(onUp.id)).toHaveLength(1);
    // The entity left up for degraded: an incident opened, and the success resolved it.
    const incidents = await h.call('GET', '/v1/incidents', undefined, 200);
    const ours = incidents.incidents.filter((i: { entity_id: string }) => i.entity_id === entityId);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ state: 'resolved' });
  });
});
