import { readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import { delaySecondsFor, type JobInput } from '../../platform/job-queue.ts';
import { transactIf } from '../../store/items.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { type DeliveryRecord, deliveryChangedOp } from '../items/delivery-items.ts';
import { batchJoinedOps, batchOpenedOps, type DigestEntry, readGroup } from '../items/group-items.ts';
import { digestJobId } from '../items/job-ids.ts';
import { payloadKindOf } from '../items/payload-kind.ts';
import { type GroupBy, listRoutes, type RouteRecord } from '../items/route-items.ts';
import { routeMatches } from '../items/route-match.ts';
import type { NotifyJob } from '../jobs.ts';
import { individualSendsLeft, readAlertSettings, takeIndividualSend } from './fold-items.ts';

/**
 * Where grouping and the storm fold take an alert (docs/notifications.md "Grouping and the storm
 * fold"): each pending alert record, just stored, either goes out alone (a `deliver` job, as
 * before) or joins its channel's group batch (stored `folded`, reason `in digest <batch>`), whose
 * `digest` job flushes it. A route naming the channel that groups (group_by blueprint or tenant,
 * or a group_wait) groups it; otherwise the channel's fold counter lets `alert_fold_per_minute`
 * through per minute and folds the rest, by the route's blueprint or tenant grouping (blueprint
 * for entity grouping and for the check's own channels: a storm is one digest per blueprint).
 */

/** The storm fold's batches: collected 5 s, then at most one per group per minute. */
const FOLD_WAIT_SECONDS = 5;
const FOLD_INTERVAL_SECONDS = 60;

/** Where one record goes when it does not go alone. */
export interface GroupPlan {
  scope: 'route' | 'fold';
  by: GroupBy;
  key: string;
  name: string;
  waitSeconds: number;
  intervalSeconds: number;
}

type Group = Pick<GroupPlan, 'by' | 'key' | 'name'>;

function groupOf(by: GroupBy, event: StateChangeEvent, blueprint: string): Group {
  if (by === 'entity') return { by, key: event.entity_id, name: event.entity_name };
  if (by === 'blueprint') return { by, key: blueprint, name: blueprint || 'entities' };
  return { by, key: event.tenant_id, name: 'all entities' };
}

/**
 * What the plans of one event's records share: its routes, blueprint and fold limit, read once when
 * asked; `known` spares the reads a job's context made already (pipeline/job-context.ts).
 */
export function groupingContext(
  table: Table,
  tenantId: string,
  known: { routes?: RouteRecord[]; blueprints?: ReadonlyMap<string, string> } = {},
) {
  let routes: Promise<RouteRecord[]> | undefined = known.routes && Promise.resolve(known.routes);
  let limit: Promise<number> | undefined;
  const blueprints = new Map<string, Promise<string>>(
    [...(known.blueprints ?? [])].map(([id, slug]) => [id, Promise.resolve(slug)]),
  );
  return {
    table,
    routes: () => {
      routes ??= listRoutes(table, tenantId);
      return routes;
    },
    limit: () => {
      limit ??= readAlertSettings(table, tenantId).then((s) => s.alert_fold_per_minute);
      return limit;
    },
    blueprint: (entityId: string) => {
      let found = blueprints.get(entityId);
      if (!found) {
        found = readEntityById(table, tenantId, entityId).then((e) => e?.blueprint_slug ?? '');
        blueprints.set(entityId, found);
      }
      return found;
    },
  };
}
export type GroupingContext = ReturnType<typeof groupingContext>;

/** The routes reaching `channelId` that match the event, the one of them that groups it, and its blueprint. */
async function reachOf(ctx: GroupingContext, channelId: string, event: StateChangeEvent) {
  const blueprint = await ctx.blueprint(event.entity_id);
  const subject = { entity_id: event.entity_id, blueprint_slug: blueprint, to_state: event.to_state };
  const routes = (await ctx.routes()).filter(
    (route) => route.channel_ids.includes(channelId) && routeMatches(route.match, subject),
  );
  const grouping = routes.find((r) => r.group_by !== 'entity' || r.group_wait_seconds > 0);
  return { blueprint, routes, grouping };
}

function routePlan(grouping: RouteRecord, event: StateChangeEvent, blueprint: string): GroupPlan {
  return {
    scope: 'route',
    ...groupOf(grouping.group_by, event, blueprint),
    waitSeconds: grouping.group_wait_seconds,
    intervalSeconds: grouping.group_interval_seconds,
  };
}

function foldPlan(routes: RouteRecord[], event: StateChangeEvent, blueprint: string): GroupPlan {
  const by = routes.some((r) => r.group_by === 'tenant') ? 'tenant' : 'blueprint';
  return {
    scope: 'fold',
    ...groupOf(by, event, blueprint),
    waitSeconds: FOLD_WAIT_SECONDS,
    intervalSeconds: FOLD_INTERVAL_SECONDS,
  };
}

/** What the storm fold counts and folds: every message about a state, not a test or a notice. */
const FOLDED_KINDS: ReadonlySet<DeliveryRecord['kind']> = new Set([
  'alert',
  'also_failing',
  'repeat',
  'escalation',
]);

/** The plan of one pending alert record on a channel: alone (undefined) or into a group. */
export async function planFor(
  ctx: GroupingContext,
  record: DeliveryRecord,
  nowMs: number,
): Promise<GroupPlan | undefined> {
  const channelId = record.channel_id;
  if (!FOLDED_KINDS.has(record.kind) || record.status !== 'pending' || !channelId) return undefined;
  const { event } = record;
  const { blueprint, routes, grouping } = await reachOf(ctx, channelId, event);
  // A route groups the state changes; repeats and escalations keep their own schedules and only fold.
  if (grouping && (record.kind === 'alert' || record.kind === 'also_failing'))
    return routePlan(grouping, event, blueprint);
  const limit = await ctx.limit();
  const alone = await takeIndividualSend(ctx.table, {
    tenant_id: record.tenant_id,
    channel_id: channelId,
    limit,
    nowMs,
  });
  return alone ? undefined : foldPlan(routes, event, blueprint);
}

/**
 * Read-only (for `POST /v1/notify/simulate`): where an alert about `event` on `channelId` would go
 * now, without taking a send from the fold counter: alone (undefined), into a route's group, or
 * folded because the channel had its individual alerts of the last minute.
 */
export async function previewPlan(
  ctx: GroupingContext,
  channelId: string,
  event: StateChangeEvent,
  nowMs: number,
): Promise<GroupPlan | undefined> {
  const { blueprint, routes, grouping } = await reachOf(ctx, channelId, event);
  if (grouping) return routePlan(grouping, event, blueprint);
  const left = await individualSendsLeft(ctx.table, {
    tenant_id: event.tenant_id,
    channel_id: channelId,
    limit: await ctx.limit(),
    nowMs,
  });
  return left > 0 ? undefined : foldPlan(routes, event, blueprint);
}

/** The flush job of a batch (its id the same whoever enqueues it). */
export function digestJob(
  record: Pick<DeliveryRecord, 'tenant_id' | 'channel_id'>,
  batch: { batch_id: string; group_id: string; due_ms: number },
  nowMs: number,
): JobInput<NotifyJob> {
  return {
    id: digestJobId(batch.batch_id),
    body: {
      kind: 'digest',
      tenant_id: record.tenant_id,
      channel_id: record.channel_id ?? '',
      group_id: batch.group_id,
      batch_id: batch.batch_id,
      due_ms: batch.due_ms,
    },
    delaySeconds: delaySecondsFor(batch.due_ms, nowMs),
  };
}

/** A record's entry in `batch` and the write that marks it folded there (while still pending). */
function foldedInto(
  record: DeliveryRecord,
  batch: { batch_id: string; group_id: string; due_ms: number },
  nowMs: number,
) {
  const entry: DigestEntry = {
    tenant_id: record.tenant_id,
    batch_id: batch.batch_id,
    delivery_id: record.id,
    kind: payloadKindOf(record.kind, record.event),
    event: record.event,
    ...(record.channel_check_id ? { channel_check_id: record.channel_check_id } : {}),
  };
  const folded = deliveryChangedOp(
    record.tenant_id,
    record.id,
    { status: 'folded', reason: `in digest ${batch.batch_id}`, digest: batch, updated_at: isoTime(nowMs) },
    { kind: 'compare', attr: 'status', op: '=', value: 'pending' },
  );
  return { entry, folded };
}

/**
 * Joins the record to `batch` when it is still open (its flush job is already queued): the next
 * change of an entity whose channel's last word waits in a digest goes into that digest, so the
 * channel hears the changes in their order and a flip inside a group's wait is not told as the
 * same word twice (DECISIONS.md "Alert truth (wave 5)"). False when the batch was flushed meanwhile.
 */
export async function joinOpenBatch(
  table: Table,
  record: DeliveryRecord,
  batch: { batch_id: string; group_id: string; due_ms: number },
  nowMs: number,
): Promise<boolean> {
  if (!FOLDED_KINDS.has(record.kind) || record.status !== 'pending' || !record.channel_id) return false;
  const key = { tenant_id: record.tenant_id, channel_id: record.channel_id, group_id: batch.group_id };
  const { entry, folded } = foldedInto(record, batch, nowMs);
  return transactIf(table, [...batchJoinedOps(key, batch.batch_id, entry), folded]);
}

/** Tries a few times: each lost race means another alert opened or a flush closed the batch meanwhile. */
const MAX_TRIES = 8;

/**
 * Puts the record into its group's open batch, or opens one due after the group's wait (and not
 * before `interval` after its last flush); answers the flush job to enqueue when it opened the
 * batch (after the write: a crash in between is covered by the redelivered event job, which finds
 * the record `folded` and enqueues the flush again).
 */
export async function placeInGroup(
  table: Table,
  record: DeliveryRecord,
  plan: GroupPlan,
  nowMs: number,
): Promise<JobInput<NotifyJob> | undefined> {
  const channelId = record.channel_id ?? '';
  const key = {
    tenant_id: record.tenant_id,
    channel_id: channelId,
    group_id: `${plan.scope}:${plan.by}:${plan.key}`,
  };
  for (let tries = 0; tries < MAX_TRIES; tries += 1) {
    const group = await readGroup(table, key);
    const open = group?.open;
    const dueMs =
      open !== undefined && group?.open_due_ms !== undefined
        ? group.open_due_ms
        : Math.max(
            nowMs + plan.waitSeconds * 1000,
            (group?.last_flush_ms ?? 0) + plan.intervalSeconds * 1000,
          );
    const batchId = open ?? deterministicId('dig', dueMs, `${key.channel_id}|${key.group_id}|${record.id}`);
    const batch = { batch_id: batchId, group_id: key.group_id, due_ms: dueMs };
    const { entry, folded } = foldedInto(record, batch, nowMs);
    const ops =
      open !== undefined
        ? batchJoinedOps(key, open, entry)
        : batchOpenedOps({ ...key, by: plan.by, key: plan.key, name: plan.name }, batchId, dueMs, entry);
    try {
      await table.transact([...ops, folded]);
      // The batch's opener enqueues its flush; an alert joining it adds none.
      return open === undefined ? digestJob(record, batch, nowMs) : undefined;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  throw new Error(`group ${key.group_id} of channel ${channelId} stayed contended; the job is retried`);
}
