import type * as z from 'zod';
import type { ChannelDefinition } from './definition.ts';
import { discordChannel } from './discord.ts';
import { emailChannel, emailPeople } from './email.ts';
import { googleChatChannel } from './google-chat.ts';
import { gotifyChannel } from './gotify.ts';
import { matrixChannel } from './matrix.ts';
import { mattermostChannel } from './mattermost.ts';
import { natsChannel } from './nats.ts';
import { ntfyChannel, ntfyPeople } from './ntfy.ts';
import { opsgenieChannel } from './opsgenie.ts';
import { pagerdutyChannel } from './pagerduty.ts';
import { channelsOf, type ProviderUses, peopleOf } from './provider-uses.ts';
import { pushoverChannel, pushoverPeople } from './pushover.ts';
import { slackChannel } from './slack.ts';
import { smsChannel, smsPeople } from './sms.ts';
import { teamsChannel } from './teams.ts';
import { telegramChannel, telegramPeople } from './telegram.ts';
import { webhookChannel } from './webhook.ts';

/**
 * Every messaging provider, by the name the API knows its channel type by, and its uses: `channel`,
 * its alert channel type; `people`, the kinds of contact method through which it reaches a person
 * (./person-use.ts). A provider serves either or both: adding one is its use file and one line
 * here (CONTRIBUTING.md "Adding a messaging provider"); the channel types and the contact method
 * kinds are both derived from this object. Channel types keep its order (the API document's and
 * its error messages').
 */
export const PROVIDERS = {
  slack: { channel: slackChannel },
  discord: { channel: discordChannel },
  webhook: { channel: webhookChannel },
  nats: { channel: natsChannel },
  ntfy: { channel: ntfyChannel, people: ntfyPeople },
  email: { channel: emailChannel, people: emailPeople },
  teams: { channel: teamsChannel },
  google_chat: { channel: googleChatChannel },
  mattermost: { channel: mattermostChannel },
  matrix: { channel: matrixChannel },
  pagerduty: { channel: pagerdutyChannel },
  opsgenie: { channel: opsgenieChannel },
  telegram: { channel: telegramChannel, people: telegramPeople },
  pushover: { channel: pushoverChannel, people: pushoverPeople },
  gotify: { channel: gotifyChannel },
  sms: { channel: smsChannel, people: smsPeople },
} satisfies Record<string, ProviderUses>;

/**
 * Every channel type: each provider's `channel`, by the provider's name, in PROVIDERS' order. The
 * list of types, the request schemas, the OpenAPI document's variants, the views, the SSRF check at
 * create and every send are derived from it.
 */
export const CHANNEL_DEFINITIONS = channelsOf(PROVIDERS);

/** Every kind of contact method a provider serves (the console's own is lib/contacts'), by kind. */
export const PEOPLE_USES = peopleOf(PROVIDERS);

/** A channel type's name ("slack", "pagerduty"). */
export type ChannelType = keyof typeof CHANNEL_DEFINITIONS;

/** The channel types, in the registry's order (a non-empty tuple, as z.enum wants it). */
export const CHANNEL_TYPES = Object.keys(CHANNEL_DEFINITIONS) as [ChannelType, ...ChannelType[]];

/** A type's stored config. */
export type ChannelConfigOf<K extends ChannelType> = z.output<(typeof CHANNEL_DEFINITIONS)[K]['stored']>;

/** Whether `name` is a registered channel type. */
export function isChannelType(name: string): name is ChannelType {
  return Object.hasOwn(CHANNEL_DEFINITIONS, name);
}

/**
 * The definition of a type, its config types widened: callers pass a config the type's own
 * schema parsed (channel-config.ts at create, its `stored` schema at read). A stored channel names
 * its type as a string (the item owner imports no registry): one no longer registered throws.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above.
export function channelDefinition(type: string): ChannelDefinition<any, any> {
  return CHANNEL_DEFINITIONS[registeredType(type)];
}

/** A stored type name as a registered type; one no longer registered throws. */
export function registeredType(type: string): ChannelType {
  if (!isChannelType(type)) throw new Error(`no channel type ${JSON.stringify(type)} is registered`);
  return type;
}

/**
 * The addresses that must have confirmed before the channel sends to them (its definition's
 * `recipients`: email), or undefined when its type has none to confirm.
 */
export function recipientsOf(channel: {
  channel_type: string;
  config: unknown;
}): readonly string[] | undefined {
  const definition = channelDefinition(channel.channel_type);
  return definition.recipients?.of(definition.stored.parse(channel.config));
}

/** The channel sending only to `to` (its confirmed recipients). */
export function withRecipients<R extends { channel_type: string; config: object }>(
  channel: R,
  to: string[],
): R {
  const definition = channelDefinition(channel.channel_type);
  const { recipients } = definition;
  return recipients
    ? { ...channel, config: recipients.keep(definition.stored.parse(channel.config), to) }
    : channel;
}
