import { describe, expect, it } from 'vitest';
import { newId } from '../../lib/platform/ids.ts';
import { runtimes } from '../support/api-harness.ts';
import { useIncidentApi } from './use-incident-api.ts';

/**
 * An incident whose entity is deleted, in both runtimes: the entity delete's purge job (worked by
 * the change feed: the outbox pump locally, the stream function in the cloud) resolves the open or
 * acknowledged incident with a resolution saying the entity was deleted; the incident stays
 * readable with the name it was opened with, other entities' incidents stay open, and a
 * transition read after the delete opens nothing.
 */
describe.each(runtimes)('incidents of deleted entities ($runtime)', ({ start }) => {
  const { api, call, fx } = useIncidentApi(start);

  /** An entity (slug e<n>) whose push check went up then down: its one open incident. */
  async function downEntity(name: string) {
    const { entityId, checkId } = await fx.entityWithCheck(name);
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    const listed = (await call('GET', `/v1/incidents?entity_id=${entityId}`, undefined, 200)).incidents;
    expect(listed).toMatchObject([{ state: 'open', entity_name: name }]);
    return { entityId, checkId, incidentId: String(listed[0].id) };
  }

  it('resolves the open and the acknowledged incident of a deleted entity, says why in the timeline, and keeps it readable', async () => {
    const deleted = await downEntity('API');
    const acknowledged = await downEntity('DB');
    const kept = await downEntity('Web');
    await call('POST', `/v1/incidents/${acknowledged.incidentId}/acknowledge`, undefined, 200);

    await call('DELETE', '/v1/blueprints/svc/entities/e1', undefined, 204);
    await call('DELETE', '/v1/blueprints/svc/entities/e2', undefined, 204);
    await api().drainChanges();

    await call('GET', '/v1/blueprints/svc/entities/e1', undefined, 404);
    const detail = await call('GET', `/v1/incidents/${deleted.incidentId}`, undefined, 200);
    expect(detail).toMatchObject({
      id: deleted.incidentId,
      entity_id: deleted.entityId,
      entity_name: 'API',
      state: 'resolved',
    });
    expect(Date.parse(detail.resolved_at)).toBeGreaterThanOrEqual(Date.parse(detail.opened_at));
    expect(detail.timeline.at(-1)).toEqual({
      type: 'resolution',
      at: detail.resolved_at,
      transition_id: null,
      reason: 'the entity was deleted',
    });
    const ackDetail = await call('GET', `/v1/incidents/${acknowledged.incidentId}`, undefined, 200);
    expect(ackDetail).toMatchObject({ entity_name: 'DB', state: 'resolved' });
    expect(ackDetail.acknowledged_at).not.toBeNull();
    expect(ackDetail.timeline.map((e: { type: string }) => e.type)).toContain('acknowledgement');
    expect(ackDetail.timeline.at(-1)).toMatchObject({ type: 'resolution', reason: 'the entity was deleted' });

    // The control: an entity still there keeps its incident open.
    const open = (await call('GET', '/v1/incidents?state=open', undefined, 200)).incidents;
    expect(open.map((i: { id: string }) => i.id)).toEqual([kept.incidentId]);

    // A replay of the feed changes nothing: the resolution stays as it was.
    await api().drainChanges();
    expect((await call('GET', `/v1/incidents/${deleted.incidentId}`, undefined, 200)).resolved_at).toBe(
      detail.resolved_at,
    );
  });

  it('says the entity is up again when a transition resolved it', async () => {
    const { incidentId, checkId } = await downEntity('Cache');
    await fx.result(checkId, true);
    const detail = await call('GET', `/v1/incidents/${incidentId}`, undefined, 200);
    // The recovery's alert shares the resolution's instant: find the entry by type.
    expect(detail.timeline.find((e: { type: string }) => e.type === 'resolution')).toMatchObject({
      transition_id: expect.stringMatching(/^trn_/),
      reason: 'the entity is up again',
    });
  });

  it('opens no incident from a transition read after its entity was deleted', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Queue');
    await fx.result(checkId, true);
    await call('DELETE', '/v1/blueprints/svc/entities/e5', undefined, 204);
    await api().drainChanges();

    // The down the feed still carried when the delete happened, applied as the consumer would.
    await api().app.incidents.apply({
      id: newId('trn'),
      tenant_id: api().tenantId,
      kind: 'entity',
      entity_id: entityId,
      entity_name: 'Queue',
      check_id: checkId,
      from_state: 'up',
      to_state: 'down',
      reason: 'late',
      created_at: new Date().toISOString(),
    });

    expect((await call('GET', `/v1/incidents?entity_id=${entityId}`, undefined, 200)).incidents).toEqual([]);
  });
});
