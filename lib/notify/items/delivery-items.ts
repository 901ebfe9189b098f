import * as z from 'zod';
import { stateChangeEventSchema } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { type PageDeps, readScannedPage, unexpired } from '../../store/paging.ts';
import {
  type Condition,
  type IndexName,
  type Item,
  MAX_QUERY_LIMIT,
  type Table,
  type UpdateOp,
  type WriteOp,
} from '../../store/table.ts';

/**
 * Owner of `delivery`: one record per event (or repeat, test, escalation) and channel, expiring with results.
 * It lives in the tenant's delivery partition (it outlives a deleted check, like transitions), on
 * gsi1 under its check and on gsi2 under its channel (when it names one). Delivery ids are
 * time-ordered, so every list is newest first.
 */

/**
 * folded: not sent alone, but as part of a digest (`reason` names it; lib/notify/grouping);
 * deferred: a recovery held to its cooldown's end (deferred-recovery.ts), sent then under a record of its own.
 */
export const DELIVERY_STATUSES = [
  'pending',
  'retrying',
  'sent',
  'failed',
  'skipped',
  'folded',
  'deferred',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * alert: the state change itself; repeat: a re-send while down; test: POST .../policy/test;
 * escalation: an incident left unacknowledged, sent once per channel to its routes' escalation channels;
 * digest: one part of a group's or the storm fold's digest (lib/notify/grouping), its `event` the first folded one;
 * acknowledge: an incident acknowledged in Vigil, told to a channel that got its alerts and whose type tracks incidents (acknowledge.ts);
 * also_failing: a check that started failing on an entity already down (also-failing-alert.ts).
 */
export const DELIVERY_KINDS = [
  'alert',
  'repeat',
  'test',
  'escalation',
  'digest',
  'flapping',
  'acknowledge',
  'also_failing',
] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** One attempt of a delivery. */
const attemptSchema = z.object({
  at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type Attempt = z.infer<typeof attemptSchema>;

/**
 * One delivery record (DECISIONS.md's field list). A skip with no channel to name (the policy has
 * none) has `channel_id` and `channel_type` null.
 */
const deliverySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  channel_id: z.string().nullable(),
  check_id: z.string(),
  entity_id: z.string(),
  /** null for a test message. */
  transition_id: z.string().nullable(),
  // A registered type's name (channels/registry.ts); null for a delivery that reached no channel.
  channel_type: z.string().nullable(),
  kind: z.enum(DELIVERY_KINDS),
  status: z.enum(DELIVERY_STATUSES),
  /** Why nothing was sent (status skipped), e.g. "silenced" or "upstream api is down". */
  reason: z.string().nullable(),
  attempts: z.number().int(),
  attempt_log: z.array(attemptSchema),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * The check that owns the channel when it is a check's own channel (a channel told of the entity
   * by another check's alert is found under its owner), null for a tenant channel; absent on
   * records stored before wave 5 (their channel is the record check's or a tenant channel).
   */
  channel_check_id: z.string().nullable().optional(),
  /** The event this delivery carries (what each attempt sends). */
  event: stateChangeEventSchema,
  /**
   * The digest batch: on a `folded` record the batch it joined (its group and flush time, so a
   * redelivered job can enqueue the flush again); on a `digest` record also its part (1-based) of
   * parts and the number of events in it.
   */
  digest: z
    .object({
      batch_id: z.string(),
      group_id: z.string(),
      due_ms: z.number().int(),
      part: z.number().int().optional(),
      parts: z.number().int().optional(),
      events: z.number().int().optional(),
    })
    .optional(),
});
export type DeliveryRecord = z.infer<typeof deliverySchema>;

/** The bookkeeping of a delivery made at `nowMs` and not tried yet: no attempt, nothing sent, no error. */
export function untriedDelivery(nowMs: number) {
  const at = isoTime(nowMs);
  return {
    attempts: 0,
    attempt_log: [],
    sent_at: null,
    error: null,
    created_at: at,
    updated_at: at,
  } satisfies Partial<DeliveryRecord>;
}

const deliveriesPk = (tenantId: string) => `DLV#${tenantId}`;
const checkDeliveriesPk = (tenantId: string, checkId: string) => `DLV#${tenantId}#CHECK#${checkId}`;
const channelDeliveriesPk = (tenantId: string, channelId: string) => `DLV#${tenantId}#CHN#${channelId}`;

const delivery = defineItem({
  type: itemType('delivery'),
  schema: deliverySchema,
  key: (k: { tenant_id: string; id: string }) => ({ pk: deliveriesPk(k.tenant_id), sk: k.id }),
  // A shared channel's test about no check has no check to be listed under.
  gsi1: (r) => (r.check_id ? { pk: checkDeliveriesPk(r.tenant_id, r.check_id), sk: r.id } : undefined),
  gsi2: (r) => (r.channel_id ? { pk: channelDeliveriesPk(r.tenant_id, r.channel_id), sk: r.id } : undefined),
  // Expires with results: the tenant's retention (a setting the record does not carry) after its creation.
  ttl: (r, c: { retentionDays: number }) =>
    Math.floor(Date.parse(r.created_at) / 1000) + c.retentionDays * 86_400,
  docKey: { tenant_id: '<tnt>', id: '<dlv_id>' },
});

/** The put of a new record (`itemNotExists`: a redelivered job finds it stored), kept `retentionDays`. */
export function deliveryCreatedOp(record: DeliveryRecord, retentionDays: number): WriteOp {
  return delivery.put(record, { kind: 'itemNotExists' }, { retentionDays });
}

/** The update of fields of a stored record (never creates one), also holding `condition` when given. */
export function deliveryChangedOp(
  tenantId: string,
  id: string,
  set: Partial<Omit<DeliveryRecord, 'id' | 'tenant_id'>>,
  condition?: Condition,
): UpdateOp {
  const exists: Condition = { kind: 'itemExists' };
  return delivery.update(
    { tenant_id: tenantId, id },
    { set, condition: condition ? { kind: 'and', conditions: [exists, condition] } : exists },
  );
}

/** Parses a delivery item (the one an update answers). */
export const parseDelivery = (item: Item): DeliveryRecord => delivery.parse(item);

/** One delivery record of the tenant (consistent), or undefined. */
export function getDelivery(table: Table, tenantId: string, id: string): Promise<DeliveryRecord | undefined> {
  return delivery.get(table, { tenant_id: tenantId, id }, { consistent: true });
}

/** Filters and page of GET /v1/notify/logs. */
export interface DeliveryListRequest {
  check_id?: string | undefined;
  channel_id?: string | undefined;
  entity_id?: string | undefined;
  status?: DeliveryStatus | undefined;
  /** A digest's batch: the digest and the alerts folded into it. */
  batch_id?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** Records one page reads at most, kept or not. */
const MAX_SCANNED = 1000;
const PREFIX = 'dlv_';

/** The partition a list reads: a channel's (gsi2), a check's (gsi1), or the whole tenant's. */
function sourceOf(tenantId: string, filter: DeliveryListRequest): { index?: IndexName; pk: string } {
  if (filter.check_id) return { index: 'gsi1', pk: checkDeliveriesPk(tenantId, filter.check_id) };
  if (filter.channel_id) return { index: 'gsi2', pk: channelDeliveriesPk(tenantId, filter.channel_id) };
  return { pk: deliveriesPk(tenantId) };
}

/** The digest batch a stored record names, if any. */
function batchOf(item: Item): unknown {
  const digest = item.digest;
  return digest && typeof digest === 'object' && 'batch_id' in digest ? digest.batch_id : undefined;
}

/**
 * A page of the tenant's unexpired records, newest first, filtered by check, channel, entity,
 * status and digest batch as read (an entity's records are the tenant's, filtered: none has an index of its own). Unlike lib/store/paging.ts, a page stops after MAX_SCANNED records whatever it kept, so a
 * rare status costs a bounded read per request and may answer fewer than `limit` (even none) with
 * a cursor (null exactly at the end) to read on after the last record scanned.
 */
export async function readDeliveryLog(
  deps: PageDeps,
  tenantId: string,
  request: DeliveryListRequest,
  nowMs: number,
): Promise<{ deliveries: DeliveryRecord[]; nextCursor: string | null }> {
  const source = { ...sourceOf(tenantId, request), prefix: PREFIX };
  const live = unexpired(nowMs);
  const keep = (item: Item) =>
    live(item) &&
    (request.status === undefined || item.status === request.status) &&
    (request.channel_id === undefined || item.channel_id === request.channel_id) &&
    (request.entity_id === undefined || item.entity_id === request.entity_id) &&
    (request.batch_id === undefined || batchOf(item) === request.batch_id);
  const page = await readScannedPage(deps, source, {
    sk: { op: 'beginsWith', prefix: PREFIX },
    limit: request.limit,
    cursor: request.cursor,
    maxScanned: MAX_SCANNED,
    keep,
  });
  return { deliveries: page.items.map(parseDelivery), nextCursor: page.nextCursor };
}

/**
 * The tenant's delivery records of one entity whose ids' time (the event's, or a repeat's due
 * time) is from `fromMs` to `toMs`, oldest first, reading at most `maxScanned` records of the
 * tenant (consistent): an incident's alerts. `truncated` says the read stopped at the bound.
 */
export async function readEntityDeliveriesBetween(
  table: Table,
  tenantId: string,
  input: { entityId: string; fromMs: number; toMs: number; maxScanned: number },
): Promise<{ deliveries: DeliveryRecord[]; truncated: boolean }> {
  // A delivery id's first 10 characters after the prefix are its time (lib/platform/ids.ts).
  const timePart = (ms: number) => deterministicId('dlv', ms, '').slice(0, PREFIX.length + 10);
  const kept: DeliveryRecord[] = [];
  let scanned = 0;
  let cursor: string | undefined;
  do {
    const page = await table.query({
      pk: deliveriesPk(tenantId),
      sk: { op: 'between', low: timePart(input.fromMs), high: `${timePart(input.toMs)}~` },
      consistent: true,
      limit: Math.min(MAX_QUERY_LIMIT, input.maxScanned - scanned),
      cursor,
    });
    scanned += page.items.length;
    for (const item of page.items) if (item.entity_id === input.entityId) kept.push(parseDelivery(item));
    cursor = page.cursor;
  } while (cursor && scanned < input.maxScanned);
  return { deliveries: kept, truncated: cursor !== undefined };
}

/**
 * Calls `visit` with each of the tenant's unexpired delivery records and its stored expiry (epoch
 * seconds, undefined when it has none), oldest first, a page of MAX_QUERY_LIMIT at a time
 * (consistent): the one-time seed of the channels' last words (notify/pipeline/told-seed.ts).
 */
export async function forEachDelivery(
  table: Table,
  tenantId: string,
  nowMs: number,
  visit: (record: DeliveryRecord, ttl: number | undefined) => void | Promise<void>,
): Promise<void> {
  const live = unexpired(nowMs);
  let cursor: string | undefined;
  do {
    const page = await table.query({
      pk: deliveriesPk(tenantId),
      sk: { op: 'beginsWith', prefix: PREFIX },
      consistent: true,
      limit: MAX_QUERY_LIMIT,
      cursor,
    });
    for (const item of page.items) {
      if (delivery.is(item) && live(item)) await visit(parseDelivery(item), item.ttl);
    }
    cursor = page.cursor;
  } while (cursor);
}
