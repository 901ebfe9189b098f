import * as z from 'zod';
import { natsSubjectProblem, publishedSubject } from '../domain/nats-subject.ts';
import { REDACTED } from '../domain/redacted.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import type { ChannelRecord, TenantChannelRecord } from './channel-items.ts';
import { type CheckRoute, checkRouteSchema } from './check-routes.ts';
import { POLICY_DEFAULTS, type PolicyRecord } from './policy-items.ts';

/**
 * Public views of policies and channels (delivery records: delivery-responses.ts), and their schemas for the OpenAPI
 * document. Secrets and tokens are write-only (always `********`); for read-only keys channel URLs
 * are `********` too, since Slack and Discord URLs embed their secret (DECISIONS.md). NATS subjects show,
 * with the full subject the channel publishes to (under the tenant's root).
 */

export { REDACTED };

const redacted = z.literal(REDACTED);
export const nextCursor = z
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
  check_name: z
    .string()
    .optional()
    .meta({ description: 'GET /v1/notify/channels: the name of the check a check’s own channel belongs to' }),
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
    routes: z.array(checkRouteSchema).meta({
      description:
        'The routes that also send the check’s alerts (matching its entity or blueprint), with their shared channels',
    }),
    created_at: timestampSchema.nullable(),
    updated_at: timestampSchema.nullable(),
  })
  .meta({ id: 'NotificationPolicy' });

export const channelsPageSchema = z.strictObject({
  channels: z.array(publicChannelSchema),
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
  routes: CheckRoute[],
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
    routes,
    created_at: policy?.created_at ?? null,
    updated_at: policy?.updated_at ?? null,
  };
}
