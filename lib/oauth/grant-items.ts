import * as z from 'zod';
import { scopeSchema } from '../domain/formats.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * What a person allowed an MCP client (one per person and client): its scopes. Every code, access
 * token and refresh token names its grant, and is worth nothing once the grant is deleted (revoked
 * in the console, or a replayed code or refresh token). Under the tenant, after the user.
 */
const grantSchema = z.object({
  tenant_id: z.string(),
  user_id: z.string(),
  grant_id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  scopes: z.array(scopeSchema),
  created_at: z.string(),
  last_used_at: z.string().optional(),
});
export type Grant = z.infer<typeof grantSchema>;

const GRANT = 'OAUTHGRANT#';

const grant = defineItem({
  type: itemType('oauth_grant'),
  schema: grantSchema,
  key: (k: { tenant_id: string; user_id: string; grant_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${GRANT}${k.user_id}#${k.grant_id}`,
  }),
  docKey: { tenant_id: '<tnt>', user_id: '<usr>', grant_id: '<ogr>' },
});

export type GrantKey = { tenant_id: string; user_id: string; grant_id: string };

/** One grant (consistent: a revoked grant is refused at once). */
export function getGrant(table: Table, key: GrantKey): Promise<Grant | undefined> {
  return grant.get(table, key, { consistent: true });
}

/** A person's grants, oldest first (bounded: one per client they connected). */
export async function listGrants(table: Table, tenantId: string, userId: string): Promise<Grant[]> {
  const page = await table.query({
    pk: tenantPk(tenantId),
    sk: { op: 'beginsWith', prefix: `${GRANT}${userId}#` },
    limit: 200,
    consistent: true,
  });
  return grant.parseAll(page.items);
}

export function grantPutOp(record: Grant): WriteOp {
  return grant.put(record);
}

/** The delete of a grant (revocation); `itemExists` so that revoking an unknown grant is told apart. */
export function grantDeletedOp(key: GrantKey): WriteOp {
  return grant.delete(key, { kind: 'itemExists' });
}

/** Records the grant's last use (an access token used, a refresh); only if it still exists. */
export function grantUsedOp(key: GrantKey, at: string) {
  return grant.update(key, { set: { last_used_at: at }, condition: { kind: 'itemExists' } });
}
