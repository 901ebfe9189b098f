import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../lib/auth/api-key.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { accept, invite, join, listedIds, uniqueEmail } from './team-helpers.ts';

const INVALID_TOKEN = 'the invitation token is invalid, expired or already used';

describe.each(runtimes)('team invitations ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('invites a member who accepts without a key and gets a working member key', async () => {
    const email = uniqueEmail('ada');
    const invited = await invite(api, api.adminKey, { email: `  ${email.toUpperCase()} ` });
    expect(invited.status).toBe(201);
    expect(Object.keys(invited.body).sort()).toEqual(
      ['created_at', 'email', 'expires_at', 'id', 'role', 'status', 'token'].sort(),
    );
    expect(invited.body).toMatchObject({ email, role: 'member', status: 'pending' });
    expect(invited.body.id).toMatch(/^inv_/);
    const days = (Date.parse(invited.body.expires_at) - Date.parse(invited.body.created_at)) / 86_400_000;
    expect(days).toBe(7);

    const accepted = await accept(api, invited.body.token, 'Ada Lovelace');
    expect(accepted.status).toBe(201);
    expect(accepted.body.user).toMatchObject({
      email,
      name: 'Ada Lovelace',
      role: 'member',
      status: 'active',
    });
    expect(accepted.body.user.id).toMatch(/^usr_/);
    expect(accepted.body.key).toMatch(/^vgl_/);
    expect(accepted.body.key_id).toMatch(/^key_/);

    const me = await api.request('GET', '/v1/me', { key: accepted.body.key });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(api.tenantId);
    expect(me.body.user).toMatchObject({ id: accepted.body.user.id, email, role: 'member' });
    const keys = await api.request('GET', '/v1/auth/keys', { key: accepted.body.key });
    expect(keys.text).not.toContain(accepted.body.key);
  });

  it('gives a member 403 FORBIDDEN on invite and on delete', async () => {
    const member = await join(api, api.adminKey);
    const inv = await invite(api, member.key, { email: uniqueEmail() });
    expect(inv.status).toBe(403);
    expect(inv.body.code).toBe('FORBIDDEN');
    const del = await api.request('DELETE', `/v1/settings/users/${member.userId}`, { key: member.key });
    expect(del.status).toBe(403);
    expect(del.body.code).toBe('FORBIDDEN');
    expect((await api.request('GET', '/v1/me', { key: member.key })).status).toBe(200);
  });

  it('lists active members and pending invitations with their statuses and never a token', async () => {
    const member = await join(api, api.adminKey);
    const pending = await invite(api, api.adminKey, { email: uniqueEmail('pending'), role: 'admin' });
    for (const key of [api.adminKey, member.key]) {
      const list = await api.request('GET', '/v1/settings/users', { key });
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(pending.body.token);
      expect(list.text).not.toMatch(/token|hash/);
      const active = list.body.find((entry: { id: string }) => entry.id === member.userId);
      expect(Object.keys(active).sort()).toEqual(['created_at', 'email', 'id', 'name', 'role', 'status']);
      expect(active).toMatchObject({ email: member.email, role: 'member', status: 'active' });
      const invitation = list.body.find((entry: { id: string }) => entry.id === pending.body.id);
      expect(Object.keys(invitation).sort()).toEqual([
        'created_at',
        'email',
        'expires_at',
        'id',
        'role',
        'status',
      ]);
      expect(invitation).toMatchObject({ email: pending.body.email, role: 'admin', status: 'pending' });
      expect(list.body[0]).toMatchObject({ email: 'admin@localhost', role: 'admin', status: 'active' });
    }
  });

  it('gives a read-only key 403 READ_ONLY on listing and inviting', async () => {
    const created = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'dashboard', is_read_only: true },
    });
    const list = await api.request('GET', '/v1/settings/users', { key: created.body.key });
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('READ_ONLY');
    const inv = await invite(api, created.body.key, { email: uniqueEmail() });
    expect(inv.status).toBe(403);
    expect(inv.body.code).toBe('READ_ONLY');
  });

  it('answers 409 CONFLICT to a second invitation for a pending e-mail, in any case', async () => {
    const email = uniqueEmail('twice');
    expect((await invite(api, api.adminKey, { email })).status).toBe(201);
    const again = await invite(api, api.adminKey, { email: email.toUpperCase(), role: 'admin' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
  });

  it('answers 409 CONFLICT to inviting an existing member', async () => {
    const member = await join(api, api.adminKey);
    const again = await invite(api, api.adminKey, { email: member.email });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', error: expect.stringContaining('member') });
  });

  it('rejects a used token and an unknown token alike with 400 VALIDATION_ERROR on token', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail() });
    expect((await accept(api, invited.body.token)).status).toBe(201);
    const reused = await accept(api, invited.body.token, 'Impostor');
    const unknown = await accept(api, generateToken().token);
    const garbage = await accept(api, 'not-a-token');
    for (const res of [reused, unknown, garbage]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: `token: ${INVALID_TOKEN}`,
        code: 'VALIDATION_ERROR',
        details: [{ path: 'token', message: INVALID_TOKEN }],
      });
    }
  });

  it('accepts an admin invitation as an admin who can invite in turn', async () => {
    const admin = await join(api, api.adminKey, { role: 'admin' });
    const me = await api.request('GET', '/v1/me', { key: admin.key });
    expect(me.body.user.role).toBe('admin');
    expect((await invite(api, admin.key, { email: uniqueEmail() })).status).toBe(201);
  });

  it.each([
    ['a bad e-mail', { email: 'not-an-email' }, 'email'],
    ['an unknown role', { email: 'x@example.com', role: 'owner' }, 'role'],
    ['an unknown field', { email: 'x@example.com', rol: 'admin' }, 'rol'],
    ['a missing e-mail', { role: 'member' }, 'email'],
  ])('rejects an invitation with %s with 400 VALIDATION_ERROR', async (_label, body, path) => {
    const res = await invite(api, api.adminKey, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('rejects an accept with a blank name and keeps the token usable; without a name, the e-mail names the member', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail() });
    const res = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token, name: '   ' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('name');
    // DECISIONS.md "People (wave 4)": the accept body is {token, password}; the name is optional.
    const unnamed = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token },
    });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.user.name).toBe(invited.body.email.split('@')[0]);
  });

  it('lets exactly one of several concurrent accepts of one token succeed', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail('race') });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => accept(api, invited.body.token, `Racer ${i}`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400]);
    const users = await api.request('GET', '/v1/settings/users', { key: api.adminKey });
    const sameEmail = users.body.filter((u: { email: string }) => u.email === invited.body.email);
    expect(sameEmail).toHaveLength(1);
    expect(sameEmail[0].status).toBe('active');
  });

  it('gives 403 ACCOUNT_DISABLED to an accept for a disabled account', async () => {
    const other = await api.createTenant('Hooli');
    const invited = await invite(api, other.key, { email: uniqueEmail() });
    await api.operator(['tenant', 'disable', other.tenantId]);
    const res = await accept(api, invited.body.token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ACCOUNT_DISABLED');
    await api.operator(['tenant', 'enable', other.tenantId]);
    expect((await accept(api, invited.body.token)).status).toBe(201);
    expect(await listedIds(api, other.key)).toHaveLength(2);
  });
});
