import * as z from 'zod';
import { idSchema } from '../http/route-schemas.ts';
import { parseInput } from '../http/validation.ts';
import type { Runtime } from '../platform/config.ts';
import { egressRefusal } from '../platform/egress-advice.ts';
import { ConnectionError, EgressDeniedError } from '../platform/egress-errors.ts';
import { checkUrl, type Resolve } from '../platform/egress-guard.ts';
import { ValidationError } from '../platform/errors.ts';
import {
  CHANNEL_DEFINITIONS,
  CHANNEL_TYPES,
  type ChannelType,
  channelDefinition,
} from './channels/registry.ts';

/**
 * A channel's type and config as a request body carries them (DECISIONS.md "Notifications"):
 * validated by its type's `input` schema (channels/registry.ts), and every URL the type names
 * (`destinations()`) checked by the SSRF guard at create.
 */

/** One request variant per registered type, each with `extra` fields (a tenant channel's name) besides type and config. */
function channelVariants<E extends z.core.$ZodLooseShape>(extra: E) {
  const variants = Object.entries(CHANNEL_DEFINITIONS).map(([type, definition]) =>
    z.strictObject({ ...extra, channel_type: z.literal(type), config: definition.input }),
  );
  // zod's discriminated union wants a tuple; its element type is the registry's, type by type.
  return variants as unknown as [InputVariant<E>, ...InputVariant<E>[]];
}

type Definitions = typeof CHANNEL_DEFINITIONS;
type InputVariant<E extends z.core.$ZodLooseShape> = {
  [K in ChannelType]: z.ZodObject<
    E & { channel_type: z.ZodLiteral<K>; config: Definitions[K]['input'] },
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
export const MAX_CHANNEL_NAME_LENGTH = 100;
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

/** `{channel_id}` in place of a new channel: attaches that tenant channel to the check. */
export const attachChannelSchema = z.strictObject({
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
export type CheckChannelBody = z.output<typeof checkChannelBodySchema>;

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
