import * as z from 'zod';
import { REDACTED } from '../../domain/redaction.ts';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import type { ChannelViewOptions } from '../channels/definition.ts';
import { CHANNEL_DEFINITIONS, type ChannelType, channelDefinition } from '../channels/registry.ts';
import { messageTemplateSchema } from '../channels/template.ts';
import type { ChannelRecord, TenantChannelRecord } from '../items/channel-items.ts';
import { POLICY_DEFAULTS, type PolicyRecord } from '../items/policy-items.ts';
import { type CheckRoute, checkRouteSchema } from '../routing/check-routes.ts';

/**
 * Public views of policies and channels (delivery records: delivery-responses.ts), and their schemas for the OpenAPI
 * document. Secrets and tokens are write-only (always `********`); for read-only keys channel URLs
 * are `********` too, since Slack and Discord URLs embed their secret (DECISIONS.md). NATS subjects show,
 * with the full subject the channel publishes to (under the tenant's root).
 */

export { REDACTED };

export const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` for the next page; null on the last page' });

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
  template: messageTemplateSchema
    .optional()
    .meta({ description: 'The channel’s own message template; absent: Vigil’s message' }),
  warnings: z.array(z.string()).optional().meta({
    description:
      'Create, attach and update answers: what this deployment lacks for the channel to send, worded as its deliveries would fail (an email channel without an SMTP server or sender); empty: nothing',
  }),
};

/** One view variant per registered type: its `view` config and any `viewExtra` fields. */
function viewVariants() {
  const variants = Object.entries(CHANNEL_DEFINITIONS).map(([type, definition]) =>
    z.strictObject({
      ...channelCommon,
      channel_type: z.literal(type),
      config: definition.view,
      ...('viewExtra' in definition ? definition.viewExtra : {}),
    }),
  );
  // zod's discriminated union wants a tuple; its element type is the registry's, type by type.
  return variants as unknown as [ViewVariant, ...ViewVariant[]];
}

type Definitions = typeof CHANNEL_DEFINITIONS;
type ExtraOf<D> = D extends { viewExtra: infer X extends z.ZodRawShape } ? X : Record<never, never>;
type ViewVariant = {
  [K in ChannelType]: z.ZodObject<
    typeof channelCommon & { channel_type: z.ZodLiteral<K>; config: Definitions[K]['view'] } & ExtraOf<
        Definitions[K]
      >,
    z.core.$strict
  >;
}[ChannelType];

export const publicChannelSchema = z
  .discriminatedUnion('channel_type', viewVariants())
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
    flap_settle_seconds: z.number().int(),
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
export type ChannelView = ChannelViewOptions;

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
  const definition = channelDefinition(channel.channel_type);
  const shown = definition.present(definition.stored.parse(channel.config), channel.tenant_id, options);
  const template = channel.template ? { template: channel.template } : {};
  return { ...common, channel_type: channel.channel_type, ...shown, ...template } as PublicChannel;
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
    flap_settle_seconds: fields.flap_settle_seconds ?? POLICY_DEFAULTS.flap_settle_seconds,
    channels: channels.map((channel) => publicChannel(channel, options)),
    routes,
    created_at: policy?.created_at ?? null,
    updated_at: policy?.updated_at ?? null,
  };
}
