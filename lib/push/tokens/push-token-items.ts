import * as z from 'zod';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { belowLimit } from '../../store/conditions.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { checkPartition } from '../../store/partitions.ts';
import type { Table, UpdateOp, WriteOp } from '../../store/table.ts';

/**
 * The owner of the push token items (a check's ping URLs; docs/data-model.md, "Checks"). Each
 * token is one item in its check's partition (`CHECK#<chk_id>`), keyed by the SHA-256 of the
 * token, next to a counter of the check's tokens; the check's partition purge deletes them with
 * the check, whichever way the check goes. A UUID token cannot name its check, so it also has a
 * lookup item in a partition of its own (`PINGTOKEN#<sha256>`): written and deleted in the same
 * transactions as the token, and deleted by the push step of the check's partition purge
 * (token-purge.ts).
 */

/** How many ping URLs one check may have at once. */
export const PUSH_TOKEN_LIMIT = 10;

const TOKEN_SK_PREFIX = 'PINGTOKEN#';

const pushTokenSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  check_id: z.string(),
  token_hash: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PushTokenRecord = z.infer<typeof pushTokenSchema>;

const pushToken = defineItem({
  type: itemType('push_token'),
  schema: pushTokenSchema,
  key: (k: { check_id: string; token_hash: string }) => ({
    pk: checkPartition(k.check_id),
    sk: `${TOKEN_SK_PREFIX}${k.token_hash}`,
  }),
  docKey: { check_id: '<chk_id>', token_hash: '<sha256 of token>' },
});

/** A UUID token's lookup: what a ping reads first (one get by the token's hash). */
const pushTokenLookup = defineItem({
  type: itemType('push_token_lookup'),
  schema: pushTokenSchema.omit({ last_used_at: true }),
  key: (k: { token_hash: string }) => ({ pk: `${TOKEN_SK_PREFIX}${k.token_hash}`, sk: 'LOOKUP' }),
  docKey: { token_hash: '<sha256 of token>' },
});

const lookupOf = ({ last_used_at: _, ...lookup }: PushTokenRecord) => lookup;

/** The check's token counter (`count`): the limit holds under concurrent creates. */
const pushTokenCount = defineItem({
  type: itemType('push_token_count'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { check_id: string }) => ({ pk: checkPartition(k.check_id), sk: 'PINGTOKENS' }),
  // Only ever upserted by its `add`: the item holds no attribute of its check.
  keyOf: null,
  docKey: { check_id: '<chk_id>' },
});

/** The index of the counter update in `pushTokenCreatedOps` (its condition holds the limit). */
export const COUNT_OP = 0;

/**
 * A new token of a check and the writes that add it below the limit (the caller adds the check's
 * existence check to the same transaction).
 */
export function pushTokenCreatedOps(
  input: { tenantId: string; checkId: string; hash: string; prefix: string },
  nowMs: number,
): { record: PushTokenRecord; ops: WriteOp[] } {
  const record: PushTokenRecord = {
    id: newId('ptk', nowMs),
    tenant_id: input.tenantId,
    check_id: input.checkId,
    token_hash: input.hash,
    prefix: input.prefix,
    created_at: isoTime(nowMs),
    last_used_at: null,
  };
  const ops: WriteOp[] = [
    pushTokenCount.upsert(
      { check_id: input.checkId },
      { add: { count: 1 }, condition: belowLimit('count', PUSH_TOKEN_LIMIT) },
    ),
    pushToken.put(record, { kind: 'itemNotExists' }),
    pushTokenLookup.put(lookupOf(record), { kind: 'itemNotExists' }),
  ];
  return { record, ops };
}

/** The writes that revoke a token (once: a second revoke at the same time fails its condition). */
export function pushTokenRevokedOps(token: PushTokenRecord): WriteOp[] {
  return [
    pushToken.delete(token, { kind: 'itemExists' }),
    pushTokenCount.update({ check_id: token.check_id }, { add: { count: -1 } }),
    // A legacy token has none: deleting nothing is harmless.
    pushTokenLookup.delete(token),
  ];
}

/** The write of a token's last use (the caller throttles it), while the token still exists. */
export function pushTokenUsedOp(token: PushTokenRecord, nowMs: number): UpdateOp {
  return pushToken.update(token, {
    set: { last_used_at: isoTime(nowMs) },
    condition: { kind: 'itemExists' },
  });
}

/** The token stored under `hash` in `checkId`'s partition. */
export function getPushToken(
  table: Table,
  checkId: string,
  hash: string,
): Promise<PushTokenRecord | undefined> {
  return pushToken.get(table, { check_id: checkId, token_hash: hash }, { consistent: true });
}

/** The token a UUID token's hash names (its lookup item; last_used_at is read from the token item only). */
export async function getPushTokenByHash(table: Table, hash: string): Promise<PushTokenRecord | undefined> {
  const lookup = await pushTokenLookup.get(table, { token_hash: hash }, { consistent: true });
  return lookup ? { ...lookup, last_used_at: null } : undefined;
}

/** The deletes of the lookup items of `tokens` (a purged check's, read before its partition goes). */
export function pushTokenLookupDeletes(tokens: PushTokenRecord[]): WriteOp[] {
  return tokens.map((token) => pushTokenLookup.delete(token));
}

/** A check's tokens, oldest first (at most PUSH_TOKEN_LIMIT: one query page). */
export async function listPushTokens(table: Table, checkId: string): Promise<PushTokenRecord[]> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: TOKEN_SK_PREFIX },
    consistent: true,
  });
  return page.items.map((item) => pushToken.parse(item)).sort((a, b) => a.id.localeCompare(b.id));
}
