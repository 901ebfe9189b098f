import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';

/**
 * Owner of `page_sso_pass` (docs/data-model.md "Status pages"): the single-use hand-off of an SSO
 * page's reader from Vigil's host, where their console session is, to the page's custom domain
 * (docs/status-pages.md "SSO pages on a custom domain"). Found by the SHA-256 of the random token
 * the browser carries in the redirect's URL (the token itself is never stored); it names the page,
 * its domain and the session it hands over, lives 60 s, and is deleted when used, as `sso_login`
 * items are by the SSO callback.
 */

const ssoPassSchema = z.object({
  /** SHA-256 hex of the token in the URL. */
  token_hash: z.string(),
  tenant_id: z.string(),
  slug: z.string(),
  /** The custom domain the token opens the page on; no other. */
  domain: z.string(),
  /** The console session handed over (`ses_…`, listed under its user): the domain's cookie names it. */
  user_id: z.string(),
  session_id: z.string(),
  expires_at: z.string(),
});
export type SsoPassRecord = z.infer<typeof ssoPassSchema>;

const ssoPass = defineItem({
  type: itemType('page_sso_pass'),
  schema: ssoPassSchema,
  key: (k: { token_hash: string }) => ({ pk: `PAGESSOPASS#${k.token_hash}`, sk: '#PAGESSOPASS' }),
  ttl: (r) => Math.ceil(Date.parse(r.expires_at) / 1000),
  docKey: { token_hash: '<sha256 of token>' },
});

/** Stores a new hand-off (its hash is new: `itemNotExists`). */
export async function putSsoPass(table: Table, record: SsoPassRecord): Promise<void> {
  await table.transact([ssoPass.put(record, { kind: 'itemNotExists' })]);
}

/**
 * Consumes the hand-off of `tokenHash`: read, then deleted while it is still there, so a token
 * works once however many requests race. Undefined when unknown, used or expired at `at`.
 */
export async function takeSsoPass(
  table: Table,
  tokenHash: string,
  at: string,
): Promise<SsoPassRecord | undefined> {
  const found = await ssoPass.get(table, { token_hash: tokenHash }, { consistent: true });
  if (!found) return undefined;
  try {
    await table.transact([ssoPass.delete({ token_hash: tokenHash }, { kind: 'itemExists' })]);
  } catch (err) {
    if (err instanceof ConditionFailedError) return undefined;
    throw err;
  }
  return found.expires_at > at ? found : undefined;
}
