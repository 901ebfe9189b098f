import type * as z from 'zod';
import { PROVIDERS } from '../../providers/registry.ts';
import type { ChannelDefinition } from './definition.ts';
import { discordChannel } from './discord.ts';
import { googleChatChannel } from './google-chat.ts';
import { gotifyChannel } from './gotify.ts';
import { matrixChannel } from './matrix.ts';
import { mattermostChannel } from './mattermost.ts';
import { natsChannel } from './nats.ts';
import { opsgenieChannel } from './opsgenie.ts';
import { pagerdutyChannel } from './pagerduty.ts';
import { providerChannels } from './provider-channels.ts';
import { slackChannel } from './slack.ts';
import { teamsChannel } from './teams.ts';
import { webhookChannel } from './webhook.ts';

/**
 * The channel types of this folder, each whole in its file: those that no messaging provider
 * serves (webhook, NATS) and those whose request is their own (Slack, Gotify, PagerDuty, ...).
 * Adding one is its file and one line here (CONTRIBUTING.md "Adding a messaging provider").
 */
const OWN_CHANNELS = {
  slack: slackChannel,
  discord: discordChannel,
  webhook: webhookChannel,
  nats: natsChannel,
  teams: teamsChannel,
  google_chat: googleChatChannel,
  mattermost: mattermostChannel,
  matrix: matrixChannel,
  pagerduty: pagerdutyChannel,
  opsgenie: opsgenieChannel,
  gotify: gotifyChannel,
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own config types; any only widens the check.
} satisfies Record<string, ChannelDefinition<any, any>>;

/**
 * The types as the API document has listed them since they came, so its channel variants, its
 * error messages and a client generated from it keep their order; a type added later follows
 * them (this folder's, then the providers' in the provider registry's order), and is not added here.
 */
const DOCUMENT_ORDER: readonly string[] = [
  ...['slack', 'discord', 'webhook', 'nats', 'ntfy', 'email', 'teams', 'google_chat'],
  ...['mattermost', 'matrix', 'pagerduty', 'opsgenie', 'telegram', 'pushover', 'gotify', 'sms'],
];

const place = (type: string) => {
  const at = DOCUMENT_ORDER.indexOf(type);
  return at < 0 ? DOCUMENT_ORDER.length : at;
};

/**
 * Every channel type: this folder's and each messaging provider's `channel` (lib/providers/
 * registry.ts PROVIDERS), by name, in the document's order. The list of types, the request
 * schemas, the OpenAPI document's variants, the views, the SSRF check at create and every send
 * are derived from it.
 */
export const CHANNEL_DEFINITIONS = Object.fromEntries(
  Object.entries({ ...OWN_CHANNELS, ...providerChannels(PROVIDERS) }).sort(([a], [b]) => place(a) - place(b)),
) as typeof OWN_CHANNELS & ReturnType<typeof providerChannels<typeof PROVIDERS>>;

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
