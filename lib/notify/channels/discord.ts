import type { ChannelRecord } from '../channel-items.ts';
import type { Alert, SendOutcome } from '../ports.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';
import { type AlertMessage, clip, describeAlert, type Tone } from './message.ts';

type DiscordChannel = Extract<ChannelRecord, { channel_type: 'discord' }>;

/** Embed colours by state: down red, degraded amber, up green, anything else grey. */
export const DISCORD_COLORS: Record<Tone, number> = {
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
export function discordPayload(message: AlertMessage, timestamp: string): Record<string, unknown> {
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

/** Posts the alert to a Discord webhook. */
export function sendDiscord(
  deps: HttpPostDeps & { publicUrl?: string },
  channel: DiscordChannel,
  alert: Alert,
): Promise<SendOutcome> {
  const payload = discordPayload(describeAlert(alert, deps.publicUrl), alert.event.timestamp);
  const body = JSON.stringify(payload);
  return postOnce(deps, { url: channel.config.url, headers: { 'content-type': 'application/json' }, body });
}
