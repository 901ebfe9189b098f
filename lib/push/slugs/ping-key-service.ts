import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../../auth/api-key.ts';
import type { Clock } from '../../platform/clock.ts';
import { ConflictError } from '../../platform/errors.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { findPingKeyByHash, getPingKey, type PingKeyRecord, pingKeySetOps } from './ping-key-items.ts';

/**
 * A tenant's ping key: the secret half of slug ping URLs (`/ping/<ping key>/<slug>`). Its shape is
 * Healthchecks' (22 URL-safe random characters, 128 bits), so it is never mistaken for the other
 * ping URL forms: a UUID token is 36 characters with hyphens, a legacy token starts `vpt_`.
 */
const PING_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** How many characters of a ping key are shown to tell keys apart (a guess still has 108 bits left). */
const PREFIX_LENGTH = 4;

/** A new random ping key: 16 random bytes in base64url (never one that starts like a legacy token). */
function newPingKey(): string {
  for (;;) {
    const key = randomBytes(16).toString('base64url');
    if (!key.startsWith('vpt_')) return key;
  }
}

/** The public view of a tenant's ping key: whether it has one, its prefix and creation time, never the key. */
export function publicPingKey(record: PingKeyRecord | undefined) {
  return {
    exists: record !== undefined,
    prefix: record?.prefix ?? null,
    created_at: record?.created_at ?? null,
  };
}

export interface PingKeyServiceDeps {
  table: Table;
  clock: Clock;
}

/** Creating or rotating a tenant's ping key (shown once), describing it, and finding a key's tenant. */
export function createPingKeyService(deps: PingKeyServiceDeps) {
  return {
    /** A new ping key for the tenant, replacing any it had (the old one stops working at once). */
    async rotate(tenantId: string): Promise<{ record: PingKeyRecord; pingKey: string }> {
      const current = await getPingKey(deps.table, tenantId);
      const key = newPingKey();
      const { record, ops } = pingKeySetOps(
        { tenantId, hash: hashApiKey(key), prefix: key.slice(0, PREFIX_LENGTH), nowMs: deps.clock.now() },
        current,
      );
      try {
        await deps.table.transact(ops);
      } catch (err) {
        if (err instanceof ConditionFailedError) {
          throw new ConflictError('the ping key was changed by another request at the same time; try again');
        }
        throw err;
      }
      return { record, pingKey: key };
    },

    /** The tenant's ping key item, or undefined when it has none. */
    describe(tenantId: string): Promise<PingKeyRecord | undefined> {
      return getPingKey(deps.table, tenantId);
    },

    /** The tenant whose ping key `raw` is, or undefined (malformed or unknown alike). */
    async tenantOf(raw: string): Promise<string | undefined> {
      if (!PING_KEY_PATTERN.test(raw)) return undefined;
      return (await findPingKeyByHash(deps.table, hashApiKey(raw)))?.tenant_id;
    },
  };
}

export type PingKeyService = ReturnType<typeof createPingKeyService>;
