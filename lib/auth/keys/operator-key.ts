import type { Clock } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import type { TenantStore } from '../tenants/tenant-store.ts';
import { listUsers } from '../tenants/user-items.ts';
import { createKeyFor } from './key-service.ts';
import { createKeyStore } from './key-store.ts';

export interface OperatorKeyDeps {
  table: Table;
  tenants: Pick<TenantStore, 'getTenant'>;
  clock: Clock;
}

/** Why the operator could not issue a key, said for the operator (not an API error). */
export class OperatorKeyError extends Error {
  override name = 'OperatorKeyError';
}

/**
 * The operator's way back into a tenant (`npm run vigil -- key create`): a new key owned by the
 * tenant's oldest admin, so a read-write one has admin rights (and counts as an admin key).
 * Counted against the tenant's key limit like any other key.
 */
export async function createOperatorKey(
  input: { tenantId: string; label: string; readOnly: boolean },
  deps: OperatorKeyDeps,
) {
  const tenant = await deps.tenants.getTenant(input.tenantId);
  if (!tenant) {
    throw new OperatorKeyError(
      `there is no tenant ${input.tenantId}; \`npm run vigil -- tenant list\` shows the tenants and their ids`,
    );
  }
  const team = { listUsers: (tenantId: string) => listUsers(deps.table, tenantId) };
  // Users are listed by id, and ids sort by creation time: the first admin is the oldest.
  const admin = (await team.listUsers(tenant.id)).find((user) => user.role === 'admin');
  if (!admin) throw new OperatorKeyError(`tenant ${tenant.id} has no admin user to own a key`);
  const owner = { tenantId: tenant.id, userId: admin.id, role: admin.role };
  const created = await createKeyFor(owner, input, {
    table: deps.table,
    keys: createKeyStore(deps.table),
    team,
    clock: deps.clock,
  });
  return { tenant, admin, created };
}
