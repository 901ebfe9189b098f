import * as z from 'zod';
import { isoTime } from '../platform/clock.ts';
import { deterministicId, newId } from '../platform/ids.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { type PageDeps, readScannedPage, unexpired } from '../store/paging.ts';
import type { IndexName, Item, SortKeyCondition, Table } from '../store/table.ts';

/**
 * Owner of `audit_entry`: one entry per write (docs/auth.md "The audit log"), append-only: put
 * once with `itemNotExists`, never updated, expiring with the tenant's retention like results. It
 * lives in the tenant's audit partition, on gsi1 under its actor and on gsi2 under its target's
 * id. Entry ids (`aud_`) are time-ordered, so every list is newest first.
 */

/** `anonymous`: a caller nobody authenticated, named by its address (failed sign-ins past the account's limit). */
export const ACTOR_TYPES = [
  'user',
  'key',
  'oauth_client',
  'agent',
  'operator',
  'anonymous',
  'ping_key',
] as const;
export const VIAS = ['api', 'console', 'mcp', 'cli', 'agent'] as const;

const auditEntrySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  at: z.string(),
  actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string(), label: z.string() }),
  via: z.enum(VIAS),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string() }),
  /** Redacted: the names of the fields a write set and name/slug values, never other values. */
  summary: z.string(),
  source_ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const auditPk = (tenantId: string) => `AUDIT#${tenantId}`;
const actorPk = (tenantId: string, actorId: string) => `AUDIT#${tenantId}#ACTOR#${actorId}`;
const targetPk = (tenantId: string, targetId: string) => `AUDIT#${tenantId}#TARGET#${targetId}`;
const PREFIX = 'aud_';

const auditEntry = defineItem({
  type: itemType('audit_entry'),
  schema: auditEntrySchema,
  key: (k: { tenant_id: string; id: string }) => ({ pk: auditPk(k.tenant_id), sk: k.id }),
  gsi1: (r) => ({ pk: actorPk(r.tenant_id, r.actor.id), sk: r.id }),
  gsi2: (r) => (r.target.id ? { pk: targetPk(r.tenant_id, r.target.id), sk: r.id } : undefined),
  // Expires with results: the tenant's retention (a setting the entry does not carry) after it was written.
  ttl: (r, c: { retentionDays: number }) => Math.floor(Date.parse(r.at) / 1000) + c.retentionDays * 86_400,
  docKey: { tenant_id: '<tnt>', id: '<aud_id>' },
});

/**
 * Appends one entry written at `nowMs`, its id and time stamped here (never overwrites: a second put
 * of the same id fails), kept `retentionDays`.
 */
export async function appendAuditEntry(
  table: Table,
  nowMs: number,
  entry: Omit<AuditEntry, 'id' | 'at'>,
  retentionDays: number,
): Promise<void> {
  const { tenant_id, ...rest } = entry;
  const stamped: AuditEntry = { id: newId('aud', nowMs), tenant_id, at: isoTime(nowMs), ...rest };
  await table.transact([auditEntry.put(stamped, { kind: 'itemNotExists' }, { retentionDays })]);
}

/** Filters and page of GET /v1/audit and get_audit_log. */
export interface AuditListRequest {
  /** An actor's id (a user's, a key's, a location's, an OAuth client's, `operator`). */
  actor?: string | undefined;
  /** A target's `type:id` or its id alone. */
  target?: string | undefined;
  /** Entries at or after this time (epoch ms). */
  sinceMs?: number | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** Entries one page reads at most, kept or not (a target type filter reads past others). */
const MAX_SCANNED = 1000;

/** `type:id` or `id`. */
function targetOf(target: string): { type?: string; id: string } {
  const colon = target.indexOf(':');
  return colon > 0 ? { type: target.slice(0, colon), id: target.slice(colon + 1) } : { id: target };
}

function sourceOf(tenantId: string, request: AuditListRequest): { index?: IndexName; pk: string } {
  if (request.target) return { index: 'gsi2', pk: targetPk(tenantId, targetOf(request.target).id) };
  if (request.actor) return { index: 'gsi1', pk: actorPk(tenantId, request.actor) };
  return { pk: auditPk(tenantId) };
}

/**
 * A page of the tenant's unexpired entries, newest first: by target (gsi2) or actor (gsi1) when
 * given, the other filter and a target's type checked as read, `since` as a sort-key bound (ids are
 * time-ordered). A page stops after MAX_SCANNED entries whatever it kept; `nextCursor` (sealed for
 * this tenant and filter) is null exactly at the end.
 */
export async function readAuditLog(
  deps: PageDeps,
  tenantId: string,
  request: AuditListRequest,
  nowMs: number,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const base = sourceOf(tenantId, request);
  const source = {
    ...base,
    prefix: PREFIX,
    scope: JSON.stringify([request.actor, request.target, request.sinceMs]),
  };
  const live = unexpired(nowMs);
  const target = request.target ? targetOf(request.target) : undefined;
  const keep = (item: Item) => {
    if (!live(item)) return false;
    const entry = auditEntry.parse(item);
    return (
      (request.actor === undefined || entry.actor.id === request.actor) &&
      (target === undefined ||
        ((target.type === undefined || entry.target.type === target.type) && entry.target.id === target.id))
    );
  };
  const sk: SortKeyCondition =
    request.sinceMs === undefined
      ? { op: 'beginsWith', prefix: PREFIX }
      : {
          op: 'between',
          low: deterministicId('aud', request.sinceMs, '').slice(0, PREFIX.length + 10),
          high: `${PREFIX}~`,
        };
  const page = await readScannedPage(deps, source, {
    sk: sk,
    limit: request.limit,
    cursor: request.cursor,
    maxScanned: MAX_SCANNED,
    keep,
  });
  return { entries: page.items.map((item) => auditEntry.parse(item)), nextCursor: page.nextCursor };
}
