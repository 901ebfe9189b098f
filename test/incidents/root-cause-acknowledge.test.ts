import { describe, expect, it } from 'vitest';
import { flowHarnessPerTest } from '../notify/support/flow-harness.ts';

/**
 * One incident per root cause (issue 77 point 4): acknowledging the root cause's incident stops
 * the repeats of a dependent that joined it. A dependent held behind its upstream sends no repeats
 * anyway; this one's check turns the hold off (`suppress_when_upstream_down: false`), so its alert
 * is sent and repeats until the incident covering it, Orders DB's, is acknowledged. The local
 * runtime's real flow on fake time.
 */

const h = flowHarnessPerTest();

describe('acknowledging a root cause’s incident', () => {
  it('stops the repeats of a dependent that joined it', async () => {
    const db = await h.entityWithCheck('Orders DB');
    const shop = await h.entityWithCheck('Shop API');
    await h.dependsOn(shop.entityId, db.entityId);
    await h.channel(shop.checkId);
    await h.policy(shop.checkId, {
      repeat_interval_seconds: 60,
      cooldown_seconds: 0,
      suppress_when_upstream_down: false,
    });
    for (const e of [db, shop]) await h.result(e.checkId, true);
    await h.result(db.checkId, false);
    await h.result(shop.checkId, false);
    await h.time.advance(61_000, 1000);
    const told = () => h.sent.map((s) => `${s.alert.kind}:${s.alert.event.entity_name}`);
    expect(told()).toEqual(['alert:Shop API', 'repeat:Shop API']);

    // Shop API has no incident of its own: the one covering it is Orders DB's.
    const { incidents } = await h.app.incidents.list(
      { tenantId: h.tenantId, userId: 'usr_test' },
      { limit: 10, entity_id: shop.entityId, state: 'open' },
    );
    expect(incidents.map((i) => i.entity_id)).toEqual([db.entityId]);
    await h.call('POST', `/v1/incidents/${incidents[0]?.id}/acknowledge`, undefined, 200);
    await h.time.advance(240_000, 5000);
    expect(told()).toEqual(['alert:Shop API', 'repeat:Shop API']);
  });
});
