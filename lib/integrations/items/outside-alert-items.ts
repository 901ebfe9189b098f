import { createHash } from 'node:crypto';
import * as z from 'zod';
import { ALERT_SEVERITIES as SEVERITIES, type AlertSeverity as Severity } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { PageDeps, PageRequest } from '../../store/paging.ts';
import { readNewestFirst, readPage } from '../../store/paging.ts';
import { partitionDeletes } from '../../store/partition-purge.ts';
import type { Table, WriteOp } from '../../store/table.ts';

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
        { add: { critical: 0, error: 0, warning: 0, info: 0, ...Object.fromEntries(moved) } },
      ),
    );
  }
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
 * The newest-heard open alert of `severity` of the integration on the entity, or undefined (the
 * outside result's reason when the request at hand wrote none of that severity). Reads the entity's
 * alerts newest first until one is found: at most the integration's open-alert bound.
 */
export async function latestOpenAlert(
  table: Table,
  integration: { id: string; tenant_id: string },
  entityId: string,
  severity: Severity,
): Promise<OutsideAlertRecord | undefined> {
  const [found] = await readNewestFirst(
    table,
    { index: 'gsi1', pk: byEntity(integration.tenant_id, entityId), sk: { op: 'beginsWith', prefix: HEARD } },
    {
      want: 1,
      cursor: undefined,
      keep: (item) => {
        if (!outsideAlert.is(item)) return false;
        const alert = outsideAlert.parse(item);
        return (
          alert.integration_id === integration.id &&
          alert.status !== 'resolved' &&
          alert.severity === severity
        );
      },
    },
  );
  return found === undefined ? undefined : outsideAlert.parse(found);
}

/**
 * One round of emptying an integration's partition (its alerts, tallies and payload log, whatever
 * their owner here): the deletes of its next `limit` items, and whether more remain.
 */
export function integrationPartitionDeletes(table: Table, integrationId: string, limit: number) {
  return partitionDeletes(table, partition(integrationId), limit);
}
