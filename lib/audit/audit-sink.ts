import { getApiKey } from '../auth/records.ts';
import type { Actor, Principal } from '../domain/principal.ts';
import type { WriteEvent, WriteSink } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { type AuditEntry, appendAuditEntry } from './audit-items.ts';
import { actionOf, redactedSummary, targetOf } from './describe-write.ts';

export interface AuditDeps {
  table: Table;
  clock: Clock;
  /** The tenant's retention in days (entries expire with its results). */
  retentionDays(tenantId: string): Promise<number>;
}

/**
 * High-volume protocol writes that are not recorded: agents' leases and results, push checks'
 * results and heartbeats, and MCP's own envelope (its write tools are recorded one by one, as
 * `mcp.<tool>`, by lib/audit/mcp-audit.ts).
 */
const UNRECORDED = new Set([
  'agentLease',
  'agentResults',
  'pushCheckHeartbeat',
  'pushCheckResult',
  'postMcp',
]);

/** The user agent `vigil` CLI commands send (lib/cli), so their writes say `via: cli`. */
const CLI_USER_AGENT = /^vigil-cli\//;

/** Keys' labels read per process, by tenant and key id (a key's label and prefix never change). */
const MAX_CACHED_KEYS = 10_000;

/** Who a principal is for the audit log: its actor when authentication named one, else its key's label and prefix. */
export function createActorLookup(table: Table) {
  const keyLabels = new Map<string, string>();
  return async (principal: Principal): Promise<Actor> => {
    if (principal.actor) return principal.actor;
    if (principal.credential === 'session')
      return { type: 'user', id: principal.userId, label: principal.userId };
    if (principal.credential === 'oauth')
      return { type: 'oauth_client', id: principal.keyId, label: principal.keyId };
    const cacheKey = `${principal.tenantId}/${principal.keyId}`;
    let label = keyLabels.get(cacheKey);
    if (label === undefined) {
      const key = await getApiKey(table, principal.tenantId, principal.keyId);
      label = key ? `${key.label} (${key.prefix})` : principal.keyId;
      if (keyLabels.size >= MAX_CACHED_KEYS) keyLabels.clear();
      if (key) keyLabels.set(cacheKey, label);
    }
    return { type: 'key', id: principal.keyId, label };
  };
}

export type ActorLookup = ReturnType<typeof createActorLookup>;

/** How a principal's request came: the console (a session cookie), the CLI (its user agent), else the API. */
function viaOf(event: WriteEvent): AuditEntry['via'] {
  if (event.location) return 'agent';
  if (event.principal?.credential === 'session') return 'console';
  if (CLI_USER_AGENT.test(event.req.headers['user-agent'] ?? '')) return 'cli';
  return 'api';
}

/** Who acted, for which tenant; undefined for a write nobody can be named for (left out). */
async function whoOf(
  event: WriteEvent,
  actorOf: ActorLookup,
): Promise<{ tenantId: string; actor: Actor } | undefined> {
  const note = event.note;
  if (event.principal) {
    return { tenantId: event.principal.tenantId, actor: note?.actor ?? (await actorOf(event.principal)) };
  }
  if (event.location) {
    const { tenantId, locationId, locationName } = event.location;
    return { tenantId, actor: note?.actor ?? { type: 'agent', id: locationId, label: locationName } };
  }
  // A public route: only its note can say who (a sign-in, an accepted invitation). Pings,
  // callbacks and subscriptions set none and are not recorded.
  return note?.tenantId && note.actor ? { tenantId: note.tenantId, actor: note.actor } : undefined;
}

/**
 * The audit log's sink for the router (WriteSink): one `audit_entry` per successful write, named
 * from the route (actionOf), its target (targetOf) and a redacted summary of the body, unless the
 * reply's note says otherwise. It throws when the entry cannot be written; the router logs that and
 * the request succeeds anyway.
 */
export function createAuditSink(
  deps: AuditDeps,
  actorOf: ActorLookup = createActorLookup(deps.table),
): WriteSink {
  return async (event) => {
    if (event.note?.skip || UNRECORDED.has(event.route.operationId)) return;
    const who = await whoOf(event, actorOf);
    if (!who) return;
    const note = event.note;
    const now = deps.clock.now();
    const entry = {
      tenant_id: who.tenantId,
      actor: who.actor,
      via: viaOf(event),
      action: note?.action ?? actionOf(event.route),
      target: note?.target ?? targetOf(event.route, event.params, event.replyBody, who.tenantId),
      summary: note?.summary ?? redactedSummary(event.body),
      source_ip: event.req.sourceIp ?? null,
    };
    await appendAuditEntry(deps.table, now, entry, await deps.retentionDays(who.tenantId));
  };
}
