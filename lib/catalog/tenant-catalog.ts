import { tenancyKeys } from '../auth/tenancy-keys.ts';
import { NotFoundError } from '../platform/errors.ts';
import { parseItem } from '../store/items.ts';
import type { Table } from '../store/table.ts';
import { type TenantCatalog, tenantCatalogSchema } from './records.ts';

/** The catalog's attributes of the tenant item (plan limits and counters), read consistently. */
export async function readTenantCatalog(table: Table, tenantId: string): Promise<TenantCatalog> {
  const item = await table.get(tenancyKeys.tenant(tenantId), { consistent: true });
  if (!item) throw new NotFoundError('tenant');
  return parseItem(tenantCatalogSchema, item);
}
