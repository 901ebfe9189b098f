import { getTenantCatalog, type TenantCatalog } from '../../auth/records.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Table } from '../../store/table.ts';

/** The catalog's attributes of the tenant item (plan limits and counters), read consistently. */
export async function readTenantCatalog(table: Table, tenantId: string): Promise<TenantCatalog> {
  const tenant = await getTenantCatalog(table, tenantId);
  if (!tenant) throw new NotFoundError('tenant');
  return tenant;
}
