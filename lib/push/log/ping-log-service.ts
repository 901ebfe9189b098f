import { latestPingedResult } from '../../checks/results.ts';
import type { CheckService } from '../../checks/services.ts';
import type { Principal } from '../../domain/principal.ts';
import type { Clock } from '../../platform/clock.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { CursorSeal } from '../../store/cursor-seal.ts';
import { type PageRequest, readNewestFirst, readPage, unexpired } from '../../store/paging.ts';
import type { Table } from '../../store/table.ts';
import { type PingRecord, parsePing, pingsSource } from './ping-items.ts';
import { redactPingBody } from './ping-redaction.ts';

/**
 * Reading a push check's ping log (GET /v1/checks/{id}/pings, the console's "Last pings", MCP
 * get_ping_log and list_heartbeats): newest first, in pages with sealed cursors (store/paging.ts),
 * expired pings left out (TTL deletion is lazy). The check is resolved in the caller's tenant
 * first (404 otherwise); a pull check has no ping log (409, as its ping URLs are refused).
 * Read-only principals get bodies redacted (ping-redaction.ts). A plain success (no body, run id
 * or run) is not in the log, only among the check's results (lib/push/pings/ping-service.ts);
 * `latest` still counts it.
 */

/** Pings per page: at most this many (default PING_PAGE_DEFAULT). */
export const PING_PAGE_MAX = 100;
export const PING_PAGE_DEFAULT = 20;
/**
 * A page also ends once its pings pass this many bytes of JSON (at least one ping a page): bodies
 * are up to 100 KB each, and an answer must stay well under the Lambda's 6 MB response limit.
 */
export const PING_PAGE_BYTES = 1_000_000;

/** A ping as the API shows it (the stored record without its result link). */
export interface PublicPing {
  id: string;
  at: string;
  kind: PingRecord['kind'];
  exit_status?: number;
  rid?: string;
  body: string;
  body_truncated?: boolean;
  body_over_budget?: boolean;
  method: string;
  source_ip: string;
  user_agent: string;
  duration_ms?: number;
  /** The check was paused: the ping was kept but recorded nothing. */
  ignored?: boolean;
}

/** The public view of a ping, its body redacted for read-only principals. */
function publicPing(ping: PingRecord, readOnly: boolean): PublicPing {
  return {
    id: ping.id,
    at: ping.at,
    kind: ping.kind,
    ...(ping.exit_status !== undefined ? { exit_status: ping.exit_status } : {}),
    ...(ping.rid !== undefined ? { rid: ping.rid } : {}),
    body: readOnly ? redactPingBody(ping.body) : ping.body,
    ...(ping.body_truncated ? { body_truncated: true } : {}),
    ...(ping.body_over_budget ? { body_over_budget: true } : {}),
    method: ping.method,
    source_ip: ping.source_ip,
    user_agent: ping.user_agent,
    ...(ping.duration_ms !== undefined ? { duration_ms: ping.duration_ms } : {}),
    ...(ping.ignored ? { ignored: true } : {}),
  };
}

/** A check's newest ping: when, and what it reported. */
export interface LatestPing {
  at: string;
  kind: PingRecord['kind'];
}

export interface PingLogDeps {
  table: Table;
  cursors: CursorSeal;
  checkService: Pick<CheckService, 'requireCheck'>;
  clock: Clock;
}

/** How many of `pings` (in order) fit in PING_PAGE_BYTES, at least one. */
function countThatFit(pings: readonly PublicPing[]): number {
  let bytes = 0;
  for (const [i, ping] of pings.entries()) {
    bytes += Buffer.byteLength(JSON.stringify(ping)) + 1;
    if (bytes > PING_PAGE_BYTES) return Math.max(1, i);
  }
  return pings.length;
}

export function createPingLogService(deps: PingLogDeps) {
  /** The push check `checkId` of the caller's tenant: 404 in another tenant, 409 for a pull check. */
  const requirePushCheck = async (tenantId: string, checkId: string) => {
    const check = await deps.checkService.requireCheck(tenantId, checkId);
    if (check.check_type !== 'push') {
      throw new ConflictError('only push checks have a ping log: the service runs this check itself');
    }
    return check;
  };

  const read = async (checkId: string, page: PageRequest, readOnly: boolean) => {
    const found = await readPage(deps, pingsSource(checkId), page, unexpired(deps.clock.now()));
    return {
      pings: found.items.map((item) => publicPing(parsePing(item), readOnly)),
      next_cursor: found.nextCursor,
    };
  };

  return {
    requirePushCheck,

    /** A page of the check's pings, newest first, within PING_PAGE_BYTES. */
    async page(caller: Pick<Principal, 'tenantId' | 'readOnly'>, checkId: string, page: PageRequest) {
      await requirePushCheck(caller.tenantId, checkId);
      const first = await read(checkId, page, caller.readOnly);
      const fit = countThatFit(first.pings);
      // Cut by bytes: read again with the smaller limit for the cursor after the last ping kept.
      return fit < first.pings.length ? read(checkId, { ...page, limit: fit }, caller.readOnly) : first;
    },

    /**
     * The check's newest ping (any kind), or null (no tenant check: callers resolved the check):
     * its newest log item, or the newest plain success (recorded only as a result) if that is newer.
     */
    async latest(checkId: string): Promise<LatestPing | null> {
      const source = pingsSource(checkId);
      const now = deps.clock.now();
      const [newest, pinged] = await Promise.all([
        readNewestFirst(
          deps.table,
          { pk: source.pk, sk: { op: 'beginsWith', prefix: source.prefix }, consistent: true },
          { want: 1, keep: unexpired(now), cursor: undefined },
        ),
        latestPingedResult(deps.table, checkId),
      ]);
      const logged = newest[0] ? parsePing(newest[0]) : undefined;
      if (pinged && (!logged || pinged.checked_at > logged.at))
        return { at: pinged.checked_at, kind: 'success' };
      return logged ? { at: logged.at, kind: logged.kind } : null;
    },
  };
}

export type PingLogService = ReturnType<typeof createPingLogService>;
