import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * Nothing but what the owner chose reaches a public status page: every record around the page's
 * entities (blueprint and entity fields, slugs, check targets with credentials, error messages,
 * channel URLs and secrets, action URLs and headers, incident notes, the page's other tenants'
 * names) carries a marker string, and none of them, nor any id, appears in the HTML, the JSON or
 * the badge. The entity names and the page's title are shown: they carry no marker.
 */

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const MARK = 'LEAKMARK';
const marker = (what: string) => `${MARK}${what}`;

describe.each(runtimes)('no leak through a public status page ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  const ids: string[] = [];
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };

  beforeAll(async () => {
    // Loopback targets are allowed so the records can be stored (nothing is sent: the scheduler is off).
    api = await start({ clock, env: { VIGIL_EGRESS_ALLOW: '127.0.0.1/32' } });
    await req('POST', '/v1/blueprints', {
      slug: 'leakbp',
      name: marker('BlueprintName'),
      fields: [{ name: 'secret_note', field_type: 'string', required: false, sort_order: 1 }],
    });
    const entity = await req('POST', '/v1/blueprints/leakbp/entities', {
      slug: 'leakmark-entity-slug',
      name: 'Checkout',
      fields: { secret_note: marker('FieldValue') },
    });
    const other = await req('POST', '/v1/blueprints/leakbp/entities', {
      slug: 'leakmark-hidden',
      name: marker('HiddenEntityName'),
      fields: { secret_note: marker('HiddenFieldValue') },
    });
    ids.push(entity.id, other.id);
    await req('POST', '/v1/relations', {
      from_entity_id: entity.id,
      to_entity_id: other.id,
      relation_type: 'depends_on',
    });
    // On the hidden entity: a pull check never run would hold the shown entity's state, and its incident, open.
    const http = await req('POST', '/v1/checks', {
      entity_id: other.id,
      check_type: 'http',
      target_url: `https://user:${marker('Password')}@127.0.0.1:9/${marker('Path')}?token=${marker('Query')}`,
      headers: { authorization: `Bearer ${marker('CheckHeader')}` },
      body_contains: marker('BodyContains'),
    });
    const push = await req('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    ids.push(http.id, push.id);
    await req('POST', `/v1/checks/${push.id}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: `https://127.0.0.1:9/${marker('ChannelUrl')}`, secret: marker('ChannelSecret') },
    });
    await req('POST', '/v1/notify/channels', {
      name: marker('ChannelName'),
      channel_type: 'nats',
      config: { subject: 'leakmark.subject' },
    });
    await req('POST', '/v1/actions', {
      name: marker('ActionName'),
      url: `https://127.0.0.1:9/${marker('ActionUrl')}`,
      headers: { 'x-secret': marker('ActionHeader') },
    });
    await req('POST', '/v1/maintenance', {
      name: marker('WindowName'),
      entity_ids: [entity.id],
      starts_at: '2099-01-01T00:00:00.000Z',
      ends_at: '2099-01-01T01:00:00.000Z',
    });
    // Up, then a failure with a message opens an incident; a success resolves it; another failure opens one again.
    await req('POST', `/v1/checks/${push.id}/results`, { success: true, latency_ms: 5 });
    await api.drainChanges();
    clock.advance(60_000);
    await req('POST', `/v1/checks/${push.id}/results`, {
      success: false,
      error_message: marker('ErrorMessage'),
    });
    await api.drainChanges();
    const incidents = (await req('GET', '/v1/incidents')).incidents as { id: string }[];
    for (const incident of incidents) {
      ids.push(incident.id);
      await req('POST', `/v1/incidents/${incident.id}/notes`, { text: marker('Note') });
    }
    clock.advance(60_000);
    await req('POST', `/v1/checks/${push.id}/results`, { success: true, latency_ms: 5 });
    await api.drainChanges();
    clock.advance(60_000);
    await req('POST', `/v1/checks/${push.id}/results`, { success: false, error_message: marker('ErrorTwo') });
    await api.drainChanges();
    await req('POST', '/v1/status-pages', {
      slug: 'leak-page',
      title: 'Acme status',
      description: 'Our shop',
      entity_ids: [entity.id],
    });
    ids.push(api.tenantId);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('shows the chosen entity and its incidents, and nothing of any other record', async () => {
    const answers = await Promise.all(
      ['/p/leak-page', '/p/leak-page/status.json', '/p/leak-page/badge.svg'].map((path) =>
        api.request('GET', path),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const json = answers[1]?.body;
    expect(json.entities).toEqual([expect.objectContaining({ name: 'Checkout', state: 'down' })]);
    // Incidents are shown (that they are not hidden is what makes this test able to fail on them).
    expect(json.incidents.open).toHaveLength(1);
    expect(json.incidents.resolved).toHaveLength(1);
    expect(answers[0]?.text).toContain('Checkout');
    for (const answer of answers) {
      expect(answer.text).not.toContain(MARK);
      expect(answer.text.toLowerCase()).not.toContain(MARK.toLowerCase());
      for (const id of ids) expect(answer.text).not.toContain(id);
      expect(answer.text).not.toMatch(/\b(ent|chk|inc|tnt|usr|key|act|mnt)_[0-9A-Z]{26}\b/);
      // No URL at all, but the SVG namespace.
      expect(answer.text.replace('http://www.w3.org/2000/svg', '')).not.toContain('://');
    }
  });

  it('feeds carry the published written incident, and nothing of a draft, any id or other record', async () => {
    const base = '/v1/status-pages/leak-page/incidents';
    const shown = await req('POST', base, { title: 'Slow checkout', body: 'Looking into it.' });
    const draft = await req('POST', base, {
      title: marker('DraftTitle'),
      body: marker('DraftBody'),
      draft: true,
    });
    for (const path of ['/p/leak-page/feed.rss', '/p/leak-page/feed.atom']) {
      const answer = await api.request('GET', path);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('Slow checkout');
      expect(answer.text.toLowerCase()).not.toContain(MARK.toLowerCase());
      for (const id of [...ids, shown.id, draft.id]) expect(answer.text).not.toContain(id);
      expect(answer.text).not.toMatch(/\b(ent|chk|inc|tnt|usr|key|act|mnt|pin|upd)_[0-9A-Z]{26}\b/);
      // URLs: the page's own (links, ids), the formats' namespaces and the RSS docs link only.
      const urls = [...answer.text.matchAll(/[a-z]+:\/\/[^\s<"]+/g)].map((m) => m[0]);
      const allowed =
        /^(https?:\/\/[^/]+\/p\/leak-page(\/|$)|http:\/\/www\.w3\.org\/2005\/Atom$|http:\/\/purl\.org\/|https:\/\/validator\.w3\.org\/feed\/docs\/rss2\.html$)/;
      expect(urls.filter((u) => !allowed.test(u))).toEqual([]);
    }
  });
});
