import { afterAll, beforeAll } from 'vitest';
import { newCheck, newEntity, quietTcpCheck } from '../../checks/check-fixtures.ts';
import type { ApiHarness, runtimes } from '../../support/api-harness.ts';

/**
 * What the notification API tests (policy, per-check and tenant channels) start from, for the
 * describe block that calls it: a runtime that may reach 127.0.0.1, an entity to hang checks on and a
 * read-only key (`viewer`); `quietCheck` makes a quiet TCP check of that entity.
 */
export function useNotifyApi(start: (typeof runtimes)[number]['start']) {
  const t: { api: ApiHarness; entityId: string; viewer: string } = {
    api: undefined as unknown as ApiHarness,
    entityId: '',
    viewer: '',
  };
  const call = (method: string, path: string, body?: unknown, key = t.api.adminKey) =>
    t.api.request(method, path, { key, body });
  const quietCheck = () => newCheck(t.api, quietTcpCheck(t.entityId));
  beforeAll(async () => {
    t.api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
    t.entityId = await newEntity(t.api);
    t.viewer = (await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
  });
  afterAll(async () => {
    await t.api.close();
  });
  return Object.assign(t, { call, quietCheck });
}
