import { checkNameOf } from '../../check-types/check-name.ts';
import { heartbeatGraceMs, nextExpectedMs, pushDeadline } from '../../domain/schedules.ts';
import { isoTime } from '../../platform/clock.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { optionalString, positiveInt, READS, requiredString } from '../../platform/mcp-tool.ts';
import {
  asToolResult,
  decodeListCursor,
  encodeListCursor,
  readLists,
  someOf,
  toolResult,
} from '../../platform/tool-answers.ts';
import type { PushToolDeps } from './deps.ts';
import { listHeartbeatsInput, pushCheckPageInput } from './schemas.ts';

/**
 * list_heartbeats and get_ping_log (issue 39): the tenant's push checks (heartbeats of cron jobs)
 * in words of their pings, and one check's ping log. Both read through the same services as the
 * API (the check pages of GET /v1/checks, the ping log of GET /v1/checks/{id}/pings, whose bodies
 * are redacted for read-only principals), and answer bounded pages under 50 KB.
 */

/** A heartbeat's status, worst first (the order of the summary). */
const HEARTBEAT_STATUSES = ['failing', 'late', 'started', 'never_pinged', 'up', 'paused'] as const;
type HeartbeatStatus = (typeof HEARTBEAT_STATUSES)[number];

const HEARTBEAT_LIMITS = { defaultLimit: 50, maxLimit: 100, checkReads: 5 } as const;
const PING_LOG_LIMITS = { defaultLimit: 20, maxLimit: 100, bodyChars: 2000 } as const;

type PushCheck = Awaited<ReturnType<PushToolDeps['checkService']['page']>>['checks'][number];

/** The heartbeat config of a push check as lib/domain/schedules/heartbeat.ts reads it. */
const heartbeatOf = (check: PushCheck) => ({
  interval_seconds: check.interval_seconds,
  config: check.check_type === 'push' ? check.config : {},
});

/**
 * failing: the check is down (a missed deadline or a failure reported); started: a /start not yet
 * ended; never_pinged: no success or failure reported yet; late: past the expected time, inside
 * the grace; up otherwise (degraded, a slow run, is up here: the state field says it); paused: the
 * check is disabled (nothing is expected of it).
 */
function heartbeatStatus(check: PushCheck, nowMs: number): HeartbeatStatus {
  if (!check.enabled) return 'paused';
  if (check.state === 'down') return 'failing';
  if (check.run_started_at) return 'started';
  if (!check.last_push_at) return 'never_pinged';
  const expected = nextExpectedMs(heartbeatOf(check), check);
  return expected !== null && nowMs > expected ? 'late' : 'up';
}

/** One heartbeat as the tool lists it. */
async function heartbeatView(deps: PushToolDeps, check: PushCheck, nowMs: number) {
  const beat = heartbeatOf(check);
  const expected = nextExpectedMs(beat, check);
  const deadline = pushDeadline(beat, check);
  const last = await deps.pingLog.latest(check.id);
  return {
    check_id: check.id,
    name: checkNameOf(check),
    entity: {
      id: check.entity_id,
      name: check.entity_name,
      address: `${check.blueprint_slug}/${check.entity_slug}`,
    },
    status: heartbeatStatus(check, nowMs),
    state: check.state,
    enabled: check.enabled,
    schedule: beat.config.schedule ?? null,
    interval_seconds: beat.config.schedule ? null : check.interval_seconds,
    grace_seconds: heartbeatGraceMs(beat) / 1000,
    last_ping: last ? { at: last.at, kind: last.kind } : null,
    last_report_at: check.last_push_at ?? null,
    run_started_at: check.run_started_at ?? null,
    next_expected_at: expected === null ? null : isoTime(expected),
    fails_at: deadline ? isoTime(deadline.atMs) : null,
  };
}

type HeartbeatView = Awaited<ReturnType<typeof heartbeatView>>;

const words = (h: HeartbeatView) => `"${h.name}" of ${h.entity.name} (${h.entity.address})`;

/** Reads a `status` argument (the registered inputSchema's enum; checked again for custom manifests). */
function statusArg(args: Record<string, unknown>): HeartbeatStatus | undefined {
  const status = optionalString(args, 'status');
  if (status === undefined || (HEARTBEAT_STATUSES as readonly string[]).includes(status)) {
    return status as HeartbeatStatus | undefined;
  }
  throw ValidationError.field('status', `Use one of ${HEARTBEAT_STATUSES.join(', ')}.`);
}

export const listHeartbeats: BuiltinTool<PushToolDeps> = {
  name: 'list_heartbeats',
  offer: {
    toolset: 'check-ops',
    order: 50,
    version: '1.1.0',
    description:
      'Push checks (heartbeats of cron jobs) with their status (failing, late, started, never_pinged, up, paused), last ping, next expected time and when they fail; filter by status; paged (next_cursor continues).',
    inputSchema: listHeartbeatsInput,
  },
  annotations: { title: 'Heartbeats', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const status = statusArg(args);
      const limit = positiveInt(args, 'limit', HEARTBEAT_LIMITS.defaultLimit, HEARTBEAT_LIMITS.maxLimit);
      const nowMs = deps.clock.now();
      // Pages of push checks, each no larger than the room left (so its cursor follows what is
      // kept), at most `checkReads` of them when a status filter leaves most out.
      const read = async (room: number, start: string | null) => {
        const kept: HeartbeatView[] = [];
        let cursor = start;
        for (let n = 0; n < HEARTBEAT_LIMITS.checkReads && kept.length < room; n += 1) {
          const page = await deps.checkService.page(caller.tenantId, {
            type: 'push',
            limit: room - kept.length,
            ...(cursor ? { cursor } : {}),
          });
          // The status needs no read: only the checks kept have their last ping read.
          const wanted = page.checks.filter(
            (c) => status === undefined || heartbeatStatus(c, nowMs) === status,
          );
          kept.push(...(await Promise.all(wanted.map((check) => heartbeatView(deps, check, nowMs)))));
          cursor = page.nextCursor;
          if (!cursor) break;
        }
        return { items: kept, next_cursor: cursor };
      };
      const page = await readLists([{ read }], decodeListCursor(optionalString(args, 'cursor'), 1), limit);
      const items = page.items;
      const counts = HEARTBEAT_STATUSES.flatMap((s) => {
        const those = items.filter((h) => h.status === s);
        return those.length ? [`${those.length} ${s.replace('_', ' ')}`] : [];
      });
      const problems = (['failing', 'late', 'started'] as const).flatMap((s) => {
        const those = items.filter((h) => h.status === s);
        return those.length ? [` ${s[0]?.toUpperCase()}${s.slice(1)}: ${someOf(those.map(words), 5)}.`] : [];
      });
      const about = status
        ? `Heartbeats (push checks) ${status.replace('_', ' ')}`
        : 'Heartbeats (push checks)';
      const summary = items.length
        ? `${about}: ${counts.join(', ')}.${problems.join('')}`
        : `${about}: none${page.next ? ' on this page' : ''}.`;
      const more = page.next ? ' More: pass next_cursor as cursor.' : '';
      return toolResult(
        `${summary}${more}`,
        { heartbeats: items, next_cursor: page.next ? encodeListCursor(page.next) : null },
        { compact: true },
      );
    }),
};

export const getPingLog: BuiltinTool<PushToolDeps> = {
  name: 'get_ping_log',
  offer: {
    toolset: 'check-ops',
    order: 60,
    version: '1.1.0',
    description:
      "A push check's pings, newest first and paged: kind (success, start, fail, exit, log), exit status, run id, run duration, sender and body (its last 2,000 characters; secret-looking lines redacted for read-only keys).",
    inputSchema: pushCheckPageInput,
  },
  annotations: { title: 'Ping log', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const checkId = requiredString(args, 'check_id');
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      const limit = positiveInt(args, 'limit', PING_LOG_LIMITS.defaultLimit, PING_LOG_LIMITS.maxLimit);
      const page = await readLists(
        [
          {
            async read(room, cursor) {
              const read = await deps.pingLog.page(caller, checkId, {
                limit: room,
                ...(cursor ? { cursor } : {}),
              });
              // A body's end says how the job ended: keep its last characters.
              const pings = read.pings.map((p) =>
                p.body.length > PING_LOG_LIMITS.bodyChars
                  ? { ...p, body: p.body.slice(-PING_LOG_LIMITS.bodyChars), body_truncated: true }
                  : p,
              );
              return { items: pings, next_cursor: read.next_cursor };
            },
          },
        ],
        decodeListCursor(optionalString(args, 'cursor'), 1),
        limit,
      );
      const entity = `${check.blueprint_slug}/${check.entity_slug}`;
      const owner = await deps.entityStore.getById(caller.tenantId, check.entity_id);
      const about = `Pings of "${checkNameOf(check)}" of ${owner?.name ?? entity} (${entity})`;
      const newest = page.items[0];
      const lastWords = newest
        ? ` Newest: ${newest.kind}${newest.exit_status !== undefined ? ` ${newest.exit_status}` : ''} at ${newest.at}${newest.duration_ms !== undefined ? ` after a ${newest.duration_ms} ms run` : ''}.`
        : '';
      const more = page.next ? ' More: pass next_cursor as cursor.' : '';
      return toolResult(
        `${about}: ${page.items.length ? `${page.items.length}, newest first.` : 'none.'}${lastWords}${more}`,
        { check_id: checkId, pings: page.items, next_cursor: page.next ? encodeListCursor(page.next) : null },
        { compact: true },
      );
    }),
};
