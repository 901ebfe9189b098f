import type * as z from 'zod';
import { webhookUrlChannel } from '../../providers/config-fields.ts';
import type { Alert, SendOutcome } from '../items/ports.ts';
import { sendJson } from './chat-common.ts';
import { type ChannelOf, type ChannelSendDeps, defineChannel } from './definition.ts';
import { type DigestMessage, describeDigest, linesWithin } from './digest-message.ts';
import { type AlertMessage, clip, messageFor, type Tone } from './message.ts';

/** The Discord channel: a webhook message with one embed coloured by state (alerts and digest parts). */

const storedConfig = webhookUrlChannel.stored;
type DiscordConfig = z.output<typeof storedConfig>;

/** Embed colours by state: down red, degraded amber, up green, anything else grey. */
const DISCORD_COLORS: Record<Tone, number> = {
  down: 0xe5484d,
  degraded: 0xf5a524,
  up: 0x2eb67d,
  other: 0x8b949e,
};

/** Discord's limits: content 2,000 characters, embed title 256, description 4,096. */
const MAX_CONTENT = 2000;
const MAX_TITLE = 256;
const MAX_DESCRIPTION = 4096;

/**
 * The webhook payload: `content` plus one embed coloured by state. `allowed_mentions` is empty so
 * an entity named "@everyone" pings no one.
 */
function discordPayload(message: AlertMessage, timestamp: string): Record<string, unknown> {
  const lines = message.note ? [message.note] : [];
  for (const fact of message.facts) lines.push(`**${fact.label}:** ${fact.value}`);
  const embed: Record<string, unknown> = {
    title: clip(message.title, MAX_TITLE),
    description: clip(lines.join('\n'), MAX_DESCRIPTION),
    color: DISCORD_COLORS[message.tone],
    timestamp,
  };
  if (message.link) embed.url = message.link;
  return {
    content: clip(message.title, MAX_CONTENT),
    embeds: [embed],
    allowed_mentions: { parse: [] },
  };
}

/** A digest part: one embed whose description holds the summary and as many lines as 4,096 allows. */
function discordDigestPayload(message: DigestMessage): Record<string, unknown> {
  const title = clip(message.title, MAX_TITLE);
  const head = clip(message.summary.join('\n'), MAX_DESCRIPTION / 2);
  const lines = linesWithin(message.lines, MAX_DESCRIPTION - head.length - 2, (text) => text.length);
  const description = clip([head, '', ...lines].join('\n'), MAX_DESCRIPTION);
  return {
    content: clip(message.title, MAX_CONTENT),
    embeds: [{ title, description, color: DISCORD_COLORS[message.tone] }],
    allowed_mentions: { parse: [] },
  };
}

/** The payload as JSON to the webhook URL (the dispatch scrubs the URL out of any error). */
const post = (
  deps: ChannelSendDeps,
  channel: ChannelOf<DiscordConfig>,
  payload: unknown,
): Promise<SendOutcome> => sendJson(deps.http, { url: channel.config.url, body: payload }, []);

/** Posts the alert to a Discord webhook. */
function sendDiscord(
  deps: ChannelSendDeps,
  channel: ChannelOf<DiscordConfig>,
  alert: Alert,
): Promise<SendOutcome> {
  return post(
    deps,
    channel,
    discordPayload(messageFor(channel, alert, deps.publicUrl), alert.event.timestamp),
  );
}

export const discordChannel = defineChannel({
  label: 'Discord',
  ...webhookUrlChannel,
  send: sendDiscord,
  sendDigest: (deps, channel, digest) => post(deps, channel, discordDigestPayload(describeDigest(digest))),
});
