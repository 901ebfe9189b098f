import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * An MCP client registered by dynamic client registration (RFC 7591, `POST /oauth/register`): a
 * public client (no secret), its name and the redirect URIs it may use. Under its own partition:
 * the authorize and token endpoints find it by id before any tenant is known. Clients identified
 * by a metadata document (an https client_id) are not stored (lib/oauth/client-metadata.ts).
 */
const oauthClientSchema = z.object({
  client_id: z.string(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  created_at: z.string(),
});
export type OauthClient = z.infer<typeof oauthClientSchema>;

const client = defineItem({
  type: itemType('oauth_client'),
  schema: oauthClientSchema,
  key: (k: { client_id: string }) => ({ pk: `OAUTHCLIENT#${k.client_id}`, sk: 'CLIENT' }),
  docKey: { client_id: '<ocl>' },
});

/** A registered client, or undefined. */
export function getOauthClient(table: Table, clientId: string): Promise<OauthClient | undefined> {
  return client.get(table, { client_id: clientId });
}

/** The put of a newly registered client. */
export function oauthClientPutOp(record: OauthClient): WriteOp {
  return client.put(record, { kind: 'itemNotExists' });
}
