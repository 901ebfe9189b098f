import * as z from 'zod';
import { receiverUrl, shownUrl, urlDestination, urlView } from '../../providers/config-fields.ts';
import { fitLines, secretPartsOf, sendJson } from './chat-common.ts';
import { defineChannel } from './definition.ts';
import { type DigestMessage, describeDigest } from './digest-message.ts';
import { type AlertMessage, clip, messageFor, plainText, type Tone } from './message.ts';

/**
 * Mattermost through an incoming webhook (`https://<server>/hooks/<key>`, the key being the
 * secret): Markdown `text` plus one Slack-compatible attachment coloured by state. The server
 * answers 200 "ok"; a post's text holds at most 16,383 characters, and servers before 5.0 refused
 * attachments over 7,900 characters in all, so an alert's attachment stays under that.
 */

const MAX_TEXT = 16_383;
const MAX_ATTACHMENT = 7_900;
const MAX_TITLE = 300;

const COLORS: Record<Tone, string> = {
  down: '#e5484d',
  degraded: '#f5a524',
  up: '#2eb67d',
  other: '#8b949e',
};

/**
 * Markdown punctuation backslash-escaped (no link, emphasis, table or heading from a name), and a
 * zero-width space after `@` so "@channel", "@all" or "@here" in a name pings no one.
 */
function escapeMattermost(text: string): string {
  return text.replace(/[\\`*_~[\]()#<>|!]/g, '\\$&').replace(/@/g, '@\u200b');
}

/** The plain fallback (notifications): no Markdown, but mentions are still parsed there. */
const inert = (text: string) => text.replace(/@/g, '@\u200b');

function attachmentOf(alert: AlertMessage): Record<string, unknown> {
  const attachment: Record<string, unknown> = {
    fallback: inert(clip(plainText(alert, true), 1000)),
    color: COLORS[alert.tone],
    text: alert.note ? escapeMattermost(alert.note) : '',
    fields: alert.facts.map((fact) => ({
      short: fact.label !== 'Last error' && fact.label !== 'Why' && fact.label !== 'Also failing',
      title: inert(fact.label),
      value: escapeMattermost(fact.value),
    })),
  };
  if (alert.link) {
    attachment.title = 'Open in Vigil';
    attachment.title_link = alert.link;
  }
  return attachment;
}

/** An alert: the title in bold as the post, the note and facts in an attachment coloured by state. */
function mattermostPayload(alert: AlertMessage, channel: string | undefined): Record<string, unknown> {
  let attachment = attachmentOf(alert);
  if (JSON.stringify(attachment).length > MAX_ATTACHMENT) {
    // Facts are bounded (names 200, errors 500 characters): only a long note can get here.
    attachment = { ...attachment, text: clip(String(attachment.text), 1000) };
  }
  const payload: Record<string, unknown> = {
    text: `**${escapeMattermost(clip(alert.title, MAX_TITLE))}**`,
    attachments: [attachment],
  };
  if (channel) payload.channel = channel;
  return payload;
}

/** A digest part: the title, the summary and as many event lines as 16,383 characters hold. */
function mattermostDigestPayload(
  digest: DigestMessage,
  channel: string | undefined,
): Record<string, unknown> {
  const head = [
    `**${escapeMattermost(clip(digest.title, MAX_TITLE))}**`,
    ...digest.summary.map((line) => escapeMattermost(clip(line, 2000))),
    '',
  ];
  const text = (lines: string[]) => [...head, ...lines.map(escapeMattermost)].join('\n');
  const payload: Record<string, unknown> = {
    text: text(fitLines(digest.lines, (kept) => text(kept).length <= MAX_TEXT)),
  };
  if (channel) payload.channel = channel;
  return payload;
}

/** A channel's name as in its URL (`town-square`), or `@user` for a direct message. */
const channelName = z
  .string()
  .regex(
    /^@?[a-z0-9][a-z0-9._-]{0,63}$/,
    'Enter a channel name as in its URL (such as town-square), or @username; lower case letters, digits, ".", "-" and "_".',
  )
  .meta({ description: "A channel name as in its URL, or @username: overrides the webhook's channel" });

const config = z.strictObject({
  url: receiverUrl,
  channel: channelName.optional(),
});

export const mattermostChannel = defineChannel({
  label: 'Mattermost',
  input: config,
  stored: z.object({ url: z.string(), channel: z.string().optional() }),
  view: z.strictObject({ url: urlView, channel: z.string().optional() }),
  secrets: [],
  present: (stored, _tenantId, options) => ({
    config: {
      url: shownUrl(stored.url, options),
      ...(stored.channel ? { channel: stored.channel } : {}),
    },
  }),
  destinations: urlDestination,
  send: (deps, channel, alert) =>
    sendJson(
      deps.http,
      {
        url: channel.config.url,
        body: mattermostPayload(messageFor(channel, alert, deps.publicUrl), channel.config.channel),
      },
      secretPartsOf(channel.config.url),
    ),
  sendDigest: (deps, channel, digest) =>
    sendJson(
      deps.http,
      {
        url: channel.config.url,
        body: mattermostDigestPayload(describeDigest(digest), channel.config.channel),
      },
      secretPartsOf(channel.config.url),
    ),
});
