import * as z from 'zod';
import { natsSubjectProblem, publishedSubject } from '../domain/nats-subject.ts';
import { REDACTED } from '../domain/redacted.ts';
import { isRecovery } from '../domain/state-change-event.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import { CHANNEL_TYPES, type ChannelRecord, type TenantChannelRecord } from './channel-items.ts';
import { DELIVERY_KINDS, DELIVERY_STATUSES, type DeliveryRecord } from './delivery-items.ts';
import { POLICY_DEFAULTS, type PolicyRecord } from './policy-items.ts';

/**
 * Public views of policies, channels and delivery records, and their schemas for the OpenAPI
 * document. Secrets and tokens are write-only (always `********`); for read-only keys channel URLs
 * are `********` too, since Slack and Discord URLs embed their secret (DECISIONS.md). NATS subjects show,
 * with the full subject the channel publishes to (under the tenant's root).
 */

export { REDACTED };

const redacted = z.literal(REDACTED);
const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` for the next page; null on the last page' });

const urlView = z.string().meta({ description: `The URL; ${REDACTED} for read-only keys` });
const natsConfigView = z.strictObject({
  subject: z.string().meta({ description: 'The subject as given, under the tenant’s root' }),
  published_subject: z
    .string()
    .nullable()
    .meta({
      description:
        'Read-only: the full subject events are published to, `<VIGIL_NATS_PREFIX>.<tenant id>.<subject>`; ' +
        'subscribe to it. null for a subject stored before `$` and `_INBOX` subjects were refused: ' +
        'its deliveries fail',
    }),
});
const channelCommon = {
  id: idSchema('chn'),
  check_id: idSchema('chk')
    .nullable()
    .meta({ description: 'The check the channel belongs to; null for a tenant channel (attached by id)' }),
  name: z.string().optional().meta({ description: 'A tenant channel’s name (tenant channels only)' }),
  attached_check_ids: z
    .array(idSchema('chk'))
    .optional()
    .meta({ description: 'GET /v1/notify/channels/{id}: the checks the tenant channel is attached to' }),
  created_at: timestampSchema,
  updated_at: timestampSchema.optional().meta({ description: 'Tenant channels only' }),
};

export const publicChannelSchema = z
  .discriminatedUnion('channel_type', [
    z.strictObject({
      ...channelCommon,
      channel_type: z.literal('slack'),
      config: z.strictObject({ url: urlView }),
    }),
    z.strictObject({
      ...channelCommon,
      channel_type: z.literal('discord'),
      config: z.strictObject({ url: urlView }),
    }),
    z.strictObject({
      ...channelCommon,
      channel_type: z.literal('webhook'),
      config: z.strictObject({ url: urlView, secret: redacted.optional() }),
    }),
    z.strictObject({
      ...channelCommon,
      channel_type: z.literal('nats'),
      config: natsConfigView,
    }),
    z.strictObject({
      ...channelCommon,
      channel_type: z.literal('ntfy'),
      config: z.strictObject({ url: urlView, token: redacted.optional() }),
    }),
    z.strictObject({
      ...channelCommon,
      channel_type: z.literal('email'),
      config: z.strictObject({ to: z.array(z.string()).meta({ description: 'The recipients' }) }),
      recipients: z
        .array(z.strictObject({ address: z.string(), state: z.enum(['confirmed', 'pending']) }))
        .meta({
          description:
            'Each recipient’s state: confirmed (by the emailed link, or a user of the tenant) or pending; only confirmed ones receive email',
        }),
    }),
  ])
  .meta({ id: 'NotificationChannel', description: 'secret and token always read ********' });

export const publicPolicySchema = z
  .strictObject({
    id: idSchema('pol')
      .nullable()
      .meta({ description: 'null while the check has no stored policy (defaults)' }),
    check_id: idSchema('chk'),
    cooldown_seconds: z.number().int(),
    notify_on_recovery: z.boolean(),
    silenced: z.boolean(),
    repeat_interval_seconds: z.number().int(),
    suppress_when_upstream_down: z.boolean(),
    flap_changes: z.number().int(),
    flap_window_seconds: z.number().int(),
    channels: z.array(publicChannelSchema),
    created_at: timestampSchema.nullable(),
    updated_at: timestampSchema.nullable(),
  })
  .meta({ id: 'NotificationPolicy' });

/**
 * What a delivery told its channel, in one word: the state change (`down`, `degraded`, `recovery`;
 * `up` for a first result, `unknown` for a change to unknown), a `repeat` (a reminder while still
 * down), a `test` or an `escalation`. Derived from the stored kind and state change on every read, so records
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
        "`escalation` (an incident left unacknowledged, sent to its routes' escalation channels)",
    }),
    channel_id: idSchema('chn').nullable(),
    check_id: idSchema('chk'),
    entity_id: idSchema('ent'),
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

export const channelsPageSchema = z.strictObject({
  channels: z.array(publicChannelSchema),
  next_cursor: nextCursor,
});
export const logsPageSchema = z.strictObject({
  logs: z.array(publicDeliverySchema),
  next_cursor: nextCursor,
});

type PublicChannel = z.output<typeof publicChannelSchema>;

/** How a caller sees channels: redacted for read-only keys; nats subjects under VIGIL_NATS_PREFIX. */
export interface ChannelView {
  readOnly: boolean;
  natsPrefix: string;
  /** Email recipients' states by address (email-recipients.ts); an address not in it shows pending. */
  recipientStates?: ReadonlyMap<string, 'confirmed' | 'pending'>;
}

/** A channel (a check's own or a tenant channel) as the API shows it to a caller with or without write access. */
export function publicChannel(
  channel: ChannelRecord | TenantChannelRecord,
  options: ChannelView,
): PublicChannel {
  // A check's own channel answers exactly its fields of before; a tenant channel has no check.
  const common =
    'check_id' in channel
      ? { id: channel.id, check_id: channel.check_id, created_at: channel.created_at }
      : {
          id: channel.id,
          check_id: null,
          name: channel.name,
          created_at: channel.created_at,
          updated_at: channel.updated_at,
        };
  const url = (value: string) => (options.readOnly ? REDACTED : value);
  switch (channel.channel_type) {
    case 'nats': {
      const { subject } = channel.config;
      const published = natsSubjectProblem(subject)
        ? null
        : publishedSubject(options.natsPrefix, channel.tenant_id, subject);
      return { ...common, channel_type: 'nats', config: { subject, published_subject: published } };
    }
    case 'webhook':
      return {
        ...common,
        channel_type: 'webhook',
        config: { url: url(channel.config.url), ...(channel.config.secret ? { secret: REDACTED } : {}) },
      };
    case 'ntfy':
      return {
        ...common,
        channel_type: 'ntfy',
        config: { url: url(channel.config.url), ...(channel.config.token ? { token: REDACTED } : {}) },
      };
    case 'email':
      // Addresses are no secret (unlike Slack and Discord URLs): read-only keys see them too.
      return {
        ...common,
        channel_type: 'email',
        config: { to: [...channel.config.to] },
        recipients: channel.config.to.map((address) => ({
          address,
          state: options.recipientStates?.get(address) ?? 'pending',
        })),
      };
    default:
      return { ...common, channel_type: channel.channel_type, config: { url: url(channel.config.url) } };
  }
}

/** A check's policy (or the defaults when none is stored) with its channels (own, then attached tenant ones). */
export function publicPolicy(
  checkId: string,
  policy: PolicyRecord | undefined,
  channels: (ChannelRecord | TenantChannelRecord)[],
  options: ChannelView,
): z.output<typeof publicPolicySchema> {
  const fields = policy ?? POLICY_DEFAULTS;
  return {
    id: policy?.id ?? null,
    check_id: checkId,
    cooldown_seconds: fields.cooldown_seconds,
    notify_on_recovery: fields.notify_on_recovery,
    silenced: fields.silenced,
    repeat_interval_seconds: fields.repeat_interval_seconds,
    suppress_when_upstream_down: fields.suppress_when_upstream_down,
    flap_changes: fields.flap_changes ?? POLICY_DEFAULTS.flap_changes,
    flap_window_seconds: fields.flap_window_seconds ?? POLICY_DEFAULTS.flap_window_seconds,
    channels: channels.map((channel) => publicChannel(channel, options)),
    created_at: policy?.created_at ?? null,
    updated_at: policy?.updated_at ?? null,
  };
}

/** A delivery record as the API shows it: DECISIONS.md's fields and its kind, never the channel config. */
export function publicDelivery(record: DeliveryRecord): z.output<typeof publicDeliverySchema> {
  return {
    id: record.id,
    kind: record.kind,
    event: deliveryEvent(record),
    channel_id: record.channel_id,
    check_id: record.check_id,
    entity_id: record.entity_id,
    transition_id: record.transition_id,
    channel_type: record.channel_type,
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
