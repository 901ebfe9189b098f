import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantPk } from '../../lib/store/partitions.ts';
import { type ApiHarness, type ApiResponse, runtimes } from '../support/api-harness.ts';

/** `n` key creates at once; answers every response. */
const createKeys = (api: ApiHarness, key: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      api.request('POST', '/v1/auth/keys', { key, body: { label: `k${i}` } }),
    ),
  );

const statuses = (answers: ApiResponse[]) => ({
  created: answers.filter((r) => r.status === 201).length,
  refused: answers.filter((r) => r.status === 403 && r.body.code === 'LIMIT_EXCEEDED').length,
});

describe.each(runtimes)('at most 100 API keys per tenant ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  const keyCount = async (key: string) => {
    const list = await api.request('GET', '/v1/auth/keys', { key });
    expect(list.status, list.text).toBe(200);
    return list.body.length as number;
  };

  it('holds 100 keys, the operator’s first key included, under concurrent creates with 403 LIMIT_EXCEEDED', async () => {
    const tenant = await api.createTenant('Keys');

    const answers = await createKeys(api, tenant.key, 110);

    expect(statuses(answers)).toEqual({ created: 99, refused: 11 });
    expect(answers.find((r) => r.status === 403)?.body.error).toMatch(/at most 100 API keys/);
    expect(await keyCount(tenant.key)).toBe(100);
    const deletable = answers.find((r) => r.status === 201)?.body.id;
    expect((await api.request('DELETE', `/v1/auth/keys/${deletable}`, { key: tenant.key })).status).toBe(204);
    expect(statuses(await createKeys(api, tenant.key, 2))).toEqual({ created: 1, refused: 1 });
    expect(await keyCount(tenant.key)).toBe(100);
  });

  it('counts an accepted invitation’s key, refuses it at the limit and frees a removed member’s keys', async () => {
    const tenant = await api.createTenant('Team');
    const invite = async (email: string) => {
      const res = await api.request('POST', '/v1/settings/users/invite', {
        key: tenant.key,
        body: { email },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.token as string;
    };
    const accept = (token: string, name: string) =>
      api.request('POST', '/v1/settings/users/accept', { body: { token, name } });
    const joined = await accept(await invite('first@example.com'), 'First');
    expect(joined.status, joined.text).toBe(201);
    expect(statuses(await createKeys(api, joined.body.key, 3))).toEqual({ created: 3, refused: 0 });
    expect(statuses(await createKeys(api, tenant.key, 100))).toEqual({ created: 95, refused: 5 });
    const second = await invite('second@example.com');

    const refused = await accept(second, 'Second');
    const removed = await api.request('DELETE', `/v1/settings/users/${joined.body.user.id}`, {
      key: tenant.key,
    });
    const accepted = await accept(second, 'Second');

    expect([refused.status, refused.body.code]).toEqual([403, 'LIMIT_EXCEEDED']);
    expect(removed.status).toBe(204);
    expect(accepted.status, accepted.text).toBe(201);
    expect(statuses(await createKeys(api, tenant.key, 4))).toEqual({ created: 3, refused: 1 });
    expect(await keyCount(tenant.key)).toBe(100);
  });

  it('counts the keys a tenant already held when its counter did not exist yet', async () => {
    const tenant = await api.createTenant('Older');
    expect(statuses(await createKeys(api, tenant.key, 4))).toEqual({ created: 4, refused: 0 });
    // A tenant from before the limit: five keys, no counter item.
    await api.table.transact([{ type: 'delete', key: { pk: tenantPk(tenant.tenantId), sk: 'KEYCOUNT' } }]);

    const answers = await createKeys(api, tenant.key, 100);

    expect(statuses(answers)).toEqual({ created: 95, refused: 5 });
    expect(await keyCount(tenant.key)).toBe(100);
  });
});
