import type { Clock } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { countKeyOp, ensureKeyCount, keyLimitError, uncountKeysOp } from './key-count.ts';
import { deleteKeyOps, type KeyStore, newKeyOps } from './key-store.ts';
import type { Principal } from './principal.ts';
import { type ApiKeyRecord, publicKey } from './records.ts';

export interface KeyServiceDeps {
  table: Table;
  keys: KeyStore;
  clock: Clock;
}

/**
 * API key management for the caller. Admins see and delete every key of the tenant; members their
 * own. A tenant holds at most API_KEY_LIMIT keys (403 LIMIT_EXCEEDED).
 */
export function createKeyService(deps: KeyServiceDeps) {
  const visible = (principal: Principal, key: ApiKeyRecord) =>
    principal.role === 'admin' || key.user_id === principal.userId;

  return {
    async create(principal: Principal, input: { label: string; is_read_only?: boolean | undefined }) {
      const key = newKeyOps(
        {
          tenantId: principal.tenantId,
          userId: principal.userId,
          label: input.label,
          readOnly: input.is_read_only ?? false,
        },
        deps.clock.now(),
      );
      await ensureKeyCount(deps.table, deps.keys, principal.tenantId);
      try {
        // The counter first: index 0 is the limit.
        await deps.table.transact([countKeyOp(principal.tenantId), ...key.ops]);
      } catch (error) {
        throw keyLimitError(error, 0) ?? error;
      }
      return { ...publicKey(key.record), key: key.raw };
    },

    async list(principal: Principal) {
      const keys = await deps.keys.list(principal.tenantId);
      return keys
        .filter((key) => visible(principal, key))
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .map(publicKey);
    },

    async remove(principal: Principal, keyId: string): Promise<void> {
      const key = await deps.keys.get(principal.tenantId, keyId);
      if (!key || !visible(principal, key)) throw new NotFoundError('API key');
      await ensureKeyCount(deps.table, deps.keys, principal.tenantId);
      try {
        await deps.table.transact([...deleteKeyOps(key), uncountKeysOp(principal.tenantId, 1)]);
      } catch (error) {
        // Deleted meanwhile (by another request, or with its member).
        if (error instanceof ConditionFailedError) throw new NotFoundError('API key');
        throw error;
      }
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
