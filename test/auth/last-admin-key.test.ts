import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantPk } from '../../lib/store/partitions.ts';
import type { ApiHarness, ApiResponse } from '../support/api-harness.ts';
import { runtimes } from '../support/api-harness.ts';
import { join, userIdOf } from './team-helpers.ts';

/**
 * A tenant keeps at least one admin key (a read-write key of an admin): revoking the last one, or
 * removing the admin who holds the last ones, is 409 CONFLICT, under concurrency too.
 */
describe.each(runtimes)('the last admin key ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  const createKey = async (key: string, body: { label: string; is_read_only?: boolean }) => {
    const res = await api.request('POST', '/v1/auth/keys', { key, body });
    expect(res.status, res.text).toBe(201);
    return { id: res.body.id as string, key: res.body.key as string };
  };
  const keyIdOf = async (key: string) => (await api.request('GET', '/v1/me', { key })).body.key.id as string;
  const revoke = (key: string, id: string) => api.request('DELETE', `/v1/auth/keys/${id}`, { key });
  const works = async (key: string) => (await api.request('GET', '/v1/auth/keys', { key })).status === 200;
  const codes = (answers: ApiResponse[]) => answers.map((r) => r.status).sort();

  const expectLastKeyRefusal = (res: ApiResponse) => {
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.error).toMatch(/last read-write key.*create another read-write key before revoking/);
  };

  it('refuses revoking the only admin key with 409 in words, and the key keeps working', async () => {
    const tenant = await api.createTenant('Only');

    const res = await revoke(tenant.key, await keyIdOf(tenant.key));

    expectLastKeyRefusal(res);
    expect(await works(tenant.key)).toBe(true);
  });

  it('revokes an admin key while another stays, then refuses the last one', async () => {
    const tenant = await api.createTenant('Two');
    const second = await createKey(tenant.key, { label: 'second' });

    const first = await revoke(second.key, await keyIdOf(tenant.key));
    const last = await revoke(second.key, second.id);

    expect(first.status, first.text).toBe(204);
    expectLastKeyRefusal(last);
    expect(await works(second.key)).toBe(true);
  });

  it('lets exactly one of two concurrent revokes of the last two admin keys succeed', async () => {
    for (let round = 0; round < 4; round += 1) {
      const tenant = await api.createTenant(`Race${round}`);
      const other = await createKey(tenant.key, { label: 'other' });
      const firstId = await keyIdOf(tenant.key);

      // Each key revokes itself at the same moment ("you will be signed out" in two tabs).
      const answers = await Promise.all([revoke(tenant.key, firstId), revoke(other.key, other.id)]);

      expect(codes(answers), answers.map((r) => r.text).join('\n')).toEqual([204, 409]);
      expect((await works(tenant.key)) || (await works(other.key))).toBe(true);
    }
  });

  it('keeps one of five admin keys when all five are revoked at once', async () => {
    const tenant = await api.createTenant('Five');
    const keys = [
      { id: await keyIdOf(tenant.key), key: tenant.key },
      ...(await Promise.all([1, 2, 3, 4].map((i) => createKey(tenant.key, { label: `k${i}` })))),
    ];

    // Every key revokes itself.
    const answers = await Promise.all(keys.map((k) => revoke(k.key, k.id)));

    expect(codes(answers)).toEqual([204, 204, 204, 204, 409]);
    const list = await api.request('GET', '/v1/auth/keys', {
      key: keys[answers.findIndex((r) => r.status === 409)]?.key,
    });
    expect(list.body.map((k: { id: string }) => k.id)).toHaveLength(1);
  });

  it('counts neither read-only keys nor members’ keys as admin keys', async () => {
    const tenant = await api.createTenant('Kinds');
    const readOnly = await createKey(tenant.key, { label: 'dashboard', is_read_only: true });
    const member = await join(api, tenant.key, { role: 'member' });
    const memberKeyId = await keyIdOf(member.key);

    const own = await revoke(tenant.key, await keyIdOf(tenant.key));
    const dashboard = await revoke(tenant.key, readOnly.id);
    const membersOwn = await revoke(member.key, memberKeyId);

    expectLastKeyRefusal(own);
    expect(dashboard.status, dashboard.text).toBe(204);
    expect(membersOwn.status, membersOwn.text).toBe(204);
  });

  it('counts another admin’s read-write key, so the first admin’s key may go', async () => {
    const tenant = await api.createTenant('Admins');
    const second = await join(api, tenant.key, { role: 'admin' });

    const first = await revoke(tenant.key, await keyIdOf(tenant.key));
    const last = await revoke(second.key, await keyIdOf(second.key));

    expect(first.status, first.text).toBe(204);
    expectLastKeyRefusal(last);
  });

  it('refuses removing the admin who holds the last admin keys', async () => {
    const tenant = await api.createTenant('Remove');
    const second = await join(api, tenant.key, { role: 'admin' });
    const secondReadOnly = await createKey(second.key, { label: 'ro', is_read_only: true });
    expect((await revoke(tenant.key, await keyIdOf(second.key))).status).toBe(204);
    const firstId = await userIdOf(api, tenant.key);

    // The other admin holds only a read-only key: removing the first would lock the tenant out.
    const refused = await api.request('DELETE', `/v1/settings/users/${firstId}`, { key: tenant.key });
    const another = await createKey(tenant.key, { label: 'another' });
    // A key the first admin creates is theirs, so the tenant is still locked out without them.
    const stillRefused = await api.request('DELETE', `/v1/settings/users/${firstId}`, { key: tenant.key });

    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatch(/last read-write keys/);
    expect(stillRefused.status).toBe(409);
    expect(await works(tenant.key)).toBe(true);
    expect(await works(another.key)).toBe(true);
    expect((await api.request('GET', '/v1/me', { key: secondReadOnly.key })).status).toBe(200);
  });

  it('removes an admin, keys and all, while another admin holds a read-write key', async () => {
    const tenant = await api.createTenant('RemoveOk');
    const second = await join(api, tenant.key, { role: 'admin' });
    const firstId = await userIdOf(api, tenant.key);

    const removed = await api.request('DELETE', `/v1/settings/users/${firstId}`, { key: second.key });
    const last = await revoke(second.key, await keyIdOf(second.key));

    expect(removed.status, removed.text).toBe(204);
    expect(await works(tenant.key)).toBe(false);
    expectLastKeyRefusal(last);
  });

  it('seeds the admin key count of a tenant from before it was kept, then refuses one of two concurrent revokes', async () => {
    const older = await api.createTenant('OlderCounter');
    const other = await createKey(older.key, { label: 'other' });
    // A counter written before admin keys were counted: the count of keys, no admin_key_count.
    await api.table.update({
      type: 'update',
      key: { pk: tenantPk(older.tenantId), sk: 'KEYCOUNT' },
      remove: ['admin_key_count'],
    });
    const oldest = await api.createTenant('NoCounter');
    const oldestOther = await createKey(oldest.key, { label: 'other' });
    // A tenant from before any counter.
    await api.table.transact([{ type: 'delete', key: { pk: tenantPk(oldest.tenantId), sk: 'KEYCOUNT' } }]);
    const [olderId, oldestId] = [await keyIdOf(older.key), await keyIdOf(oldest.key)];

    const answers = await Promise.all([
      revoke(older.key, olderId),
      revoke(other.key, other.id),
      revoke(oldest.key, oldestId),
      revoke(oldestOther.key, oldestOther.id),
    ]);

    expect(codes(answers.slice(0, 2))).toEqual([204, 409]);
    expect(codes(answers.slice(2))).toEqual([204, 409]);
  });
});
