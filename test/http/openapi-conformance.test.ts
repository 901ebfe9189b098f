import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeErrorCodes } from '../../lib/http/openapi.ts';
import { ERROR_STATUS, errorBodySchema } from '../../lib/http/route-schemas.ts';
import type { Route } from '../../lib/http/types.ts';
import { type ApiHarness, type ApiResponse, type RequestOptions, runtimes } from '../support/api-harness.ts';

/** The route of the table that serves `method` `path`. */
function routeFor(routes: readonly Route[], method: string, path: string): Route {
  const bare = path.split('?')[0] ?? path;
  const route = routes.find(
    (r) =>
      r.method === method &&
      new RegExp(`^${r.path.replace(/\{[a-z_]+\}/g, '[^/]+').replace('.', '\\.')}$`).test(bare),
  );
  if (!route) throw new Error(`no route for ${method} ${path}`);
  return route;
}

/** Why `res` is not what the route's declared schemas say it answers; empty when it conforms. */
function violations(route: Route, res: ApiResponse): string[] {
  if (res.status === 302) {
    if (route.schemas.responses[302] === undefined) return ['status 302 is not declared'];
    return res.headers.location ? [] : ['a 302 without Location'];
  }
  if (res.status >= 200 && res.status < 300) {
    const declared = route.schemas.responses[res.status as 200 | 201 | 204];
    if (declared === undefined) return [`status ${res.status} is not declared`];
    if (declared === null) return res.text === '' ? [] : [`a body on ${res.status}`];
    if (!('safeParse' in declared)) return [];
    const parsed = declared.safeParse(res.body);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  }
  // An answer the route documents outside the envelope (the Pinging API's text errors).
  const other = route.schemas.otherErrors?.[res.status];
  if (other?.contentType && res.headers['content-type']?.startsWith(other.contentType)) return [];
  const codes = routeErrorCodes(route);
  const problems: string[] = [];
  if (!codes.some((code) => ERROR_STATUS[code] === res.status)) problems.push(`status ${res.status}`);
  if (!codes.includes(res.body?.code)) problems.push(`code ${res.body?.code} is not declared`);
  const parsed = errorBodySchema.safeParse(res.body);
  if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return problems;
}

describe.each(runtimes)('answers match the declared schemas ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  /** Sends a request and expects the answer to conform to its route's declared schemas. */
  const call = async (method: string, path: string, options: RequestOptions = {}) => {
    const res = await api.request(method, path, { key: api.adminKey, ...options });
    const route = routeFor(api.app.routes, method, path);
    expect(violations(route, res), `${method} ${path} -> ${res.status} ${res.text}`).toEqual([]);
    return res;
  };

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('serves the OpenAPI document without a key', async () => {
    const res = await call('GET', '/v1/openapi.json', { key: '' });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toContain('/v1/openapi.json');
    expect((await call('GET', '/healthz', { key: '' })).status).toBe(200);
  });

  it('answers the account and key routes as documented', async () => {
    expect((await call('GET', '/v1/me')).status).toBe(200);
    const created = await call('POST', '/v1/auth/keys', { body: { label: 'ci', is_read_only: true } });
    expect(created.status).toBe(201);
    expect((await call('GET', '/v1/auth/keys')).body.length).toBeGreaterThanOrEqual(2);
    expect((await call('GET', '/v1/auth/keys', { key: created.body.key })).body.code).toBe('READ_ONLY');
    expect((await call('DELETE', `/v1/auth/keys/${created.body.id}`)).status).toBe(204);
    expect((await call('GET', '/v1/me', { key: '' })).status).toBe(401);
    expect((await call('GET', '/v1/me/report')).body).toEqual({ report: 'off', time_zone: 'UTC' });
    const report = { report: 'monthly', time_zone: 'Europe/Berlin' };
    expect((await call('PUT', '/v1/me/report', { body: report })).body).toEqual(report);
    expect((await call('PUT', '/v1/me/report', { body: { ...report, time_zone: 'Mars/Base' } })).status).toBe(
      400,
    );
  });

  it('answers the contact method and notification rule routes as documented', async () => {
    const made = await call('POST', '/v1/me/contact-methods', { body: { kind: 'console', label: 'Laptop' } });
    expect(made.status).toBe(201);
    expect((await call('GET', '/v1/me/contact-methods')).body.contact_methods).toHaveLength(1);
    expect((await call('GET', `/v1/me/contact-methods/${made.body.id}`)).body.verified).toBe(true);
    expect(
      (await call('POST', `/v1/me/contact-methods/${made.body.id}/verify`, { body: { code: '123456' } }))
        .status,
    ).toBe(409);
    expect((await call('POST', `/v1/me/contact-methods/${made.body.id}/resend`)).status).toBe(409);
    expect(
      (await call('POST', '/v1/me/contact-methods', { body: { kind: 'sms', address: '+14155550100' } }))
        .status,
    ).toBe(400);
    const rules = { rules: [{ after_seconds: 0, contact_method_id: made.body.id }] };
    expect((await call('PUT', '/v1/me/notification-rules', { body: rules })).body.rules).toEqual(rules.rules);
    expect((await call('GET', '/v1/me/notification-rules')).body.rules).toEqual(rules.rules);
    expect((await call('DELETE', `/v1/me/contact-methods/${made.body.id}`)).status).toBe(204);
    expect((await call('GET', '/v1/me/notification-rules')).body.rules).toEqual([]);
  });

  it('answers the team routes as documented', async () => {
    const invite = await call('POST', '/v1/settings/users/invite', { body: { email: 'ann@example.com' } });
    expect(invite.status).toBe(201);
    const accepted = await call('POST', '/v1/settings/users/accept', {
      key: '',
      body: { token: invite.body.token, name: 'Ann' },
    });
    expect(accepted.status).toBe(201);
    const pending = await call('POST', '/v1/settings/users/invite', {
      body: { email: 'bob@example.com', role: 'admin' },
    });
    expect((await call('GET', '/v1/settings/users')).body.map((u: { status: string }) => u.status)).toEqual([
      'active',
      'active',
      'pending',
    ]);
    expect((await call('DELETE', `/v1/settings/users/${pending.body.id}`)).status).toBe(204);
    const memberKey = accepted.body.key;
    expect((await call('POST', '/v1/settings/users/invite', { key: memberKey, body: {} })).status).toBe(403);
    expect((await call('DELETE', `/v1/settings/users/${accepted.body.user.id}`)).status).toBe(204);
  });

  it('answers the catalog routes as documented', async () => {
    const bp = await call('POST', '/v1/blueprints', {
      body: {
        slug: 'svc',
        name: 'Service',
        fields: [{ name: 'tier', field_type: 'number', default_value: '1' }],
      },
    });
    expect(bp.status).toBe(201);
    expect((await call('POST', '/v1/blueprints', { body: { slug: 'svc', name: 'Again' } })).status).toBe(409);
    await call('POST', '/v1/blueprints/svc/fields', { body: { name: 'tags', field_type: 'array' } });
    expect((await call('GET', '/v1/blueprints')).status).toBe(200);
    expect((await call('GET', '/v1/blueprints/svc')).status).toBe(200);
    const a = await call('POST', '/v1/blueprints/svc/entities', { body: { slug: 'a', name: 'A' } });
    const b = await call('POST', '/v1/blueprints/svc/entities', {
      body: { slug: 'b', name: 'B', fields: { tags: ['x', 1] } },
    });
    expect((await call('PUT', '/v1/blueprints/svc/entities/a', { body: { name: 'A2' } })).status).toBe(200);
    expect((await call('GET', '/v1/blueprints/svc/entities')).body).toHaveLength(2);
    expect((await call('GET', '/v1/blueprints/svc/entities/b')).status).toBe(200);
    expect((await call('GET', '/v1/entities?q=a&blueprint_slug=svc&limit=5')).body.entities).toHaveLength(1);
    const rel = await call('POST', '/v1/relations', {
      body: { from_entity_id: a.body.id, to_entity_id: b.body.id, relation_type: 'depends_on' },
    });
    expect(rel.status).toBe(201);
    expect((await call('GET', `/v1/relations?entity_id=${a.body.id}&hops=2`)).body).toHaveLength(1);
    expect((await call('GET', '/v1/relations?blueprint_slug=svc&relation_type=depends_on')).status).toBe(200);
    expect((await call('GET', `/v1/relations?dependents_of=${b.body.id}`)).body).toHaveLength(1);
    expect((await call('GET', '/v1/relations')).status).toBe(200);
    expect((await call('DELETE', `/v1/relations/${rel.body.id}`)).status).toBe(204);
    expect((await call('POST', '/v1/relations', { body: { relation_type: 'x' } })).status).toBe(400);
    expect((await call('DELETE', '/v1/blueprints/svc/entities/b')).status).toBe(204);
    expect(
      (await call('PUT', '/v1/blueprints/svc', { body: { name: 'Services', is_default: true } })).status,
    ).toBe(200);
    expect((await call('DELETE', '/v1/blueprints/svc')).status).toBe(409);
    expect((await call('DELETE', '/v1/blueprints/svc/entities/a')).status).toBe(204);
    expect((await call('DELETE', '/v1/blueprints/svc')).status).toBe(204);
  });

  it('answers the check, push and status routes as documented', async () => {
    await call('POST', '/v1/blueprints', { body: { slug: 'job', name: 'Job' } });
    const entity = await call('POST', '/v1/blueprints/job/entities', {
      body: { slug: 'nightly', name: 'N' },
    });
    const http = await call('POST', '/v1/checks', {
      body: {
        entity_id: entity.body.id,
        check_type: 'http',
        target_url: 'http://127.0.0.1:9/',
        headers: { Authorization: 'secret' },
        enabled: false,
      },
    });
    expect(http.status).toBe(201);
    const push = await call('POST', '/v1/checks', {
      body: { entity_id: entity.body.id, check_type: 'push', failure_threshold: 1 },
    });
    const id = push.body.id;
    expect((await call('PUT', `/v1/checks/${id}`, { body: { interval_seconds: 120 } })).status).toBe(200);
    const pushed = await call('POST', `/v1/checks/${id}/results`, {
      body: { success: false, latency_ms: 12, checked_at: new Date(Date.now() - 5000).toISOString() },
    });
    expect(pushed.status).toBe(201);
    expect((await call('POST', `/v1/checks/${id}/heartbeat`, { rawBody: 'ping' })).status).toBe(201);
    expect((await call('POST', `/v1/checks/${http.body.id}/heartbeat`)).status).toBe(409);
    const pingUrl = await call('POST', `/v1/checks/${id}/push-tokens`);
    expect(pingUrl.status).toBe(201);
    expect((await call('GET', `/v1/checks/${id}/push-tokens`)).body).toHaveLength(1);
    const ping = `/ping/${pingUrl.body.token}`;
    expect((await call('GET', ping, { key: '' })).status).toBe(200);
    expect((await call('POST', ping, { key: '', rawBody: 'done' })).status).toBe(200);
    expect((await call('GET', `${ping}/fail`, { key: '' })).status).toBe(200);
    expect((await call('POST', `${ping}/fail`, { key: '' })).status).toBe(200);
    expect(
      (await call('POST', `${ping}/start?rid=0f0e0d0c-0b0a-4909-8807-060504030201`, { key: '' })).status,
    ).toBe(200);
    expect((await call('GET', `${ping}/log`, { key: '' })).status).toBe(200);
    expect((await call('GET', `${ping}/3`, { key: '' })).status).toBe(200);
    expect((await call('GET', `${ping}/300`, { key: '' })).status).toBe(400);
    expect((await call('GET', `${ping}?rid=x`, { key: '' })).status).toBe(400);
    expect((await call('GET', '/ping/wrong', { key: '' })).status).toBe(404);
    expect((await call('GET', '/ping/some-ping-key/some-slug', { key: '' })).status).toBe(404);
    expect((await call('GET', '/ping/some-ping-key/some-slug/fail', { key: '' })).status).toBe(404);
    expect((await call('POST', `/v1/checks/${http.body.id}/push-tokens`)).status).toBe(409);
    expect((await call('DELETE', `/v1/checks/${id}/push-tokens/${pingUrl.body.id}`)).status).toBe(204);
    expect(
      (await call('POST', `/v1/checks/${id}/results`, { body: { success: false } })).body.latency_ms,
    ).toBe(0);
    expect((await call('POST', `/v1/checks/${id}/heartbeat`)).status).toBe(201);
    expect((await call('GET', '/v1/checks')).body).toHaveLength(2);
    expect((await call('GET', `/v1/checks?entity_id=${entity.body.id}`)).status).toBe(200);
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
    expect((await call('GET', `/v1/checks/${id}/results?limit=1`)).body.next_cursor).not.toBeNull();
    expect((await call('GET', `/v1/checks/${id}/results?limit=0`)).status).toBe(400);
    expect((await call('GET', `/v1/checks/${id}/transitions`)).body.transitions.length).toBeGreaterThan(0);
    expect((await call('GET', `/v1/checks/${id}/sparkline`)).status).toBe(200);
    expect((await call('GET', `/v1/checks/${id}/sparkline?hours=1&buckets=7`)).status).toBe(200);
    expect((await call('POST', `/v1/checks/${id}/run`)).status).toBe(409);
    const probed = await call('POST', '/v1/checks', {
      body: {
        entity_id: entity.body.id,
        check_type: 'http',
        target_url: 'http://127.0.0.1:9/',
        interval_seconds: 3600,
      },
    });
    expect((await call('POST', `/v1/checks/${probed.body.id}/run`)).body.result.manual).toBe(true);
    expect((await call('GET', '/v1/status')).body.entities.length).toBeGreaterThan(0);
    expect((await call('GET', '/v1/status/transitions')).status).toBe(200);
    expect((await call('DELETE', `/v1/checks/${http.body.id}`)).status).toBe(204);
  });

  it('answers the notification policy, channel and log routes as documented', async () => {
    await call('POST', '/v1/blueprints', { body: { slug: 'notified', name: 'Notified' } });
    const entity = await call('POST', '/v1/blueprints/notified/entities', {
      body: { slug: 'api', name: 'API' },
    });
    const check = await call('POST', '/v1/checks', {
      body: { entity_id: entity.body.id, check_type: 'push' },
    });
    const policyPath = `/v1/checks/${check.body.id}/policy`;
    expect((await call('GET', policyPath)).body.id).toBeNull();
    expect((await call('POST', policyPath, { body: { cooldown_seconds: 60 } })).status).toBe(201);
    expect((await call('POST', policyPath, { body: { repeat_interval_seconds: 600 } })).status).toBe(200);
    expect((await call('POST', policyPath, { body: { repeat_interval_seconds: 5 } })).status).toBe(400);
    const channel = await call('POST', `${policyPath}/channels`, {
      body: { channel_type: 'nats', config: { subject: 'vigil.alerts' } },
    });
    expect(channel.status).toBe(201);
    const webhook = await call('POST', `${policyPath}/channels`, {
      body: { channel_type: 'webhook', config: { url: 'https://10.0.0.1/hook', secret: 'x' } },
    });
    expect(webhook.status).toBe(400);
    expect((await call('GET', policyPath)).body.channels).toHaveLength(1);
    expect((await call('GET', '/v1/notify/channels?limit=1')).body.channels).toHaveLength(1);
    expect((await call('GET', '/v1/notify/logs?status=failed')).status).toBe(200);
    expect((await call('GET', '/v1/notify/logs?status=lost')).status).toBe(400);
    const simulated = await call('POST', '/v1/notify/simulate', {
      body: { check_id: check.body.id, to_state: 'down' },
    });
    expect(simulated.body.decisions[0]).toMatchObject({ channel_id: channel.body.id, path: 'own' });
    expect((await call('POST', '/v1/notify/simulate', { body: { to_state: 'down' } })).status).toBe(400);
    const preview = await call('POST', '/v1/notify/template-preview', {
      body: { channel_type: 'slack', template: { title: '{{entity_name}} is {{to_state}}' }, kind: 'repeat' },
    });
    expect(preview.body).toMatchObject({ title: 'Checkout API is down' });
    const refused = await call('POST', '/v1/notify/template-preview', {
      body: { channel_type: 'slack', template: { body: '{{nope}}' } },
    });
    expect(refused.status).toBe(400);
    expect((await call('DELETE', `${policyPath}/channels/${channel.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `${policyPath}/channels/${channel.body.id}`)).status).toBe(404);
  });

  it('answers the SSO routes as documented', async () => {
    const sso = {
      issuer: 'https://1.1.1.1',
      client_id: 'vigil',
      client_secret: 'conformance-secret',
      email_domains: ['example.com'],
    };
    expect((await call('GET', '/v1/settings/sso')).body.configured).toBe(false);
    expect((await call('PUT', '/v1/settings/sso', { body: sso })).body.client_secret).toBe('********');
    const start = await call('GET', '/v1/sso/start?tenant=no-such-team', { key: '' });
    expect(start.headers.location).toBe('/sign-in?error=sso_not_configured');
    expect((await call('GET', '/v1/sso/callback?state=unknown', { key: '' })).status).toBe(302);
  });

  it('answers the location and agent routes as documented', async () => {
    const created = await call('POST', '/v1/locations', { body: { name: 'conformance', kind: 'agent' } });
    const path = `/v1/locations/${created.body.id}`;
    expect(created.status).toBe(201);
    expect(
      (await call('POST', '/v1/locations', { body: { name: 'conformance', kind: 'agent' } })).status,
    ).toBe(409);
    expect((await call('GET', '/v1/locations')).status).toBe(200);
    const second = await call('POST', `${path}/keys`);
    expect(second.status).toBe(201);
    expect((await call('GET', `${path}/keys`)).status).toBe(200);
    const beat = await call('POST', '/v1/agent/heartbeat', {
      key: created.body.key,
      body: { version: '1.0.0' },
    });
    expect(beat.status).toBe(200);
    expect((await call('POST', '/v1/agent/heartbeat', { body: { version: '1.0.0' } })).status).toBe(401);
    const leased = await call('POST', '/v1/agent/lease', {
      key: created.body.key,
      body: { max: 10, wait_seconds: 0 },
    });
    expect(leased.body).toEqual({ jobs: [] });
    const result = {
      success: true,
      status_code: 200,
      latency_ms: 3,
      error_message: '',
      checked_at: beat.body.server_time,
    };
    const posted = await call('POST', '/v1/agent/results', {
      key: created.body.key,
      body: [{ job_id: 'chk_01ARZ3NDEKTSV4RRFFQ69G5FAV:0', slot: 0, result }],
    });
    expect(posted.body.results).toEqual([
      { job_id: 'chk_01ARZ3NDEKTSV4RRFFQ69G5FAV:0', slot: 0, status: 'expired' },
    ]);
    expect((await call('POST', '/v1/agent/results', { key: created.body.key, body: [] })).status).toBe(400);
    expect((await call('DELETE', `${path}/keys/${second.body.key_id}`)).status).toBe(204);
    expect((await call('DELETE', `${path}/keys/${second.body.key_id}`)).status).toBe(404);
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('DELETE', path)).status).toBe(404);
  });

  it('answers a status page’s written incident routes as documented', async () => {
    await call('POST', '/v1/blueprints', { body: { slug: 'web', name: 'Web' } });
    const shown = await call('POST', '/v1/blueprints/web/entities', { body: { slug: 'shop', name: 'Shop' } });
    const page = await call('POST', '/v1/status-pages', {
      body: { slug: 'conformance', title: 'Conformance', entity_ids: [shown.body.id] },
    });
    expect(page.status).toBe(201);
    const base = '/v1/status-pages/conformance/incidents';
    const preview = await call('POST', `${base}/preview`, { body: { body: 'Looking *closely*.' } });
    expect(preview.body).toEqual({ html: '<p>Looking <em>closely</em>.</p>\n' });
    expect((await call('POST', `${base}/preview`, { body: { body: ' ' } })).status).toBe(400);
    expect(
      (await call('POST', '/v1/status-pages/absent/incidents/preview', { body: { body: 'x' } })).status,
    ).toBe(404);
    const draft = await call('POST', base, {
      body: {
        title: 'Slow shop',
        body: 'Looking.',
        impact: [{ entity_id: shown.body.id, level: 'partial_outage' }],
        notify: true,
        draft: true,
      },
    });
    expect(draft.status).toBe(201);
    const one = `${base}/${draft.body.id}`;
    const backfilled = await call('POST', base, {
      body: {
        title: 'Old outage',
        body: 'Over.',
        status: 'resolved',
        started_at: '2026-01-01T10:00:00Z',
        resolved_at: '2026-01-01T11:00:00Z',
      },
    });
    expect(backfilled.body.resolved_at).toBe('2026-01-01T11:00:00.000Z');
    expect(
      (await call('POST', base, { body: { title: 'x', body: 'y', impact: [{ entity_id: 'ent_x' }] } }))
        .status,
    ).toBe(400);
    expect((await call('GET', `${base}?limit=1`)).body.next_cursor).not.toBeNull();
    expect((await call('GET', `${base}?open=true`)).body.incidents.map((i: { id: string }) => i.id)).toEqual([
      draft.body.id,
    ]);
    expect((await call('GET', `${base}?limit=0`)).status).toBe(400);
    expect((await call('GET', one)).body.draft).toBe(true);
    expect((await call('GET', `${base}/pin_01ARZ3NDEKTSV4RRFFQ69G5FAV`)).status).toBe(404);
    expect(
      (await call('PATCH', one, { body: { title: 'Slow shop checkout', draft: false } })).body.draft,
    ).toBe(false);
    expect((await call('PATCH', one, { body: { draft: true } })).status).toBe(400);
    const moved = await call('POST', `${one}/updates`, {
      body: { status: 'monitoring', body: 'Fixed; watching.' },
    });
    expect(moved.status).toBe(201);
    expect(
      (await call('POST', `${one}/updates`, { body: { status: 'identified', body: 'Back?' } })).status,
    ).toBe(400);
    expect(
      (await call('POST', `${one}/updates`, { body: { status: 'resolved', body: 'Over.' } })).body.status,
    ).toBe('resolved');
    expect((await call('DELETE', one)).status).toBe(204);
    expect((await call('DELETE', one)).status).toBe(404);
    expect((await call('DELETE', '/v1/status-pages/conformance')).status).toBe(204);
  });

  it('answers the eight routes of a private page with their declared 401 (text/html) to a reader not let in', async () => {
    const page = await call('POST', '/v1/status-pages', {
      body: {
        slug: 'private-conformance',
        title: 'Private',
        entity_ids: [],
        visibility: 'password',
        password: 'a long enough secret',
      },
    });
    expect(page.status).toBe(201);
    const base = '/p/private-conformance';
    for (const path of [
      '',
      '/history',
      '/history/2026-06',
      '/status.json',
      '/badge.svg',
      '/feed.rss',
      '/feed.atom',
    ])
      expect((await call('GET', `${base}${path}`, { key: '' })).status, path).toBe(401);
    const subscribe = await call('POST', `${base}/subscribe`, {
      key: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'email=reader%40example.com',
    });
    expect(subscribe.status).toBe(401);
    expect((await call('DELETE', '/v1/status-pages/private-conformance')).status).toBe(204);
  });

  it('answers the on-call calendar feed routes as documented', async () => {
    const me = (await call('GET', '/v1/me')).body.user.id;
    const schedule = await call('POST', '/v1/schedules', {
      body: {
        name: 'Conformance rota',
        time_zone: 'UTC',
        layers: [
          { name: 'All', members: [me], rotation: { type: 'weekly', handoff: '09:00', start: '2026-01-05' } },
        ],
      },
    });
    const feed = await call('POST', `/v1/schedules/${schedule.body.id}/feeds`, { body: { label: 'Team' } });
    expect(feed.status).toBe(201);
    expect((await call('POST', '/v1/calendar-feeds')).status).toBe(201);
    expect((await call('GET', '/v1/calendar-feeds')).body.feeds).toHaveLength(2);
    const ics = await call('GET', `/ical/${feed.body.token}.ics`, { key: '' });
    expect(ics.status).toBe(200);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect((await call('DELETE', `/v1/calendar-feeds/${feed.body.id}`)).status).toBe(204);
    expect((await call('GET', `/ical/${feed.body.token}.ics`, { key: '' })).status).toBe(404);
    expect((await call('DELETE', '/v1/calendar-feeds/icf_short')).status).toBe(404);
  });

  it('answers the escalation policy routes as documented, and refuses to delete one in use', async () => {
    const me = (await call('GET', '/v1/me')).body.user.id;
    const steps = [{ delay_seconds: 300, targets: [{ type: 'user', id: me }] }];
    const made = await call('POST', '/v1/escalation-policies', {
      body: { name: 'Conformance ladder', steps },
    });
    expect(made.status).toBe(201);
    const one = `/v1/escalation-policies/${made.body.id}`;
    expect((await call('GET', '/v1/escalation-policies')).status).toBe(200);
    expect((await call('GET', one)).body.repeat).toBe(0);
    const put = await call('PUT', one, { body: { name: 'Renamed', steps, repeat: 2 } });
    expect(put.body).toMatchObject({ name: 'Renamed', repeat: 2 });
    const unknown = await call('POST', '/v1/escalation-policies', {
      body: { name: 'Bad', steps: [{ delay_seconds: 0, targets: [{ type: 'user', id: 'usr_nobody' }] }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('steps.0.targets.0.id');
    const route = await call('POST', '/v1/notify/routes', {
      body: { name: 'Conformance pager', escalation_policy_id: made.body.id },
    });
    expect(route.status).toBe(201);
    expect(route.body.escalation_policy_id).toBe(made.body.id);
    const team = await call('POST', '/v1/teams', {
      body: { name: 'Conformance team', escalation_policy_id: made.body.id },
    });
    expect(team.status).toBe(201);
    expect(
      (
        await call('POST', '/v1/teams', {
          body: { name: 'Other', escalation_policy_id: 'esp_01ARZ3NDEKTSV4RRFFQ69G5FAV' },
        })
      ).status,
    ).toBe(400);
    const refused = await call('DELETE', one);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(
      'the escalation policy is in use by route "Conformance pager", team "Conformance team": change them first',
    );
    expect((await call('DELETE', `/v1/notify/routes/${route.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/v1/teams/${team.body.id}`)).status).toBe(204);
    expect((await call('DELETE', one)).status).toBe(204);
    expect((await call('GET', one)).status).toBe(404);
  });

  it.each([
    ['GET', '/v1/checks/not-a-check-id', 'check not found'],
    ['GET', '/v1/checks/chk_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'check not found'],
    ['PUT', '/v1/checks/CHK_lowercase', 'check not found'],
    ['GET', '/v1/blueprints/Not_A_Slug', 'blueprint not found'],
    ['DELETE', '/v1/relations/rel_short', 'relation not found'],
    ['DELETE', '/v1/auth/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'API key not found'],
    ['DELETE', '/v1/locations/default', 'location not found'],
    ['DELETE', '/v1/locations/loc_01ARZ3NDEKTSV4RRFFQ69G5FAV/keys/lky_x', 'location key not found'],
    ['DELETE', '/v1/settings/users/ent_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'team member or invitation not found'],
  ])('answers 404 NOT_FOUND to %s %s (malformed or unknown id alike: %s)', async (method, path, message) => {
    const res = await call(method, path, { body: method === 'PUT' ? {} : undefined });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: message, code: 'NOT_FOUND' });
  });
});
