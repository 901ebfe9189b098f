import type { ChannelRecord } from '../channel-items.ts';
import type { Alert, SendOutcome } from '../ports.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';
import { type AlertMessage, clip, describeAlert, plainText } from './message.ts';

type SlackChannel = Extract<ChannelRecord, { channel_type: 'slack' }>;

/** Slack's Block Kit limits: header text 150 characters, section text 3,000. */
const MAX_HEADER = 150;
const MAX_SECTION = 3000;

const EMOJI = {
  down: ':red_circle:',
  degraded: ':large_orange_circle:',
  up: ':large_green_circle:',
  other: ':white_circle:',
};

/** Slack mrkdwn treats `&`, `<` and `>` as control characters (`<!channel>` pings everyone). */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The incoming-webhook payload: `text` (notifications, fallback) plus Block Kit `blocks`. */
export function slackPayload(message: AlertMessage): { text: string; blocks: unknown[] } {
  const facts = message.facts.map((f) => `*${escapeSlack(f.label)}:* ${escapeSlack(f.value)}`).join('\n');
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(message.title, MAX_HEADER), emoji: true } },
  ];
  if (message.note) {
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeSlack(message.note) }] });
  }
  blocks.push({
    type: 'section',
    text: { type: 'mrkdwn', text: clip(`${EMOJI[message.tone]} ${facts}`, MAX_SECTION) },
  });
  if (message.link) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in Vigil' }, url: message.link }],
    });
  }
  return { text: escapeSlack(clip(plainText(message, true), MAX_SECTION)), blocks };
}

/** Posts the alert to a Slack incoming webhook. */
export function sendSlack(
  deps: HttpPostDeps & { publicUrl?: string },
  channel: SlackChannel,
  alert: Alert,
): Promise<SendOutcome> {
  const body = JSON.stringify(slackPayload(describeAlert(alert, deps.publicUrl)));
  return postOnce(deps, { url: channel.config.url, headers: { 'content-type': 'application/json' }, body });
}
