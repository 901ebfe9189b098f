import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * `npm run vigil -- key create` against each runtime's store (the local SQLite file, the cloud
 * table): the way back into a tenant whose admin keys are gone.
 */
describe.each(runtimes)('the operator issues a key for a tenant ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  const keyCreate = async (tenantId: string, ...flags: string[]) =>
    JSON.parse(await api.operator(['key', 'create', '--tenant', tenantId, ...flags]));

  it('issues a read-write key with admin rights that lets the admin back in', async () => {
    const tenant = await api.createTenant('Locked');
    const me = await api.request('GET', '/v1/me', { key: tenant.key });

    const issued = await keyCreate(tenant.tenantId, '--name', 'recovery');
    const asAdmin = await api.request('GET', '/v1/me', { key: issued.api_key });
    const listed = await api.request('GET', '/v1/auth/keys', { key: issued.api_key });
    // With two admin keys, the first one may now be revoked.
    const revoked = await api.request('DELETE', `/v1/auth/keys/${me.body.key.id}`, { key: issued.api_key });

    expect(asAdmin.status, asAdmin.text).toBe(200);
    expect(asAdmin.body.user).toMatchObject({ id: me.body.user.id, role: 'admin' });
    expect(asAdmin.body.key).toEqual({ id: issued.key_id, is_read_only: false });
    expect(listed.body.find((k: { id: string }) => k.id === issued.key_id)).toMatchObject({
      label: 'recovery',
    });
    expect(revoked.status, revoked.text).toBe(204);
  });

  it('issues a read-only key on --read-only', async () => {
    const tenant = await api.createTenant('Wall');

    const issued = await keyCreate(tenant.tenantId, '--read-only');
    const write = await api.request('POST', '/v1/auth/keys', { key: issued.api_key, body: { label: 'x' } });

    expect(issued.is_read_only).toBe(true);
    expect((await api.request('GET', '/v1/me', { key: issued.api_key })).body.key.is_read_only).toBe(true);
    expect([write.status, write.body.code]).toEqual([403, 'READ_ONLY']);
  });

  it('counts the key against the tenant’s key limit', async () => {
    const tenant = await api.createTenant('Full');
    const made = await Promise.all(
      Array.from({ length: 99 }, (_, i) =>
        api.request('POST', '/v1/auth/keys', { key: tenant.key, body: { label: `k${i}` } }),
      ),
    );
    expect(made.every((r) => r.status === 201)).toBe(true);

    await expect(keyCreate(tenant.tenantId)).rejects.toThrow(/at most 100 API keys/);
  });

  it('refuses an unknown tenant', async () => {
    await expect(keyCreate('tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV')).rejects.toThrow(/there is no tenant/);
  });
});
