import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../lib/auth/api-key.ts';
import { queryAll } from '../../lib/store/items.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { accept, invite, join, listedIds, uniqueEmail, userIdOf } from './team-helpers.ts';

describe.each(runtimes)('team removal and invitation storage ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  const remove = (key: string, id: string) => api.request('DELETE', `/v1/settings/users/${id}`, { key });

  it('removes a member with 204 and revokes every key they hold', async () => {
    const member = await join(api, api.adminKey);
    const second = await api.request('POST', '/v1/auth/keys', { key: member.key, body: { label: 'second' } });
    expect(second.status).toBe(201);

    const res = await remove(api.adminKey, member.userId);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    for (const key of [member.key, second.body.key]) {
      expect((await api.request('GET', '/v1/me', { key })).status).toBe(401);
    }
    expect(await listedIds(api, api.adminKey)).not.toContain(member.userId);
    const keys = await api.request('GET', '/v1/auth/keys', { key: api.adminKey });
    expect(keys.body.filter((k: { user_id: string }) => k.user_id === member.userId)).toEqual([]);
    expect((await remove(api.adminKey, member.userId)).status).toBe(404);
  });

  it('revokes more keys than fit into one transaction', async () => {
    const member = await join(api, api.adminKey);
    for (let i = 0; i < 60; i += 1) {
      const created = await api.request('POST', '/v1/auth/keys', {
        key: member.key,
        body: { label: `k${i}` },
      });
      expect(created.status).toBe(201);
    }
    expect((await remove(api.adminKey, member.userId)).status).toBe(204);
    const keys = await api.request('GET', '/v1/auth/keys', { key: api.adminKey });
    expect(keys.body.filter((k: { user_id: string }) => k.user_id === member.userId)).toEqual([]);
  });

  it('lets a former member be invited again after removal', async () => {
    const member = await join(api, api.adminKey);
    expect((await remove(api.adminKey, member.userId)).status).toBe(204);
    const again = await join(api, api.adminKey, { email: member.email });
    expect(again.userId).not.toBe(member.userId);
  });

  it('refuses to remove the last admin with 409 CONFLICT, and lets one of two admins go', async () => {
    const tenant = await api.createTenant('Pied Piper');
    const founderId = await userIdOf(api, tenant.key);
    const alone = await remove(tenant.key, founderId);
    expect(alone.status).toBe(409);
    expect(alone.body.code).toBe('CONFLICT');

    const second = await join(api, tenant.key, { role: 'admin' });
    expect((await remove(second.key, founderId)).status).toBe(204);
    expect((await api.request('GET', '/v1/me', { key: tenant.key })).status).toBe(401);
    const self = await remove(second.key, second.userId);
    expect(self.status).toBe(409);
    expect((await api.request('GET', '/v1/me', { key: second.key })).status).toBe(200);
  });

  it('lets an admin remove themself while another admin remains', async () => {
    const tenant = await api.createTenant('Aviato');
    const second = await join(api, tenant.key, { role: 'admin' });
    expect((await remove(second.key, second.userId)).status).toBe(204);
    expect((await api.request('GET', '/v1/me', { key: second.key })).status).toBe(401);
    expect((await remove(tenant.key, await userIdOf(api, tenant.key))).status).toBe(409);
  });

  it('cancels a pending invitation, after which its token is rejected and the e-mail can be invited again', async () => {
    const email = uniqueEmail('cancel');
    const invited = await invite(api, api.adminKey, { email });
    const res = await remove(api.adminKey, invited.body.id);
    expect(res.status).toBe(204);
    expect(await listedIds(api, api.adminKey)).not.toContain(invited.body.id);
    const late = await accept(api, invited.body.token);
    expect(late.status).toBe(400);
    expect(late.body.details[0].path).toBe('token');
    expect((await remove(api.adminKey, invited.body.id)).status).toBe(404);
    expect((await invite(api, api.adminKey, { email })).status).toBe(201);
  });

  it("answers 404 to ids of another tenant's members and invitations, and to unknown ids", async () => {
    const other = await api.createTenant('Raviga');
    const member = await join(api, api.adminKey);
    const pending = await invite(api, api.adminKey, { email: uniqueEmail() });
    const founderId = await userIdOf(api, api.adminKey);
    for (const id of [member.userId, pending.body.id, founderId]) {
      const res = await remove(other.key, id);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    for (const id of [
      'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'inv_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'nonsense',
      'key_x',
    ]) {
      expect((await remove(api.adminKey, id)).status).toBe(404);
    }
    expect((await api.request('GET', '/v1/me', { key: member.key })).status).toBe(200);
    expect(await listedIds(api, api.adminKey)).toContain(pending.body.id);
    expect(await listedIds(api, other.key)).not.toContain(member.userId);
  });

  it('stores only the hash of an invitation token, never the token', async () => {
    const invited = await invite(api, api.adminKey, { email: uniqueEmail('stored') });
    const token: string = invited.body.token;
    const tenantItems = await queryAll((cursor) => api.table.query({ pk: tenantPk(api.tenantId), cursor }));
    const lookup = await api.table.get({ pk: `INVTOKEN#${hashApiKey(token)}`, sk: '#INVTOKEN' });
    expect(lookup).toMatchObject({ tenant_id: api.tenantId, invitation_id: invited.body.id });
    const stored = [...tenantItems, lookup];
    const invitation = stored.find((item) => item?.sk === `INV#${invited.body.id}`);
    expect(invitation).toMatchObject({ token_hash: hashApiKey(token), ttl: expect.any(Number) });
    for (const item of stored) expect(JSON.stringify(item)).not.toContain(token.slice(4));
  });
});
