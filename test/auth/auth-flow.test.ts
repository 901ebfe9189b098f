import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

describe.each(runtimes)('authentication and keys ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers GET /healthz without a key', async () => {
    const res = await api.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('returns the account with its four plan limits on GET /v1/me', async () => {
    const res = await api.request('GET', '/v1/me', { key: api.adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: api.tenantId,
      email: 'admin@localhost',
      name: 'Local',
      blueprint_limit: 50,
      entity_limit_per_bp: 1000,
      check_limit_per_entity: 20,
      retention_days: 30,
    });
    expect(res.body.id).toMatch(/^tnt_/);
  });

  it.each([
    ['no Authorization header', undefined],
    ['a malformed key', { authorization: 'Bearer nope' }],
    ['a well-formed unknown key', { authorization: `Bearer ${generateApiKey()}` }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('rejects %s with 401 UNAUTHORIZED and WWW-Authenticate: Bearer', async (_label, headers) => {
    const res = await api.request('GET', '/v1/me', { headers });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers keys sent in turn each as its own: a changed character refused, a deleted key refused at its next request', async () => {
    const created = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'turns' },
    });
    expect(created.status).toBe(201);
    const raw: string = created.body.key;
    // The same key with its last character changed: well-formed in shape, its checksum wrong.
    const last = raw.at(-1) === 'A' ? 'B' : 'A';
    const changed = `${raw.slice(0, -1)}${last}`;
    const me = async (key: string) => (await api.request('GET', '/v1/me', { key })).status;
    for (let round = 0; round < 2; round += 1) {
      expect(await me(raw)).toBe(200);
      expect(await me(changed)).toBe(401);
      expect(await me(raw)).toBe(200);
      expect(await me(api.adminKey)).toBe(200);
    }
    expect(await me(raw)).toBe(200);
    const del = await api.request('DELETE', `/v1/auth/keys/${created.body.id}`, { key: api.adminKey });
    expect(del.status).toBe(204);
    expect(await me(raw)).toBe(401);
  });

  it('creates a key whose raw value appears only in the create response', async () => {
    const created = await api.request('POST', '/v1/auth/keys', { key: api.adminKey, body: { label: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ label: 'ci', is_read_only: false, last_used_at: null });
    const raw: string = created.body.key;
    expect(raw).toMatch(/^vgl_/);
    expect(created.body.prefix).toBe(raw.slice(0, 12));

    const me = await api.request('GET', '/v1/me', { key: raw });
    expect(me.status).toBe(200);

    const list = await api.request('GET', '/v1/auth/keys', { key: api.adminKey });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(raw);
    const listed = list.body.find((k: { id: string }) => k.id === created.body.id);
    expect(Object.keys(listed).sort()).toEqual(
      ['created_at', 'id', 'is_read_only', 'label', 'last_used_at', 'prefix', 'user_id'].sort(),
    );
    expect(listed.last_used_at).not.toBeNull();
    expect(api.logs.join('\n')).not.toContain(raw);
  });

  it('rejects unknown fields and bad types with VALIDATION_ERROR details', async () => {
    const res = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'x', is_read_only: 'yes', lable: 'typo' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const paths = res.body.details.map((d: { path: string }) => d.path);
    expect(paths).toContain('is_read_only');
    expect(paths).toContain('lable');
  });

  it('rejects a body that is not JSON', async () => {
    const res = await api.request('POST', '/v1/auth/keys', { key: api.adminKey, rawBody: '{nope' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('rejects a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      rawBody: JSON.stringify({ label: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('gives a read-only key 403 READ_ONLY on key creation and key listing, and lets it read', async () => {
    const created = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'dashboard', is_read_only: true },
    });
    const readOnly: string = created.body.key;
    const post = await api.request('POST', '/v1/auth/keys', { key: readOnly, body: { label: 'escalate' } });
    expect(post.status).toBe(403);
    expect(post.body.code).toBe('READ_ONLY');
    const list = await api.request('GET', '/v1/auth/keys', { key: readOnly });
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('READ_ONLY');
    const del = await api.request('DELETE', `/v1/auth/keys/${created.body.id}`, { key: readOnly });
    expect(del.status).toBe(403);
    expect(del.body.code).toBe('READ_ONLY');
    const me = await api.request('GET', '/v1/me', { key: readOnly });
    expect(me.status).toBe(200);
    expect(me.body.key.is_read_only).toBe(true);
  });

  it("answers 404 when deleting another tenant's key, and leaves the key working", async () => {
    const other = await api.createTenant('Globex');
    const victim = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'victim' },
    });
    const res = await api.request('DELETE', `/v1/auth/keys/${victim.body.id}`, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect((await api.request('GET', '/v1/me', { key: victim.body.key })).status).toBe(200);
    const otherList = await api.request('GET', '/v1/auth/keys', { key: other.key });
    expect(otherList.body.map((k: { id: string }) => k.id)).not.toContain(victim.body.id);
  });

  it('gives every key of a disabled tenant 403 ACCOUNT_DISABLED until it is enabled again', async () => {
    const other = await api.createTenant('Initech');
    await api.operator(['tenant', 'disable', other.tenantId]);
    const res = await api.request('GET', '/v1/me', { key: other.key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ACCOUNT_DISABLED');
    expect((await api.request('GET', '/v1/me', { key: api.adminKey })).status).toBe(200);
    await api.operator(['tenant', 'enable', other.tenantId]);
    expect((await api.request('GET', '/v1/me', { key: other.key })).status).toBe(200);
  });

  it('shows plan limits set by the operator on GET /v1/me', async () => {
    const other = await api.createTenant('Umbrella');
    await api.operator([
      'tenant',
      'limits',
      other.tenantId,
      '--blueprint-limit',
      '3',
      '--retention-days',
      '7',
    ]);
    const me = await api.request('GET', '/v1/me', { key: other.key });
    expect(me.body).toMatchObject({ blueprint_limit: 3, retention_days: 7, entity_limit_per_bp: 1000 });
  });

  it('deletes a key with 204, after which it gets 401', async () => {
    const created = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'temp' },
    });
    const del = await api.request('DELETE', `/v1/auth/keys/${created.body.id}`, { key: api.adminKey });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await api.request('GET', '/v1/me', { key: created.body.key })).status).toBe(401);
    expect(
      (await api.request('DELETE', `/v1/auth/keys/${created.body.id}`, { key: api.adminKey })).status,
    ).toBe(404);
  });

  it('answers 404 NOT_FOUND for unknown routes and 405 for a wrong method', async () => {
    expect((await api.request('GET', '/v1/nothing-here', { key: api.adminKey })).status).toBe(404);
    const wrong = await api.request('PATCH', '/v1/me', { key: api.adminKey });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toContain('GET');
  });

  it('carries a request id on every response', async () => {
    const res = await api.request('GET', '/healthz');
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});
