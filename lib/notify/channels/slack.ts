import type * as z from 'zod';
import { webhookUrlChannel } from '../../providers/config-fields.ts';
import type { Alert, SendOutcome } from '../items/ports.ts';
import { sendJson } from './chat-common.ts';
import { type ChannelOf, type ChannelSendDeps, defineChannel } from './definition.ts';
import { type DigestMessage, describeDigest } from './digest-message.ts';
import { type AlertMessage, clip, messageFor, plainText } from './message.ts';

/** The Slack channel: an incoming webhook's Block Kit message (alerts and digest parts). */

const storedConfig = webhookUrlChannel.stored;
type SlackConfig = z.output<typeof storedConfig>;

/** Slack's Block Kit limits: header text 150 characters, section text 3,000, 50 blocks a message. */
const MAX_HEADER = 150;
const MAX_SECTION = 3000;
const MAX_BLOCKS = 50;

const EMOJI = {
  down: ':red_circle:',
  degraded: ':large_orange_circle:',
  up: ':large_green_circle:',
  other: ':white_circle:',
};

/** Slack mrkdwn treats `&`, `<` and `>` as control characters (`<!channel>` pings everyone). */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The incoming-webhook payload: `text` (notifications, fallback) plus Block Kit `blocks`. */
function slackPayload(message: AlertMessage): { text: string; blocks: unknown[] } {
  const facts = message.facts.map((f) => `*${escapeSlack(f.label)}:* ${escapeSlack(f.value)}`).join('\n');
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(message.title, MAX_HEADER), emoji: true } },
  ];
  // A template's body comes as the note with no facts (messageFor): it is then the section itself.
  const bodyOnly = message.facts.length === 0 && message.note !== undefined;
  if (message.note && !bodyOnly) {
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeSlack(message.note) }] });
  }
  const section = bodyOnly ? escapeSlack(message.note ?? '') : facts;
  blocks.push({
    type: 'section',
    text: { type: 'mrkdwn', text: clip(`${EMOJI[message.tone]} ${section}`, MAX_SECTION) },
  });
  if (message.link) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in Vigil' }, url: message.link }],
    });
  }
  return { text: escapeSlack(clip(plainText(message, true), MAX_SECTION)), blocks };
}

/**
 * The lines packed into at most `max` sections of at most MAX_SECTION characters, in order; when
 * some do not fit, the last section ends with "… and N more in this digest" (lines made room for it).
 */
function sectionsOf(lines: string[], max: number): string[][] {
  const sections: string[][] = [];
  let size = MAX_SECTION;
  let kept = 0;
  for (const line of lines) {
    if (size + line.length + 1 > MAX_SECTION) {
      if (sections.length === max) break;
      sections.push([]);
      size = 0;
    }
    sections.at(-1)?.push(line);
    size += line.length + 1;
    kept += 1;
  }
  if (kept === lines.length) return sections;
  const last = sections.at(-1) ?? [];
  const tail = () => `… and ${lines.length - kept} more in this digest`;
  while (last.length > 0 && size + tail().length + 1 > MAX_SECTION) {
    size -= (last.pop() ?? '').length + 1;
    kept -= 1;
  }
  last.push(tail());
  return sections;
}

/** A digest part: header, the summary, then the event lines in sections of ≤ 3,000 characters, ≤ 50 blocks. */
function slackDigestPayload(message: DigestMessage): { text: string; blocks: unknown[] } {
  const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(message.title, MAX_HEADER), emoji: true } },
    section(clip(escapeSlack(message.summary.join('\n')), MAX_SECTION)),
  ];
  // Lines escaped first (escaping lengthens them); two blocks are taken, the rest hold the lines.
  for (const chunk of sectionsOf(
    message.lines.map((l) => clip(escapeSlack(l), MAX_SECTION)),
    MAX_BLOCKS - 2,
  ))
    blocks.push(section(chunk.join('\n')));
  const text = clip(escapeSlack([message.title, ...message.summary].join('\n')), MAX_SECTION);
  return { text, blocks: blocks.slice(0, MAX_BLOCKS) };
}

/** The payload as JSON to the webhook URL (the dispatch scrubs the URL out of any error). */
const post = (
  deps: ChannelSendDeps,
  channel: ChannelOf<SlackConfig>,
  payload: unknown,
): Promise<SendOutcome> => sendJson(deps.http, { url: channel.config.url, body: payload }, []);

/** Posts the alert to a Slack incoming webhook. */
function sendSlack(
  deps: ChannelSendDeps,
  channel: ChannelOf<SlackConfig>,
  alert: Alert,
): Promise<SendOutcome> {
  return post(deps, channel, slackPayload(messageFor(channel, alert, deps.publicUrl)));
}

export const slackChannel = defineChannel({
  label: 'Slack',
  ...webhookUrlChannel,
  send: sendSlack,
  sendDigest: (deps, channel, digest) => post(deps, channel, slackDigestPayload(describeDigest(digest))),
});
