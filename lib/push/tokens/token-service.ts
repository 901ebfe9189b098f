import { checkExistsOp } from '../../checks/check-items.ts';
import type { CheckService } from '../../checks/services.ts';
import type { Clock } from '../../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { newPingToken, readPingToken } from './ping-token.ts';
import {
  COUNT_OP,
  getPushToken,
  getPushTokenByHash,
  listPushTokens,
  PUSH_TOKEN_LIMIT,
  type PushTokenRecord,
  pushTokenCreatedOps,
  pushTokenRevokedOps,
  pushTokenUsedOp,
} from './push-token-items.ts';

export interface PushTokenServiceDeps {
  table: Table;
  checkService: Pick<CheckService, 'requireRun'>;
  clock: Clock;
  logger: Logger;
}

/**
 * How often a token's last_used_at is written at most (per process): hourly, not per minute as
 * for API keys. Every ping is in the ping log with its exact time, and a per-minute touch was a
 * write unit on every ping of a job pinging each minute ($0.63 per million pings, the ping cost run).
 */
const TOUCH_INTERVAL_MS = 3_600_000;

/** A ping token that names no live token: always "ping URL not found", whatever was wrong with it. */
export class UnknownPingTokenError extends NotFoundError {
  override name = 'UnknownPingTokenError';
  constructor() {
    super('ping URL');
  }
}

/** A slug no check of a valid ping key's account has: 404 as well, and a miss of that key's guess budget. */
export class UnknownSlugError extends UnknownPingTokenError {
  override name = 'UnknownSlugError';
}

/** The public view of a token: never the hash, never the token. */
export function publicPushToken(token: PushTokenRecord) {
  return {
    id: token.id,
    check_id: token.check_id,
    prefix: token.prefix,
    created_at: token.created_at,
    last_used_at: token.last_used_at,
  };
}

/** A check's ping URLs: created (the token shown once), listed, revoked, and verified on each ping. */
export function createPushTokenService(deps: PushTokenServiceDeps) {
  const lastTouched = new Map<string, number>();

  /** The push check `checkId` of the tenant, or 404; a pull check cannot have ping URLs (409). */
  const requirePushCheck = async (tenantId: string, checkId: string) => {
    const run = await deps.checkService.requireRun(tenantId, checkId);
    if (run.definition.check_type !== 'push') {
      throw new ConflictError('only push checks have ping URLs: the service runs this check itself');
    }
  };

  return {
    async create(tenantId: string, checkId: string) {
      await requirePushCheck(tenantId, checkId);
      const { token, hash, prefix } = newPingToken();
      const { record, ops } = pushTokenCreatedOps({ tenantId, checkId, hash, prefix }, deps.clock.now());
      // Only while the check exists: a token of a check deleted meanwhile would outlive its purge.
      const checkOp = ops.length;
      try {
        await deps.table.transact([...ops, checkExistsOp(tenantId, checkId)]);
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        if (err.failed.includes(checkOp)) throw new NotFoundError('check');
        if (err.failed.includes(COUNT_OP)) {
          throw new LimitExceededError(
            `this check already has ${PUSH_TOKEN_LIMIT} ping URLs: revoke one it no longer needs first`,
          );
        }
        throw err;
      }
      return { record, token };
    },

    async list(tenantId: string, checkId: string): Promise<PushTokenRecord[]> {
      await deps.checkService.requireRun(tenantId, checkId);
      return (await listPushTokens(deps.table, checkId)).filter((t) => t.tenant_id === tenantId);
    },

    async revoke(tenantId: string, checkId: string, tokenId: string): Promise<void> {
      await deps.checkService.requireRun(tenantId, checkId);
      const token = (await listPushTokens(deps.table, checkId)).find(
        (t) => t.id === tokenId && t.tenant_id === tenantId,
      );
      if (!token) throw new NotFoundError('ping URL');
      try {
        await deps.table.transact(pushTokenRevokedOps(token));
      } catch (err) {
        // Revoked meanwhile by another request.
        if (err instanceof ConditionFailedError) throw new NotFoundError('ping URL');
        throw err;
      }
    },

    /**
     * The live token `raw` is, or UnknownPingTokenError (malformed, unknown or revoked alike): a
     * UUID by its lookup item, a legacy token by its item in the partition its tail names. Its
     * last use is recorded at most once per TOUCH_INTERVAL_MS per process; a failed write is only logged.
     */
    async verify(raw: string): Promise<PushTokenRecord> {
      const read = readPingToken(raw);
      let token: PushTokenRecord | undefined;
      if (read?.kind === 'uuid') token = await getPushTokenByHash(deps.table, read.hash);
      else if (read?.kind === 'legacy') {
        const found = await getPushToken(deps.table, read.checkId, read.hash);
        token = found?.check_id === read.checkId ? found : undefined;
      }
      if (!token) throw new UnknownPingTokenError();
      const now = deps.clock.now();
      if (now - (lastTouched.get(token.id) ?? Number.NEGATIVE_INFINITY) >= TOUCH_INTERVAL_MS) {
        if (lastTouched.size > 10_000) lastTouched.clear();
        lastTouched.set(token.id, now);
        await deps.table.update(pushTokenUsedOp(token, now)).catch((err: unknown) => {
          deps.logger.warn('could not record ping URL use', { token_id: token.id, err });
        });
      }
      return token;
    },
  };
}

export type PushTokenService = ReturnType<typeof createPushTokenService>;
