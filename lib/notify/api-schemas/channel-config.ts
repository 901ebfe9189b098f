import * as z from 'zod';
import { egressRefusal } from '../../egress/egress-advice.ts';
import { ConnectionError, EgressDeniedError } from '../../egress/egress-errors.ts';
import { checkUrl, type Resolve } from '../../egress/egress-guard.ts';
import { parseInput } from '../../http/requests.ts';
import { idSchema } from '../../http/route-schemas.ts';
import type { Runtime } from '../../platform/config.ts';
import { ValidationError } from '../../platform/errors.ts';
import {
  CHANNEL_DEFINITIONS,
  CHANNEL_TYPES,
  type ChannelType,
  channelDefinition,
} from '../channels/registry.ts';
import { messageTemplateSchema } from '../channels/template.ts';
import { templateRefusal } from '../channels/template-types.ts';

/**
 * A channel's type and config as a request body carries them (DECISIONS.md "Notifications"):
 * validated by its type's `input` schema (channels/registry.ts), and every URL the type names
 * (`destinations()`) checked by the SSRF guard at create.
 */

/**
 * One request variant per registered type, each with `extra` fields (a tenant channel's name)
 * besides type and config; with `secretStandIn`, each of the type's secret fields also takes it.
 */
function channelVariants<E extends z.core.$ZodLooseShape>(extra: E, secretStandIn?: z.ZodType<string>) {
  const variants = Object.entries(CHANNEL_DEFINITIONS).map(([type, definition]) =>
    z.strictObject({
      ...extra,
      channel_type: z.literal(type),
      config: secretStandIn
        ? withSecretsAlso(definition.input, definition.secrets, secretStandIn)
        : definition.input,
      template: templateField(type, definition.templates !== false),
    }),
  );
  // zod's discriminated union wants a tuple; its element type is the registry's, type by type.
  return variants as unknown as [InputVariant<E>, ...InputVariant<E>[]];
}

/** A type's `template`: the message template, or (a raw-event type) refused with a sentence when given. */
function templateField(type: string, takes: boolean) {
  if (takes) return messageTemplateSchema.optional();
  // `not: {}` states "absent" in the document, as the attach variant's channel_type.
  return z
    .never({ error: templateRefusal(type) })
    .optional()
    .meta({ description: 'Absent: this type sends the event as JSON and takes no template', not: {} });
}

type Definitions = typeof CHANNEL_DEFINITIONS;
type InputVariant<E extends z.core.$ZodLooseShape> = {
  [K in ChannelType]: z.ZodObject<
    E & {
      channel_type: z.ZodLiteral<K>;
      config: Definitions[K]['input'];
      template: z.ZodOptional<typeof messageTemplateSchema>;
    },
    z.core.$strict
  >;
}[ChannelType];

const unknownType = {
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'invalid_union' ? `Choose a channel type: ${CHANNEL_TYPES.join(', ')}.` : undefined,
};

/** The request body of a new channel: `{channel_type, config}`, unknown keys rejected at every level. */
export const channelInputSchema = z.discriminatedUnion('channel_type', channelVariants({}), unknownType);

/** A tenant channel's name: what the console and routes show it by. */
const MAX_CHANNEL_NAME_LENGTH = 100;
export const channelNameSchema = z
  .string()
  .regex(/\S/, 'This field is required.')
  .trim()
  .min(1, 'This field is required.')
  .max(MAX_CHANNEL_NAME_LENGTH, `Use at most ${MAX_CHANNEL_NAME_LENGTH} characters.`)
  .meta({ description: 'Shown in the console and the routes editor' });

/** POST /v1/notify/channels: a tenant channel `{name, channel_type, config}`, validated as a check's. */
export const tenantChannelInputSchema = z
  .discriminatedUnion('channel_type', channelVariants({ name: channelNameSchema }), unknownType)
  .meta({ id: 'TenantChannelInput' });
export type TenantChannelInput = z.output<typeof tenantChannelInputSchema>;

/**
 * A type's config schema whose secret fields also take `standIn` (a configuration document's
 * `${ENV}` reference, lib/config-doc/secrets.ts): the value behind it is checked by the type's own
 * rule when it is given, not while it is a name. A value that is neither keeps the field's own
 * message. Objects and discriminated unions of objects (sms) are the shapes configs have; another
 * shape with secrets fails at load, so a new type cannot slip past.
 */
function withSecretsAlso(
  input: z.ZodType,
  secrets: readonly string[],
  standIn: z.ZodType<string>,
): z.ZodType {
  if (secrets.length === 0) return input;
  if (input instanceof z.ZodDiscriminatedUnion)
    return z.discriminatedUnion(
      input.def.discriminator,
      input.options.map((option) => withSecretsAlso(option as z.ZodType, secrets, standIn)) as never,
      { error: input.def.error as never },
    );
  if (!(input instanceof z.ZodObject))
    throw new Error('a channel config with secrets is an object or a union of objects');
  const shape = input.shape as Record<string, z.ZodType>;
  const widened: Record<string, z.ZodType> = {};
  for (const key of secrets) {
    const field = shape[key];
    if (field === undefined) continue;
    const optional = field instanceof z.ZodOptional;
    const inner = optional ? (field.unwrap() as z.ZodType) : field;
    // The union's message is the field's own first one (zod would say "Invalid input").
    const either = z.union([standIn, inner], {
      error: (issue) => (issue.code === 'invalid_union' ? issue.errors?.[1]?.[0]?.message : undefined),
    });
    widened[key] = optional ? either.optional() : either;
  }
  return input.safeExtend(widened);
}

/**
 * The channel bodies of a configuration document: the request bodies above, each secret field
 * also taking `standIn`, for a check's own channel and for a tenant channel.
 */
export function documentChannelSchemas(standIn: z.ZodType<string>) {
  return {
    channel: z.discriminatedUnion('channel_type', channelVariants({}, standIn), unknownType),
    tenantChannel: z.discriminatedUnion(
      'channel_type',
      channelVariants({ name: channelNameSchema }, standIn),
      unknownType,
    ),
  };
}

/** `{channel_id}` in place of a new channel: attaches that tenant channel to the check. */
const attachChannelSchema = z.strictObject({
  // Absent: the variant without a type (OpenAPI's discriminator then stays off this union).
  // `not: {}` states "absent" in the document (zod's undefined has no JSON Schema).
  channel_type: z.undefined().optional().meta({ description: 'Absent when attaching', not: {} }),
  channel_id: idSchema('chn').meta({ description: 'A tenant channel (POST /v1/notify/channels) to attach' }),
});

/** POST /v1/checks/{check_id}/policy/channels: a new channel of the check, or `{channel_id}` to attach a tenant channel. */
export const checkChannelBodySchema = z.discriminatedUnion(
  'channel_type',
  [...channelVariants({}), attachChannelSchema],
  unknownType,
);

/** A validated channel body, ready to store. */
export type ChannelInput = z.output<typeof channelInputSchema>;

/** Parses a channel request body; throws ValidationError naming each bad field (`config.url`, ...). */
export function parseChannelInput(body: unknown): ChannelInput {
  return parseInput(channelInputSchema, body);
}

/**
 * Checks at create time that each URL the channel's type names (`destinations()`) resolves only to addresses the SSRF guard allows
 * (`allow`: VIGIL_EGRESS_ALLOW), and that an http:// URL resolves only into `allow`: a literal
 * address is judged as written, a host name by what it resolves to now (its name says nothing of
 * where it points; every send checks again on connect, so a name moved out of the allowed range
 * later is refused then). Throws ValidationError at `config.url`, naming the setting that would
 * allow the address. Types whose server is the operator's (nats, email) name none.
 */
export async function checkChannelDestination(
  input: ChannelInput | TenantChannelInput,
  egress: { allow: readonly string[]; resolve?: Resolve; runtime?: Runtime },
): Promise<void> {
  for (const { path, url } of channelDefinition(input.channel_type).destinations(input.config)) {
    try {
      await checkUrl(url, {
        allowPrivate: false,
        allow: egress.allow,
        resolve: egress.resolve,
        httpOnlyToAllowList: true,
      });
    } catch (err) {
      if (err instanceof EgressDeniedError) {
        throw ValidationError.field(path, egressRefusal(err, egress.runtime ?? 'local'));
      }
      if (err instanceof ConnectionError) throw ValidationError.field(path, err.message);
      throw err;
    }
  }
}
