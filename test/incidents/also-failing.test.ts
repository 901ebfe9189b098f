import { describe, expect, it } from 'vitest';
import { alsoFailingOf } from '../../lib/incidents/also-failing.ts';
import { runtimes } from '../support/api-harness.ts';
import { useIncidentApi } from './use-incident-api.ts';

/**
 * Issue 35, "also failing": a check that starts failing inside an entity already down joins the
 * entity's open incident (a timeline entry "also failing: <check>") and is named in what the
 * notifier sends next; the entity does not move, so nothing pages again. Both runtimes, push
 * results through the API and the change feed.
 */
describe.each(runtimes)('also failing ($runtime)', ({ start }) => {
  const { api, call, fx } = useIncidentApi(start);

  it('a second check failing inside a down entity joins its open incident and pages nobody', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Orders');
    const second = await call(
      'POST',
      '/v1/checks',
      {
        entity_id: entityId,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
        name: 'Queue depth',
      },
      201,
    );
    await fx.result(checkId, true);
    await fx.result(second.id, true);
    await api().drainChanges();
    // No open incident yet: nothing to name.
    expect(await alsoFailingOf(api().table, api().tenantId, entityId)).toEqual([]);
    await fx.result(checkId, false);
    await fx.result(checkId, false);
    const [incident] = (await call('GET', `/v1/incidents?entity_id=${entityId}`, undefined, 200)).incidents;
    expect(incident).toMatchObject({ state: 'open' });
    const feed = async () =>
      (await call('GET', '/v1/status/transitions?limit=200', undefined, 200)).transitions.filter(
        (t: { entity_id: string }) => t.entity_id === entityId,
      );
    const before = await feed();

    await fx.result(second.id, false);
    await api().drainChanges();
    expect((await call('GET', `/v1/checks/${second.id}`, undefined, 200)).state).toBe('down');
    // The entity stays down: no transition, so no event and no alert.
    expect(await feed()).toEqual(before);
    const detail = await call('GET', `/v1/incidents/${incident.id}`, undefined, 200);
    const joined = detail.timeline.filter((e: { type: string }) => e.type === 'also_failing');
    expect(joined).toEqual([
      {
        type: 'also_failing',
        at: expect.any(String),
        check_id: second.id,
        text: 'also failing: Queue depth',
      },
    ]);
    // Redelivered: recorded once.
    await fx.result(second.id, false);
    await api().drainChanges();
    expect(await alsoFailingOf(api().table, api().tenantId, entityId)).toEqual(['Queue depth']);
  });
});
