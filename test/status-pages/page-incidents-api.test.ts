import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * A status page's written incidents through /v1/status-pages/{slug}/incidents (issue 54 item 1):
 * create with a first update, updates that move forward only, edits and publishing, backfill,
 * the owner's paged list, tenant isolation, read-only keys, bounds, and the audit log.
 */

const T0 = Date.parse('2026-06-10T12:00:00.000Z');

describe.each(runtimes)('page incidents ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let readOnlyKey = '';
  let shown = '';
  let hidden = '';
  const clock = createFakeClock(T0);
  const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const base = '/v1/status-pages/acme/incidents';

  beforeAll(async () => {
    api = await start({ clock });
    readOnlyKey = (await req('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    shown = (await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'Public API' })).body
      .id;
    hidden = (await req('POST', '/v1/blueprints/service/entities', { slug: 'db', name: 'Database' })).body.id;
    const page = await req('POST', '/v1/status-pages', { slug: 'acme', title: 'Acme', entity_ids: [shown] });
    expect(page.status, page.text).toBe(201);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('creates an incident with its first update, then moves it forward to resolved', async () => {
    const created = await req('POST', base, {
      title: 'Slow API',
      body: 'We are *looking* into it.',
      impact: [{ entity_id: shown, level: 'degraded_performance' }],
      notify: true,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      page: 'acme',
      title: 'Slow API',
      status: 'investigating',
      impact: [{ entity_id: shown, level: 'degraded_performance' }],
      started_at: new Date(T0).toISOString(),
      resolved_at: null,
      draft: false,
      linked_incident_ids: [],
    });
    expect(created.body.updates).toEqual([
      expect.objectContaining({ status: 'investigating', body: 'We are *looking* into it.', notify: true }),
    ]);
    const id = created.body.id as string;

    clock.advance(60_000);
    const identified = await req('POST', `${base}/${id}/updates`, {
      status: 'identified',
      body: 'A bad deploy.',
    });
    expect(identified.status, identified.text).toBe(201);
    expect(identified.body.status).toBe('identified');
    expect(identified.body.updates.map((u: { notify: boolean }) => u.notify)).toEqual([true, false]);

    const back = await req('POST', `${base}/${id}/updates`, { status: 'investigating', body: 'Hm.' });
    expect(back.status).toBe(400);
    expect(back.body.details).toEqual([{ path: 'status', message: expect.stringMatching(/forward only/) }]);

    clock.advance(60_000);
    const resolved = await req('POST', `${base}/${id}/updates`, { status: 'resolved', body: 'Rolled back.' });
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolved_at: new Date(T0 + 120_000).toISOString(),
    });
    const after = await req('POST', `${base}/${id}/updates`, { status: 'resolved', body: 'Again.' });
    expect(after.status).toBe(400);
    expect(after.text).toMatch(/resolved: no update follows/);

    expect((await req('GET', `${base}/${id}`)).body).toEqual(resolved.body);
  });

  it('refuses impact on an entity the page does not show, and bounds title, body and updates', async () => {
    const hiddenImpact = await req('POST', base, {
      title: 'DB',
      body: 'x',
      impact: [{ entity_id: hidden, level: 'major_outage' }],
    });
    expect(hiddenImpact.status).toBe(400);
    expect(hiddenImpact.body.details[0]).toMatchObject({ path: 'impact.0.entity_id' });
    expect((await req('POST', base, { title: 'x'.repeat(201), body: 'x' })).status).toBe(400);
    expect((await req('POST', base, { title: 'Long', body: 'x'.repeat(4001) })).status).toBe(400);
    expect(
      (
        await req('POST', base, {
          title: 'Bad level',
          body: 'x',
          impact: [{ entity_id: shown, level: 'meh' }],
        })
      ).status,
    ).toBe(400);

    const many = (await req('POST', base, { title: 'Chatty', body: 'first' })).body.id as string;
    for (let i = 1; i < 25; i += 1) {
      const res = await req('POST', `${base}/${many}/updates`, {
        status: 'investigating',
        body: `update ${i}`,
      });
      expect(res.status, res.text).toBe(201);
    }
    const over = await req('POST', `${base}/${many}/updates`, { status: 'investigating', body: 'one more' });
    expect(over.status).toBe(400);
    expect(over.text).toMatch(/at most 25 updates/);
    await req('DELETE', `${base}/${many}`);
  });

  it('backfills a past incident and refuses times in the future or out of order', async () => {
    const backfilled = await req('POST', base, {
      title: 'Outage last week',
      status: 'resolved',
      body: 'Written for the record.',
      started_at: '2026-06-01T10:00:00Z',
      resolved_at: '2026-06-01T11:30:00Z',
    });
    expect(backfilled.status, backfilled.text).toBe(201);
    expect(backfilled.body).toMatchObject({
      status: 'resolved',
      started_at: '2026-06-01T10:00:00.000Z',
      resolved_at: '2026-06-01T11:30:00.000Z',
    });
    expect(backfilled.body.updates[0].at).toBe('2026-06-01T11:30:00.000Z');
    const future = await req('POST', base, { title: 'F', body: 'x', started_at: '2027-01-01T00:00:00Z' });
    expect(future.status).toBe(400);
    const reversed = await req('POST', base, {
      title: 'R',
      status: 'resolved',
      body: 'x',
      started_at: '2026-06-01T10:00:00Z',
      resolved_at: '2026-06-01T09:00:00Z',
    });
    expect(reversed.status).toBe(400);
    const openWithEnd = await req('POST', base, {
      title: 'O',
      body: 'x',
      resolved_at: '2026-06-01T09:00:00Z',
    });
    expect(openWithEnd.status).toBe(400);
    expect(openWithEnd.text).toMatch(/set status to resolved/);
  });

  it('edits title and impact, publishes a draft, and lists the page incidents newest first in pages', async () => {
    const draft = await req('POST', base, { title: 'Draft', body: 'Not yet public.', draft: true });
    expect(draft.body.draft).toBe(true);
    const id = draft.body.id as string;
    const patched = await req('PATCH', `${base}/${id}`, {
      title: 'Published',
      impact: [{ entity_id: shown, level: 'partial_outage' }],
      draft: false,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Published',
      draft: false,
      impact: [{ level: 'partial_outage' }],
    });
    expect((await req('PATCH', `${base}/${id}`, { draft: true })).status).toBe(400);

    const first = await req('GET', `${base}?limit=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.incidents).toHaveLength(2);
    expect(first.body.incidents[0].id).toBe(id);
    expect(first.body.next_cursor).toBe(first.body.incidents[1].id);
    const rest = await req('GET', `${base}?limit=100&cursor=${first.body.next_cursor}`);
    const all = [...first.body.incidents, ...rest.body.incidents].map((i: { id: string }) => i.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual([...all].sort().reverse());
    expect(rest.body.next_cursor).toBeNull();
  });

  it('keeps another tenant out (404) and read-only keys from writing (403)', async () => {
    const id = (await req('POST', base, { title: 'Mine', body: 'x' })).body.id as string;
    const other = await api.createTenant('Other');
    expect((await req('GET', `${base}/${id}`, undefined, other.key)).status).toBe(404);
    expect((await req('GET', base, undefined, other.key)).status).toBe(404);
    expect(
      (await req('POST', `${base}/${id}/updates`, { status: 'resolved', body: 'x' }, other.key)).status,
    ).toBe(404);
    expect((await req('DELETE', `${base}/${id}`, undefined, other.key)).status).toBe(404);

    expect((await req('GET', `${base}/${id}`, undefined, readOnlyKey)).status).toBe(200);
    expect((await req('POST', base, { title: 'No', body: 'x' }, readOnlyKey)).status).toBe(403);
    expect((await req('PATCH', `${base}/${id}`, { title: 'No' }, readOnlyKey)).status).toBe(403);
    expect((await req('DELETE', `${base}/${id}`, undefined, readOnlyKey)).status).toBe(403);

    expect((await req('DELETE', `${base}/${id}`)).status).toBe(204);
    expect((await req('GET', `${base}/${id}`)).status).toBe(404);
    expect((await req('DELETE', `${base}/${id}`)).status).toBe(404);
  });

  it('records each write in the audit log', async () => {
    const id = (await req('POST', base, { title: 'Audited', body: 'x' })).body.id as string;
    await req('POST', `${base}/${id}/updates`, { status: 'monitoring', body: 'y' });
    const entries = (await req('GET', '/v1/audit?limit=50')).body.entries as {
      action: string;
      target: unknown;
    }[];
    const actions = entries.map((e) => e.action);
    expect(actions).toContain('page_incident.create');
    expect(actions).toContain('page_incident_update.create');
    expect(entries.find((e) => e.action === 'page_incident.create')?.target).toMatchObject({ id });
  });

  it('deletes a page with its incidents: the slug made again starts empty', async () => {
    await req('POST', '/v1/status-pages', { slug: 'gone', title: 'Gone' });
    await req('POST', '/v1/status-pages/gone/incidents', { title: 'Old', body: 'x' });
    expect((await req('DELETE', '/v1/status-pages/gone')).status).toBe(204);
    await req('POST', '/v1/status-pages', { slug: 'gone', title: 'Gone again' });
    expect((await req('GET', '/v1/status-pages/gone/incidents')).body.incidents).toEqual([]);
  });
  it('lists only the open ones, drafts included, with ?open=true', async () => {
    await req('POST', '/v1/status-pages', { slug: 'openlist', title: 'Open list' });
    const list = '/v1/status-pages/openlist/incidents';
    const open = (await req('POST', list, { title: 'Open', body: 'x' })).body.id as string;
    clock.advance(1000);
    const draft = (await req('POST', list, { title: 'Draft', body: 'x', draft: true })).body.id as string;
    const done = (await req('POST', list, { title: 'Done', body: 'x' })).body.id as string;
    expect((await req('POST', `${list}/${done}/updates`, { status: 'resolved', body: 'Over.' })).status).toBe(
      201,
    );
    await req('POST', list, {
      title: 'Backfilled',
      body: 'x',
      status: 'resolved',
      started_at: '2026-01-01T10:00:00Z',
      resolved_at: '2026-01-01T11:00:00Z',
    });
    const only = await req('GET', `${list}?open=true&limit=1`);
    expect(only.status, only.text).toBe(200);
    expect(only.body.incidents.map((i: { id: string }) => i.id)).toEqual([draft, open]);
    expect(only.body.next_cursor).toBeNull();
    expect((await req('GET', `${list}?open=false`)).body.incidents).toHaveLength(4);
    expect((await req('GET', `${list}?open=yes`)).status).toBe(400);
  });
});
