import { z } from 'zod';
import { checkKeys } from '../checks/check-keys.ts';
import { isoTime } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { belowLimit } from '../store/conditions.ts';
import { itemType, stamp } from '../store/item-type.ts';
import { parseItem } from '../store/items.ts';
import { checkPartition } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * The push token item type (a check's ping URLs): keys, stored shape, reads and writes in one
 * place. Each token is one item in its check's partition (`CHECK#<chk_id>`), keyed by the
 * SHA-256 of the token, next to a counter of the check's tokens; the check's partition purge
 * (lib/purge) deletes them with the check, whichever way the check goes.
 */

/** How many ping URLs one check may have at once. */
export const PUSH_TOKEN_LIMIT = 10;

const TOKEN_SK_PREFIX = 'PINGTOKEN#';

export const pushTokenKeys = {
  token: (checkId: string, hash: string) => ({
    pk: checkPartition(checkId),
    sk: `${TOKEN_SK_PREFIX}${hash}`,
  }),
  /** The check's token counter (`count`): the limit holds under concurrent creates. */
  count: (checkId: string) => ({ pk: checkPartition(checkId), sk: 'PINGTOKENS' }),
};

export const pushTokenTypes = { token: itemType('push_token'), count: itemType('push_token_count') };

export const pushTokenSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  check_id: z.string(),
  token_hash: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PushTokenRecord = z.infer<typeof pushTokenSchema>;

/** The index of the counter update in `newTokenOps` (its condition holds the limit). */
export const COUNT_OP = 0;
/** The index of the check's existence check in `newTokenOps`. */
export const CHECK_OP = 2;

/** The writes that add a token to a check below the limit, while the check still exists. */
export function newTokenOps(
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
    {
      type: 'update',
      key: pushTokenKeys.count(input.checkId),
      set: { ...stamp(pushTokenTypes.count) },
      add: { count: 1 },
      condition: belowLimit('count', PUSH_TOKEN_LIMIT),
    },
    {
      type: 'put',
      item: { ...pushTokenKeys.token(input.checkId, input.hash), ...stamp(pushTokenTypes.token), ...record },
      condition: { kind: 'itemNotExists' },
    },
    {
      type: 'conditionCheck',
      key: checkKeys.check(input.tenantId, input.checkId),
      condition: { kind: 'itemExists' },
    },
  ];
  return { record, ops };
}

/** The writes that revoke a token (once: a second revoke at the same time fails its condition). */
export function deleteTokenOps(token: PushTokenRecord): WriteOp[] {
  return [
    {
      type: 'delete',
      key: pushTokenKeys.token(token.check_id, token.token_hash),
      condition: { kind: 'itemExists' },
    },
    { type: 'update', key: pushTokenKeys.count(token.check_id), add: { count: -1 } },
  ];
}

/** Reads of push tokens, and the throttled write of their last use. */
export function createPushTokenStore(table: Table) {
  return {
    /** The token stored under `hash` in `checkId`'s partition. */
    async find(checkId: string, hash: string): Promise<PushTokenRecord | undefined> {
      const item = await table.get(pushTokenKeys.token(checkId, hash), { consistent: true });
      return item ? parseItem(pushTokenSchema, item) : undefined;
    },
    /** A check's tokens, oldest first (at most PUSH_TOKEN_LIMIT: one query page). */
    async list(checkId: string): Promise<PushTokenRecord[]> {
      const page = await table.query({
        pk: checkPartition(checkId),
        sk: { op: 'beginsWith', prefix: TOKEN_SK_PREFIX },
        consistent: true,
      });
      return page.items
        .map((item) => parseItem(pushTokenSchema, item))
        .sort((a, b) => a.id.localeCompare(b.id));
    },
    async touch(token: PushTokenRecord, nowMs: number): Promise<void> {
      await table.update({
        type: 'update',
        key: pushTokenKeys.token(token.check_id, token.token_hash),
        set: { last_used_at: isoTime(nowMs) },
        condition: { kind: 'itemExists' },
      });
    },
  };
}

export type PushTokenStore = ReturnType<typeof createPushTokenStore>;
