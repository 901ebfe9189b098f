import { describe, expect, it } from 'vitest';
import { runtimes } from '../support/api-harness.ts';
import { useIncidentApi } from './use-incident-api.ts';

/**
 * Incidents through the API in both runtimes, from real transitions: push results move the
 * entity, the change feed (the outbox pump locally, the stream function in the cloud) opens and
 * resolves incidents.
 */
describe.each(runtimes)('incidents ($runtime)', ({ start }) => {
  const { api, call, fx, incidentsOf } = useIncidentApi(start);

  it('opens one incident when an entity goes down from up, resolves it when up again, with its timeline', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('API');
    await fx.result(checkId, true);
    expect(await incidentsOf(entityId)).toEqual([]);
    await fx.result(checkId, false);
    await fx.result(checkId, false);
    const [open] = await expect
      .poll(() => incidentsOf(entityId))
      .toHaveLength(1)
      .then(() => incidentsOf(entityId));
    expect(open).toMatchObject({
      entity_id: entityId,
      entity_name: 'API',
      // Where the entity's page is, without a directory of the tenant's entities.
      blueprint_slug: 'svc',
      entity_slug: 'e1',
      state: 'open',
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: null,
      in_maintenance: false,
    });
    expect(open.id).toMatch(/^inc_[0-9A-Z]{26}$/);

    // A redelivered change opens nothing twice: feed the same transition again.
    await api().drainChanges();
    expect(await incidentsOf(entityId)).toHaveLength(1);

    await fx.result(checkId, true);
    const [resolved] = await incidentsOf(entityId);
    expect(resolved).toMatchObject({ id: open.id, state: 'resolved' });
    expect(resolved.resolved_at).not.toBeNull();
    expect(resolved.duration_seconds).toBe(
      Math.floor((Date.parse(resolved.resolved_at) - Date.parse(resolved.opened_at)) / 1000),
    );

    const detail = await call('GET', `/v1/incidents/${open.id}`, undefined, 200);
    const types = detail.timeline.map((e: { type: string }) => e.type);
    expect(types[0]).toBe('transition');
    expect(types).toContain('resolution');
    // The check has no channel: its alerts are logged skipped, and the timeline shows them.
    expect(detail.timeline.filter((e: { type: string }) => e.type === 'alert').length).toBeGreaterThan(0);
    expect(detail.timeline.filter((e: { type: string }) => e.type === 'transition')).toMatchObject([
      { from_state: 'up', to_state: 'down', check_id: checkId },
      { from_state: 'down', to_state: 'up', check_id: checkId },
    ]);
    expect(detail.timeline_truncated).toBe(false);
    expect(await incidentsOf(entityId, 'resolved')).toHaveLength(1);
    expect(await incidentsOf(entityId, 'open')).toHaveLength(0);
  });

  it('opens one when the first result is down (every entity down has an open incident, issue 51), and a new incident for each next episode', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Worker');
    await fx.result(checkId, false);
    expect((await incidentsOf(entityId)).map((i: { state: string }) => i.state)).toEqual(['open']);
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    const listed = await incidentsOf(entityId);
    expect(listed.map((i: { state: string }) => i.state)).toEqual(['open', 'resolved', 'resolved']);
    expect(listed[0].opened_at > listed[1].opened_at).toBe(true);
    expect(listed[1].opened_at > listed[2].opened_at).toBe(true);
  });

  it('opens on down when one of two checks goes down (the worst check wins, issue 35)', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Mixed');
    const second = await call(
      'POST',
      '/v1/checks',
      { entity_id: entityId, check_type: 'push', interval_seconds: 3600, failure_threshold: 1 },
      201,
    );
    await fx.result(checkId, true);
    await fx.result(second.id, true);
    await fx.result(second.id, false);
    const [incident] = await incidentsOf(entityId);
    expect(incident).toMatchObject({ state: 'open' });
    const detail = await call('GET', `/v1/incidents/${incident.id}`, undefined, 200);
    expect(detail.timeline[0]).toMatchObject({ type: 'transition', from_state: 'up', to_state: 'down' });
  });

  it('acknowledges once (who and when), idempotently; notes within their limits; read-only keys read only', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('DB');
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    const [incident] = await incidentsOf(entityId);
    const me = await call('GET', '/v1/me', undefined, 200);

    const readOnly = await call('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true }, 201);
    const roAck = await api().request('POST', `/v1/incidents/${incident.id}/acknowledge`, {
      key: readOnly.key,
    });
    expect(roAck.status).toBe(403);
    expect(roAck.body.code).toBe('READ_ONLY');
    const roRead = await api().request('GET', `/v1/incidents/${incident.id}`, { key: readOnly.key });
    expect(roRead.status).toBe(200);

    const acked = await call('POST', `/v1/incidents/${incident.id}/acknowledge`, undefined, 200);
    expect(acked).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: me.user?.id ?? acked.acknowledged_by,
    });
    expect(acked.acknowledged_by).toMatch(/^usr_/);
    const again = await call('POST', `/v1/incidents/${incident.id}/acknowledge`, undefined, 200);
    expect(again.acknowledged_at).toBe(acked.acknowledged_at);
    expect(await incidentsOf(entityId, 'acknowledged')).toHaveLength(1);

    const note = await call(
      'POST',
      `/v1/incidents/${incident.id}/notes`,
      { text: 'restarting the pool' },
      201,
    );
    expect(note).toMatchObject({
      incident_id: incident.id,
      text: 'restarting the pool',
      created_by: acked.acknowledged_by,
    });
    const tooLong = await call('POST', `/v1/incidents/${incident.id}/notes`, { text: 'é'.repeat(2049) }, 400);
    expect(tooLong.code).toBe('VALIDATION_ERROR');
    const empty = await call('POST', `/v1/incidents/${incident.id}/notes`, { text: '' }, 400);
    expect(empty.code).toBe('VALIDATION_ERROR');
    // Whitespace alone (spaces, a tab, newlines, a no-break space) is no note either.
    const blank = await call('POST', `/v1/incidents/${incident.id}/notes`, { text: ' \t\n\u00a0\n' }, 400);
    expect(blank.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(blank)).toContain('Write the note: it holds only spaces.');
    const extra = await call('POST', `/v1/incidents/${incident.id}/notes`, { text: 'x', pinned: true }, 400);
    expect(extra.code).toBe('VALIDATION_ERROR');

    const detail = await call('GET', `/v1/incidents/${incident.id}`, undefined, 200);
    expect(
      detail.timeline.filter((e: { type: string }) => e.type !== 'transition' && e.type !== 'alert'),
    ).toEqual([
      { type: 'acknowledgement', at: acked.acknowledged_at, by: acked.acknowledged_by },
      { type: 'note', at: note.created_at, by: note.created_by, text: 'restarting the pool' },
    ]);

    await fx.result(checkId, true);
    const [resolved] = await incidentsOf(entityId);
    expect(resolved).toMatchObject({ state: 'resolved', acknowledged_at: acked.acknowledged_at });
  });

  it('refuses the 201st note with 409 CONFLICT', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Notes');
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    const [incident] = await incidentsOf(entityId);
    for (let i = 0; i < 200; i += 1)
      await call('POST', `/v1/incidents/${incident.id}/notes`, { text: `note ${i}` }, 201);
    const refused = await call('POST', `/v1/incidents/${incident.id}/notes`, { text: 'one more' }, 409);
    expect(refused.code).toBe('CONFLICT');
    const detail = await call('GET', `/v1/incidents/${incident.id}`, undefined, 200);
    expect(detail.timeline.filter((e: { type: string }) => e.type === 'note')).toHaveLength(200);
  });

  it("answers 404 for another tenant's incident and for ids that cannot be one; a resolved one acknowledges as it is", async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Other');
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    await fx.result(checkId, true);
    const [incident] = await incidentsOf(entityId);
    const other = await api().createTenant('other');
    for (const [method, path] of [
      ['GET', `/v1/incidents/${incident.id}`],
      ['POST', `/v1/incidents/${incident.id}/acknowledge`],
    ] as const) {
      const res = await api().request(method, path, { key: other.key });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const listed = await api().request('GET', '/v1/incidents', { key: other.key });
    expect(listed.body.incidents).toEqual([]);
    expect((await call('GET', '/v1/incidents/inc_nope', undefined, 404)).code).toBe('NOT_FOUND');
    const asIs = await call('POST', `/v1/incidents/${incident.id}/acknowledge`, undefined, 200);
    expect(asIs).toMatchObject({ state: 'resolved', acknowledged_at: null, acknowledged_by: null });
  });

  it('pages newest first with sealed cursors', async () => {
    const page1 = await call('GET', '/v1/incidents?limit=2', undefined, 200);
    expect(page1.incidents).toHaveLength(2);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = await call(
      'GET',
      `/v1/incidents?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`,
      undefined,
      200,
    );
    expect(page2.incidents[0].opened_at <= page1.incidents[1].opened_at).toBe(true);
    expect(page2.incidents.map((i: { id: string }) => i.id)).not.toContain(page1.incidents[0].id);
    const bad = await call('GET', '/v1/incidents?cursor=not-a-cursor', undefined, 400);
    expect(bad.code).toBe('VALIDATION_ERROR');
  });
});
