import * as z from 'zod';
import { readEntityPointers } from '../catalog/entity-items.ts';
import { checkNameOf } from '../check-types/check-name.ts';
import { checkDefinitionsById } from '../checks/check-items.ts';
import { isRecovery } from '../domain/state-change-event.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import type { Table } from '../store/table.ts';
import type { ChannelStore } from './channel-store.ts';
import { CHANNEL_TYPES, registeredType } from './channels/registry.ts';
import { DELIVERY_KINDS, DELIVERY_STATUSES, type DeliveryRecord } from './delivery-items.ts';
import { nextCursor } from './responses.ts';

/**
 * Delivery records as the API shows them: DECISIONS.md's fields, the event in one word, and the
 * names a reader needs (entity, its page, check, shared channel), read per page in batches so the
 * console needs no directory of the tenant's entities or checks.
 */

/**
 * What a delivery told its channel, in one word: the state change (`down`, `degraded`, `recovery`;
 * `up` for a first result, `unknown` for a change to unknown), a `repeat` (a reminder while still
 * down), a `test`, an `escalation` or `also_failing` (a check failing on an entity already down). Derived from the stored kind and state change on every read, so records
 * written before the field existed carry it too.
 */
export const DELIVERY_EVENTS = [
  'down',
  'degraded',
  'recovery',
  'up',
  'unknown',
  'repeat',
  'test',
  'escalation',
  'digest',
  'flapping',
  'acknowledge',
  'also_failing',
] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

/** The event a delivery record carries (see DELIVERY_EVENTS). */
export function deliveryEvent(record: Pick<DeliveryRecord, 'kind' | 'event'>): DeliveryEvent {
  if (record.kind !== 'alert') return record.kind;
  const to = record.event.to_state;
  if (isRecovery(record.event)) return 'recovery';
  return to === 'down' || to === 'degraded' || to === 'up' ? to : 'unknown';
}

export const publicDeliverySchema = z
  .strictObject({
    id: idSchema('dlv'),
    kind: z.enum(DELIVERY_KINDS),
    event: z.enum(DELIVERY_EVENTS).meta({
      description:
        'What was delivered: `down`, `degraded` or `recovery` (a state change; `up` for a first result, ' +
        '`unknown` for a change to unknown), `repeat` (a reminder while still down), `test`, or ' +
        "`escalation` (an incident left unacknowledged, sent to its routes' escalation channels), or " +
        '`acknowledge` (the incident acknowledged in Vigil, told to a PagerDuty or Opsgenie channel), or ' +
        '`also_failing` (a check that started failing on an entity already down)',
    }),
    channel_id: idSchema('chn').nullable(),
    channel_name: z.string().nullable().meta({
      description:
        'The shared (tenant) channel’s name; null for a check’s own channel, none, or a deleted one',
    }),
    check_id: idSchema('chk')
      .nullable()
      .meta({ description: 'null only for the test message of a shared channel attached to no check' }),
    check_name: z.string().nullable().meta({ description: 'The check’s name; null when it is gone or none' }),
    entity_id: idSchema('ent').nullable().meta({ description: 'null exactly when check_id is' }),
    entity_name: z.string().nullable().meta({
      description: 'The entity’s name (as the event named it once the entity is gone); null when check_id is',
    }),
    blueprint_slug: z.string().nullable().meta({
      description:
        'With entity_slug, where the entity is (/v1/blueprints/{bp}/entities/{slug}); null once it is gone',
    }),
    entity_slug: z.string().nullable(),
    transition_id: idSchema('trn').nullable(),
    channel_type: z.enum(CHANNEL_TYPES).nullable(),
    status: z.enum(DELIVERY_STATUSES),
    reason: z.string().nullable().meta({
      description:
        'Why nothing was sent (status skipped), or when it will be (status deferred: `deferred: cooldown, due <time>`)',
    }),
    attempts: z.number().int(),
    attempt_log: z.array(
      z.strictObject({
        at: timestampSchema,
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
      }),
    ),
    sent_at: timestampSchema.nullable(),
    error: z.string().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Delivery' });

export const logsPageSchema = z.strictObject({
  logs: z.array(publicDeliverySchema),
  next_cursor: nextCursor,
});

/** The names of what a page of records refers to, by id (absent: gone, or not read). */
export interface DeliveryNames {
  entities: ReadonlyMap<string, { name?: string | undefined; blueprint_slug: string; slug: string }>;
  checks: ReadonlyMap<string, string>;
  channels: ReadonlyMap<string, string>;
}

const NO_NAMES: DeliveryNames = { entities: new Map(), checks: new Map(), channels: new Map() };

/** Reads the names of the entities, checks and tenant channels `records` refer to: three batch reads. */
export async function readDeliveryNames(
  deps: { table: Table; channels: Pick<ChannelStore, 'getSharedMany'> },
  tenantId: string,
  records: readonly DeliveryRecord[],
): Promise<DeliveryNames> {
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))];
  const [entities, checks, channels] = await Promise.all([
    readEntityPointers(deps.table, tenantId, distinct(records.map((r) => r.entity_id))),
    checkDefinitionsById(deps.table, tenantId, distinct(records.map((r) => r.check_id))),
    deps.channels.getSharedMany(tenantId, distinct(records.map((r) => r.channel_id))),
  ]);
  return {
    entities: new Map(entities.map((e) => [e.id, e])),
    checks: new Map(checks.map((c) => [c.id, checkNameOf(c)])),
    channels: new Map(channels.map((c) => [c.id, c.name])),
  };
}

/** A delivery record as the API shows it, named by `names`; never the channel config. */
export function publicDelivery(
  record: DeliveryRecord,
  names: DeliveryNames = NO_NAMES,
): z.output<typeof publicDeliverySchema> {
  // A shared channel's test about no check stores empty ids (its event names no entity or check).
  const checkId = record.check_id || null;
  const entityId = record.entity_id || null;
  const entity = entityId ? names.entities.get(entityId) : undefined;
  return {
    id: record.id,
    kind: record.kind,
    event: deliveryEvent(record),
    channel_id: record.channel_id,
    channel_name: (record.channel_id && names.channels.get(record.channel_id)) || null,
    check_id: checkId,
    check_name: (checkId && names.checks.get(checkId)) || null,
    entity_id: entityId,
    entity_name: entityId ? (entity?.name ?? record.event.entity_name) : null,
    blueprint_slug: entity?.blueprint_slug ?? null,
    entity_slug: entity?.slug ?? null,
    transition_id: record.transition_id,
    channel_type: record.channel_type === null ? null : registeredType(record.channel_type),
    status: record.status,
    reason: record.reason,
    attempts: record.attempts,
    attempt_log: record.attempt_log.map((a) => ({ at: a.at, status_code: a.status_code, error: a.error })),
    sent_at: record.sent_at,
    error: record.error,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** Shows records of a tenant as the API does, their names read in one go (publicDeliveries over the stores). */
export type ShowDeliveries = (
  tenantId: string,
  records: readonly DeliveryRecord[],
) => Promise<z.output<typeof publicDeliverySchema>[]>;

/** One record as the API shows it, named. */
export async function showOne(
  show: ShowDeliveries,
  tenantId: string,
  record: DeliveryRecord,
): Promise<z.output<typeof publicDeliverySchema>> {
  const [shown] = await show(tenantId, [record]);
  return shown ?? publicDelivery(record);
}

/** Records as the API shows them, with their names read in one go. */
export async function publicDeliveries(
  deps: { table: Table; channels: Pick<ChannelStore, 'getSharedMany'> },
  tenantId: string,
  records: readonly DeliveryRecord[],
): Promise<z.output<typeof publicDeliverySchema>[]> {
  const names = await readDeliveryNames(deps, tenantId, records);
  return records.map((record) => publicDelivery(record, names));
}
