import type * as z from 'zod';
import type { ChannelType } from '../../domain/channel-types.ts';
import type { ChannelDefinition } from './definition.ts';
import { discordChannel } from './discord.ts';
import { emailChannel } from './email.ts';
import { natsChannel } from './nats.ts';
import { ntfyChannel } from './ntfy.ts';
import { slackChannel } from './slack.ts';
import { webhookChannel } from './webhook.ts';

/**
 * Every channel type, by the name the API knows it by: adding a type is its definition file, one
 * line here and its name in lib/domain/channel-types.ts (the item owners' copy of the list: owners
 * import no feature code), CONTRIBUTING.md "Adding a channel type". The request schemas, the
 * OpenAPI document's variants, the views, the SSRF check at create and every send are derived from
 * this object; the compiler keeps it and the list equal (below).
 */
export const CHANNEL_DEFINITIONS = {
  slack: slackChannel,
  discord: discordChannel,
  webhook: webhookChannel,
  nats: natsChannel,
  ntfy: ntfyChannel,
  email: emailChannel,
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own config types; any only widens the check.
} satisfies Record<ChannelType, ChannelDefinition<any, any>>;

/** A name registered here but missing from lib/domain/channel-types.ts fails to compile here. */
const everyRegisteredTypeListed: Record<Exclude<keyof typeof CHANNEL_DEFINITIONS, ChannelType>, never> = {};
void everyRegisteredTypeListed;

export { CHANNEL_TYPES, type ChannelType } from '../../domain/channel-types.ts';

/** A type's stored config. */
export type ChannelConfigOf<K extends ChannelType> = z.output<(typeof CHANNEL_DEFINITIONS)[K]['stored']>;

/** `{channel_type, config}` of any type, the config typed by its type (a discriminated union). */
export type TypedChannelConfig = {
  [K in ChannelType]: { channel_type: K; config: ChannelConfigOf<K> };
}[ChannelType];

/** Whether `name` is a registered channel type. */
export function isChannelType(name: string): name is ChannelType {
  return Object.hasOwn(CHANNEL_DEFINITIONS, name);
}

/**
 * The definition of a type, its config types widened: callers pass a config the type's own
 * schema parsed (channel-config.ts at create, its `stored` schema at read).
 */
// biome-ignore lint/suspicious/noExplicitAny: see above.
export function channelDefinition(type: ChannelType): ChannelDefinition<any, any> {
  return CHANNEL_DEFINITIONS[type];
}

/**
 * The addresses that must have confirmed before the channel sends to them (its definition's
 * `recipients`: email), or undefined when its type has none to confirm.
 */
export function recipientsOf(channel: {
  channel_type: ChannelType;
  config: unknown;
}): readonly string[] | undefined {
  const definition = channelDefinition(channel.channel_type);
  return definition.recipients?.of(definition.stored.parse(channel.config));
}

/** The channel sending only to `to` (its confirmed recipients). */
export function withRecipients<R extends { channel_type: ChannelType; config: object }>(
  channel: R,
  to: string[],
): R {
  const definition = channelDefinition(channel.channel_type);
  const { recipients } = definition;
  return recipients
    ? { ...channel, config: recipients.keep(definition.stored.parse(channel.config), to) }
    : channel;
}
