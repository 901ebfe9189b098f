import * as z from 'zod';
import { readEntityPointers } from '../../catalog/entities.ts';
import { checkNameOf } from '../../check-types/check-name.ts';
import { checkDefinitionsById } from '../../checks/check-items.ts';
import { isRecovery } from '../../domain/states.ts';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import type { Table } from '../../store/table.ts';
import { nextCursor } from '../api-schemas/responses.ts';
import { CHANNEL_TYPES, registeredType } from '../channels/registry.ts';
import type { ChannelStore } from '../items/channel-store.ts';
import {
  DELIVERY_KINDS,
  DELIVERY_STATUSES,
  type DeliveryKind,
  type DeliveryRecord,
} from '../items/delivery-items.ts';
import { readGroup } from '../items/group-items.ts';

/**
 * Delivery records as the API shows them: DECISIONS.md's fields, the event in one word, and the
 * names a reader needs (entity, its page, check, shared channel), read per page in batches so the
 * console needs no directory of the tenant's entities or checks.
 */

/**
 * What a delivery told its channel, in one word: the state change (`down`, `degraded`, `recovery`;
 * `up` for a first result, `unknown` for a change to unknown), a `repeat` (a reminder while still
 * down), a `test`, an `escalation` or `also_failing` (a check failing on an entity already down). Derived from the stored kind and state change on every read, so records
 * written before the field existed carry it too. An alert is told by its change, any other kind by
 * its kind.
 */
const DELIVERY_EVENTS = [
  ...(['down', 'degraded', 'recovery', 'up', 'unknown'] as const),
  ...DELIVERY_KINDS.filter((kind): kind is Exclude<DeliveryKind, 'alert'> => kind !== 'alert'),
];
type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

/** The event a delivery record carries (see DELIVERY_EVENTS). */
function deliveryEvent(record: Pick<DeliveryRecord, 'kind' | 'event'>): DeliveryEvent {
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
    digest: z
      .strictObject({
        batch_id: z
          .string()
          .meta({ description: 'The batch: a digest and the alerts folded into it share it' }),
        group_by: z.enum(['entity', 'blueprint', 'tenant']),
        group: z.string().meta({
          description:
            "The group's name (the entity's name, the blueprint's slug, all entities); its key once the group is gone",
        }),
        events: z.number().int().nullable().meta({
          description:
            'A digest: the alerts it carries (its entity and check are only the first one’s); null on a folded alert',
        }),
        part: z.number().int().nullable(),
        parts: z.number().int().nullable(),
      })
      .nullable()
      .meta({
        description:
          'A digest (kind digest) or an alert folded into one (status folded): its batch and group; null otherwise',
      }),
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
  /** Digest groups' names, by `<channel id> <group id>`. */
  groups?: ReadonlyMap<string, string>;
}

const NO_NAMES: DeliveryNames = { entities: new Map(), checks: new Map(), channels: new Map() };

const groupRef = (r: Pick<DeliveryRecord, 'channel_id' | 'digest'>) =>
  `${r.channel_id} ${r.digest?.group_id}`;

/** The names of the digest groups of a page's digest records (one read each: a page holds few digests). */
async function readGroupNames(table: Table, tenantId: string, records: readonly DeliveryRecord[]) {
  const digests = records.filter((r) => r.kind === 'digest' && r.digest && r.channel_id);
  const refs = [...new Map(digests.map((r) => [groupRef(r), r])).values()];
  const read = await Promise.all(
    refs.map(async (r) => {
      const group = await readGroup(table, {
        tenant_id: tenantId,
        channel_id: r.channel_id ?? '',
        group_id: r.digest?.group_id ?? '',
      });
      return [groupRef(r), group?.name] as const;
    }),
  );
  return new Map(read.filter((e): e is readonly [string, string] => e[1] !== undefined));
}

/** A digest's or folded alert's batch and group as the API shows them (group ids are `<scope>:<by>:<key>`). */
function digestView(
  record: DeliveryRecord,
  names: DeliveryNames,
): z.output<typeof publicDeliverySchema>['digest'] {
  const digest = record.digest;
  if (!digest) return null;
  const [, by = '', key = ''] = digest.group_id.split(':');
  const groupBy = by === 'entity' || by === 'blueprint' ? by : 'tenant';
  const isDigest = record.kind === 'digest';
  return {
    batch_id: digest.batch_id,
    group_by: groupBy,
    group: names.groups?.get(groupRef(record)) ?? (groupBy === 'tenant' ? 'all entities' : key),
    events: isDigest ? (digest.events ?? null) : null,
    part: isDigest ? (digest.part ?? null) : null,
    parts: isDigest ? (digest.parts ?? null) : null,
  };
}

/** Reads the names of the entities, checks and tenant channels `records` refer to: three batch reads. */
async function readDeliveryNames(
  deps: { table: Table; channels: Pick<ChannelStore, 'getSharedMany'> },
  tenantId: string,
  records: readonly DeliveryRecord[],
): Promise<DeliveryNames> {
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))];
  const [entities, checks, channels, groups] = await Promise.all([
    readEntityPointers(deps.table, tenantId, distinct(records.map((r) => r.entity_id))),
    checkDefinitionsById(deps.table, tenantId, distinct(records.map((r) => r.check_id))),
    deps.channels.getSharedMany(tenantId, distinct(records.map((r) => r.channel_id))),
    readGroupNames(deps.table, tenantId, records),
  ]);
  return {
    entities: new Map(entities.map((e) => [e.id, e])),
    checks: new Map(checks.map((c) => [c.id, checkNameOf(c)])),
    channels: new Map(channels.map((c) => [c.id, c.name])),
    groups,
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
    digest: digestView(record, names),
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
