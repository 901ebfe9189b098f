import { createHash } from 'node:crypto';
import * as z from 'zod';
import { ALERT_SEVERITIES as SEVERITIES, type AlertSeverity as Severity } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { PageDeps, PageRequest } from '../../store/paging.ts';
import { readNewestFirst, readPage } from '../../store/paging.ts';
import { partitionDeletes } from '../../store/partition-purge.ts';
import type { Item, Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of `outside_alert` and `outside_tally` (DECISIONS.md "Outside alerts (wave 6)"). An
 * integration's alerts live in a partition of its own, `OUTSIDE#<int_id>`, one item per dedup key
 * (keyed by its SHA-256: a key is the sender's text), found by entity (gsi1) and by tenant (gsi2),
 * newest heard first. Beside them, per entity, a tally of the open alerts by severity: the outside
 * check's state (alert-lifecycle.ts `outsideCheckState`) is read from it, never from a scan, and
 * it moves in the same transaction as the alert it counts.
 */

const linkSchema = z.object({ href: z.string(), text: z.string() });

const outsideAlertSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  integration_id: z.string(),
  dedup_key: z.string(),
  entity_id: z.string(),
  /** When the alert landed on the integration's own entity: which rule named what, and why it did not hold. */
  unmatched: z
    .object({ rule: z.number().int().nullable(), named: z.string().nullable(), why: z.string() })
    .nullable(),
  status: z.enum(['triggered', 'acknowledged', 'resolved']),
  severity: z.enum(SEVERITIES),
  summary: z.string(),
  source: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  links: z.array(linkSchema),
  first_at: z.string(),
  last_at: z.string(),
  resolved_at: z.string().nullable(),
  count: z.number().int(),
  sender_at: z.string().nullable(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type OutsideAlertRecord = z.infer<typeof outsideAlertSchema>;

const partition = (integrationId: string) => `OUTSIDE#${integrationId}`;
const byEntity = (tenantId: string, entityId: string) => `OUTSIDEENT#${tenantId}#${entityId}`;
const byTenant = (tenantId: string) => `OUTSIDETEN#${tenantId}`;
/** The index sort keys' prefix: an alert is found newest heard first. */
const HEARD = 'HEARD#';
const keyHash = (dedupKey: string) => createHash('sha256').update(dedupKey).digest('hex');

const outsideAlert = defineItem({
  type: itemType('outside_alert'),
  schema: outsideAlertSchema,
  key: (k: { integration_id: string; dedup_hash: string }) => ({
    pk: partition(k.integration_id),
    sk: `ALERT#${k.dedup_hash}`,
  }),
  keyOf: (r) => ({ integration_id: r.integration_id, dedup_hash: keyHash(r.dedup_key) }),
  gsi1: (r) => ({ pk: byEntity(r.tenant_id, r.entity_id), sk: `${HEARD}${r.last_at}#${r.id}` }),
  gsi2: (r) => ({ pk: byTenant(r.tenant_id), sk: `${HEARD}${r.last_at}#${r.id}` }),
  docKey: { integration_id: '<int_id>', dedup_hash: '<sha256 of dedup key>' },
});

const tallySchema = z.object({
  critical: z.number().int(),
  error: z.number().int(),
  warning: z.number().int(),
  info: z.number().int(),
  /** Bumped by every move: the outside check's result holds on the count it was read at. */
  writes: z.number().int().optional(),
});
export type OutsideTally = z.infer<typeof tallySchema>;

const outsideTally = defineItem({
  type: itemType('outside_tally'),
  schema: tallySchema,
  key: (k: { integration_id: string; entity_id: string }) => ({
    pk: partition(k.integration_id),
    sk: `TALLY#${k.entity_id}`,
  }),
  // Only ever upserted by its `add`s: the item holds no attribute of its key.
  keyOf: null,
  docKey: { integration_id: '<int_id>', entity_id: '<ent_id>' },
});

/**
 * The integration's open alerts, oldest first within each severity: one entry per open alert
 * (`OPEN#<severity>#<first_at>#<oal_id>`), put and deleted in the alert's own transaction, so the
 * alert that gives way at the bound is one query away. Beside them the count of all of them.
 */
const openEntry = defineItem({
  type: itemType('outside_open_entry'),
  schema: z.object({
    integration_id: z.string(),
    severity: z.enum(SEVERITIES),
    first_at: z.string(),
    id: z.string(),
    dedup_key: z.string(),
  }),
  key: (k: { integration_id: string; severity: string; first_at: string; id: string }) => ({
    pk: partition(k.integration_id),
    sk: `OPEN#${k.severity}#${k.first_at}#${k.id}`,
  }),
  docKey: { integration_id: '<int_id>', severity: '<severity>', first_at: '<first_at>', id: '<oal_id>' },
});

const openCount = defineItem({
  type: itemType('outside_open_count'),
  schema: z.object({ count: z.number().int() }),
  key: (k: { integration_id: string }) => ({ pk: partition(k.integration_id), sk: 'OPENCOUNT' }),
  keyOf: null,
  docKey: { integration_id: '<int_id>' },
});

/** How many alerts of the integration are open. */
export async function openAlertCount(table: Table, integrationId: string): Promise<number> {
  return (await openCount.get(table, { integration_id: integrationId }, { consistent: true }))?.count ?? 0;
}

/** The dedup key of the oldest open alert of the lowest severity that has one (what gives way at the bound). */
export async function oldestLowestOpen(table: Table, integrationId: string): Promise<string | undefined> {
  for (const severity of [...SEVERITIES].reverse()) {
    const page = await table.query({
      pk: partition(integrationId),
      sk: { op: 'beginsWith', prefix: `OPEN#${severity}#` },
      consistent: true,
      limit: 1,
    });
    const [first] = openEntry.parseAll(page.items);
    if (first) return first.dedup_key;
  }
  return undefined;
}

/** The stored alert of a dedup key, or undefined. */
export function getOutsideAlert(table: Table, integrationId: string, dedupKey: string) {
  return outsideAlert.get(
    table,
    { integration_id: integrationId, dedup_hash: keyHash(dedupKey) },
    { consistent: true },
  );
}

/** Open alerts of an integration on an entity, by severity (all zero when it has none). */
export async function getOutsideTally(
  table: Table,
  integrationId: string,
  entityId: string,
): Promise<OutsideTally> {
  const tally = await outsideTally.get(
    table,
    { integration_id: integrationId, entity_id: entityId },
    { consistent: true },
  );
  return tally ?? { critical: 0, error: 0, warning: 0, info: 0 };
}

/** Holds a write (the outside check's result) on the tally being as read: no reading lands after a newer one. */
export function outsideTallyHold(integrationId: string, entityId: string, tally: OutsideTally): WriteOp {
  const writes = tally.writes ?? 0;
  return outsideTally.conditionCheck(
    { integration_id: integrationId, entity_id: entityId },
    writes === 0
      ? { kind: 'attrNotExists', attr: 'writes' }
      : { kind: 'compare', attr: 'writes', op: '=', value: writes },
  );
}

/** The open alerts a tally counts, one per severity that has any (what `outsideCheckState` reads). */
export function openOf(tally: OutsideTally): { status: 'triggered'; severity: Severity }[] {
  return SEVERITIES.filter((s) => tally[s] > 0).map((severity) => ({ status: 'triggered', severity }));
}

const isOpen = (state: Pick<OutsideAlertRecord, 'status'> | undefined) =>
  state !== undefined && state.status !== 'resolved';

/**
 * The writes of an alert's change: the alert over the version it was read at (or new), and the
 * tally of its entity moved by what changed among the open ones. `prev` and `next` are on one
 * entity: an alert does not move between entities.
 */
export function outsideAlertWrittenOps(
  prev: OutsideAlertRecord | undefined,
  next: OutsideAlertRecord,
): WriteOp[] {
  const ops: WriteOp[] = [
    outsideAlert.put(
      next,
      prev ? { kind: 'compare', attr: 'version', op: '=', value: prev.version } : { kind: 'itemNotExists' },
    ),
  ];
  const add: Partial<Record<Severity, number>> = {};
  if (isOpen(prev) && prev) add[prev.severity] = (add[prev.severity] ?? 0) - 1;
  if (isOpen(next)) add[next.severity] = (add[next.severity] ?? 0) + 1;
  const moved = Object.entries(add).filter(([, n]) => n !== 0);
  if (moved.length > 0) {
    ops.push(
      outsideTally.upsert(
        { integration_id: next.integration_id, entity_id: next.entity_id },
        { add: { critical: 0, error: 0, warning: 0, info: 0, ...Object.fromEntries(moved), writes: 1 } },
      ),
    );
  }
  const entryOf = (r: OutsideAlertRecord) => ({
    integration_id: r.integration_id,
    severity: r.severity,
    first_at: r.first_at,
    id: r.id,
    dedup_key: r.dedup_key,
  });
  const was = isOpen(prev) && prev ? entryOf(prev) : undefined;
  const is = isOpen(next) ? entryOf(next) : undefined;
  if (was && (!is || was.severity !== is.severity || was.first_at !== is.first_at))
    ops.push(openEntry.delete(was));
  if (is && (!was || was.severity !== is.severity || was.first_at !== is.first_at))
    ops.push(openEntry.put(is));
  const counted = (is ? 1 : 0) - (was ? 1 : 0);
  if (counted !== 0)
    ops.push(openCount.upsert({ integration_id: next.integration_id }, { add: { count: counted } }));
  return ops;
}

/** One page of alerts, newest heard first: of one entity, or of the whole tenant. */
export async function pageOutsideAlerts(
  deps: PageDeps,
  where: { tenantId: string; entityId?: string | undefined },
  page: PageRequest,
  keep: (alert: OutsideAlertRecord) => boolean,
): Promise<{ alerts: OutsideAlertRecord[]; nextCursor: string | null }> {
  const source =
    where.entityId === undefined
      ? { index: 'gsi2' as const, pk: byTenant(where.tenantId), prefix: HEARD }
      : { index: 'gsi1' as const, pk: byEntity(where.tenantId, where.entityId), prefix: HEARD };
  const result = await readPage(
    deps,
    source,
    page,
    (item) => outsideAlert.is(item) && keep(outsideAlert.parse(item)),
  );
  return { alerts: outsideAlert.parseAll(result.items), nextCursor: result.nextCursor };
}

/**
 * Up to `want` alerts on an entity that `keep` accepts (every integration's), newest heard first:
 * reads the entity's alerts until that many are found, at most its integrations' open-alert bounds.
 */
export async function alertsOnEntity(
  table: Table,
  where: { tenantId: string; entityId: string; want: number },
  keep: (alert: OutsideAlertRecord) => boolean,
): Promise<OutsideAlertRecord[]> {
  const { tenantId, entityId, want } = where;
  const query = {
    index: 'gsi1',
    pk: byEntity(tenantId, entityId),
    sk: { op: 'beginsWith', prefix: HEARD },
  } as const;
  const kept = (item: Item) => outsideAlert.is(item) && keep(outsideAlert.parse(item));
  return outsideAlert.parseAll(await readNewestFirst(table, query, { want, cursor: undefined, keep: kept }));
}

/** The entities an integration's alerts ever opened on (each has a tally, and an outside check). */
export async function outsideTallyEntities(table: Table, integrationId: string): Promise<string[]> {
  const entities: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({
      pk: partition(integrationId),
      sk: { op: 'beginsWith', prefix: 'TALLY#' },
      consistent: true,
      ...(cursor ? { cursor } : {}),
    });
    entities.push(...page.items.filter(outsideTally.is).map((item) => item.sk.slice('TALLY#'.length)));
    cursor = page.cursor;
  } while (cursor);
  return entities;
}

/** One round of emptying an integration's partition (all its items): the next `limit` deletes, and whether more remain. */
export function integrationPartitionDeletes(table: Table, integrationId: string, limit: number) {
  return partitionDeletes(table, partition(integrationId), limit);
}
