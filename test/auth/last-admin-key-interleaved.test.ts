import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyFor } from '../../lib/auth/keys/key-service.ts';
import { createKeyStore } from '../../lib/auth/keys/key-store.ts';
import { removeFromTeam } from '../../lib/auth/team/team-remove.ts';
import { createTeamStore } from '../../lib/auth/team/team-store.ts';
import { createTenantStore } from '../../lib/auth/tenants.ts';
import type { Principal } from '../../lib/domain/principal.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { ConflictError } from '../../lib/platform/errors.ts';
import type { Table, WriteOp } from '../../lib/store/table.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { join } from './team-helpers.ts';

/**
 * A member removal counts the member's admin keys before its transaction; a key created for the
 * member in between must not slip past that count (each store, the interleaving forced).
 */
describe.each(runtimes)(
  'removing an admin while a key of theirs is created ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;

    beforeAll(async () => {
      api = await start();
    });
    afterAll(async () => {
      await api.close();
    });

    const storesOf = (table: Table) => ({
      table,
      team: createTeamStore(table),
      keys: createKeyStore(table),
      tenants: createTenantStore(table, systemClock),
      clock: systemClock,
    });

    /** `api.table`, with `beforeFirst` run once just before the first transaction that deletes a user. */
    const interleaved = (beforeFirst: () => Promise<unknown>): Table => {
      let done = false;
      const base = api.table;
      const deletesUser = (ops: WriteOp[]) =>
        ops.some((op) => op.type === 'delete' && op.key.sk.startsWith('USER#'));
      return {
        get: (key, options) => base.get(key, options),
        batchGet: (keys) => base.batchGet(keys),
        query: (input) => base.query(input),
        update: (op) => base.update(op),
        close: () => base.close(),
        async transact(ops) {
          if (!done && deletesUser(ops)) {
            done = true;
            await beforeFirst();
          }
          return base.transact(ops);
        },
      };
    };

    it('refuses the removal when the key was created after the member’s keys were listed', async () => {
      const tenant = await api.createTenant('Interleaved');
      const me = (await api.request('GET', '/v1/me', { key: tenant.key })).body;
      const second = await join(api, tenant.key, { role: 'admin' });
      const ro = await api.request('POST', '/v1/auth/keys', {
        key: second.key,
        body: { label: 'ro', is_read_only: true },
      });
      expect(ro.status).toBe(201);
      const secondKeyId = (await api.request('GET', '/v1/me', { key: second.key })).body.key.id;
      expect((await api.request('DELETE', `/v1/auth/keys/${secondKeyId}`, { key: tenant.key })).status).toBe(
        204,
      );
      const first: Principal = {
        tenantId: tenant.tenantId,
        userId: me.user.id,
        keyId: me.key.id,
        role: 'admin',
        readOnly: false,
      };
      const createMeanwhile = () =>
        createKeyFor(first, { label: 'meanwhile', readOnly: false }, storesOf(api.table));

      const removal = removeFromTeam(first, first.userId, storesOf(interleaved(createMeanwhile)));

      await expect(removal).rejects.toBeInstanceOf(ConflictError);
      await expect(removal).rejects.toThrow(/last read-write keys/);
      expect((await api.request('GET', '/v1/auth/keys', { key: tenant.key })).status).toBe(200);
    });
  },
);
