import { natsSubjectProblem, publishedSubject } from '../../domain/nats-subject.ts';
import type { ChannelRecord } from '../channel-items.ts';
import type { Digest, SendOutcome } from '../ports.ts';
import { type DigestMessage, describeDigest, digestPayload, linesWithin } from './digest-message.ts';
import { DISCORD_COLORS } from './discord.ts';
import { type EmailDeps, NO_SMTP_SERVER, noSenderError } from './email.ts';
import { escapeHtml, headerLine } from './email-message.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';
import { clip } from './message.ts';
import type { NatsPublisher } from './nats.ts';
import { headerText } from './ntfy.ts';
import { escapeSlack } from './slack.ts';
import { webhookSignature } from './webhook.ts';

/**
 * A digest part on each channel type, within that type's documented limits: Slack (≤ 50 blocks,
 * section text ≤ 3,000 characters, header ≤ 150), Discord (one embed: description ≤ 4,096,
 * title ≤ 256, the embed ≤ 6,000 in all; content ≤ 2,000), ntfy (the title in a header, the
 * message ≤ 4,096 bytes), email (text and HTML, every event), NATS (the JSON payload in as many
 * messages as the server's max_payload needs), webhook (the JSON payload, signed as alerts are).
 */

type Of<T extends ChannelRecord['channel_type']> = Extract<ChannelRecord, { channel_type: T }>;

const SLACK_MAX_BLOCKS = 50;
const SLACK_MAX_SECTION = 3000;
const SLACK_MAX_HEADER = 150;
const DISCORD_MAX_DESCRIPTION = 4096;
const DISCORD_MAX_TITLE = 256;
const DISCORD_MAX_CONTENT = 2000;
const NTFY_MAX_BYTES = 4096;
/** NATS's default max_payload, when the server did not say. */
export const NATS_DEFAULT_MAX_PAYLOAD = 1024 * 1024;

const chars = (text: string) => text.length;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Slack: header, the summary, then the event lines in sections of ≤ 3,000 characters, ≤ 50 blocks. */
export function slackDigestPayload(message: DigestMessage): { text: string; blocks: unknown[] } {
  const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
  const blocks: unknown[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: clip(message.title, SLACK_MAX_HEADER), emoji: true },
    },
    section(clip(escapeSlack(message.summary.join('\n')), SLACK_MAX_SECTION)),
  ];
  // Lines escaped first (escaping lengthens them); two blocks are taken, the rest hold the lines.
  const room = (SLACK_MAX_BLOCKS - blocks.length) * (SLACK_MAX_SECTION - 1);
  const lines = linesWithin(message.lines.map(escapeSlack), room, chars);
  let chunk: string[] = [];
  let size = 0;
  for (const line of lines) {
    const cut = clip(line, SLACK_MAX_SECTION);
    if (size + cut.length + 1 > SLACK_MAX_SECTION) {
      blocks.push(section(chunk.join('\n')));
      chunk = [];
      size = 0;
    }
    chunk.push(cut);
    size += cut.length + 1;
  }
  if (chunk.length > 0) blocks.push(section(chunk.join('\n')));
  const text = clip(escapeSlack([message.title, ...message.summary].join('\n')), SLACK_MAX_SECTION);
  return { text, blocks: blocks.slice(0, SLACK_MAX_BLOCKS) };
}

/** Discord: one embed whose description holds the summary and as many lines as 4,096 allows. */
export function discordDigestPayload(message: DigestMessage): Record<string, unknown> {
  const title = clip(message.title, DISCORD_MAX_TITLE);
  const head = clip(message.summary.join('\n'), DISCORD_MAX_DESCRIPTION / 2);
  const lines = linesWithin(message.lines, DISCORD_MAX_DESCRIPTION - head.length - 2, chars);
  const description = clip([head, '', ...lines].join('\n'), DISCORD_MAX_DESCRIPTION);
  return {
    content: clip(message.title, DISCORD_MAX_CONTENT),
    embeds: [{ title, description, color: DISCORD_COLORS[message.tone] }],
    allowed_mentions: { parse: [] },
  };
}

/** ntfy: the title as a header, the summary and lines as a body of ≤ 4,096 bytes. */
export function ntfyDigestRequest(channel: Of<'ntfy'>, message: DigestMessage) {
  const head = message.summary.join('\n');
  const lines = linesWithin(message.lines, NTFY_MAX_BYTES - bytes(head) - 2, bytes);
  let body = [head, '', ...lines].join('\n');
  while (bytes(body) > NTFY_MAX_BYTES) body = body.slice(0, body.length - 64);
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(clip(message.title, 250)),
    priority: message.tone === 'down' ? 'high' : 'default',
    tags: 'package',
  };
  if (channel.config.token) headers.authorization = `Bearer ${channel.config.token}`;
  return { url: channel.config.url, headers, body };
}

/** Email: the subject, and every line in text and HTML (a part holds at most 1,000 events). */
export function digestEmailContent(message: DigestMessage): { subject: string; text: string; html: string } {
  const text = [message.title, '', ...message.summary, '', ...message.lines].join('\n');
  const list = message.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n');
  const summary = message.summary.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
  const html = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px">',
    `<h2>${escapeHtml(message.title)}</h2>`,
    summary,
    `<ul>\n${list}\n</ul>`,
    '</body></html>',
  ].join('\n');
  return { subject: headerLine(`[Vigil] ${message.title}`), text: `${text}\n`, html };
}

/** NATS: the JSON payload, split into as many messages as `maxPayload` bytes each require. */
export function natsDigestMessages(digest: Digest, maxPayload: number): Buffer[] {
  const encode = (events: Digest['events'], chunk?: { chunk: number; chunks: number }) =>
    Buffer.from(JSON.stringify({ ...digestPayload(digest, events), ...chunk }), 'utf8');
  for (let chunks = 1; chunks <= digest.events.length + 1; chunks *= 2) {
    const size = Math.ceil(digest.events.length / chunks);
    const messages = Array.from({ length: chunks }, (_, i) =>
      encode(
        digest.events.slice(i * size, (i + 1) * size),
        chunks > 1 ? { chunk: i + 1, chunks } : undefined,
      ),
    ).filter((_, i) => i === 0 || i * size < digest.events.length);
    if (messages.every((m) => m.length <= maxPayload)) return messages;
  }
  return [];
}

/** What the digest senders need: the URL channels' HTTP, the email transport, the NATS publisher. */
export interface DigestSenderDeps {
  http: HttpPostDeps;
  email: EmailDeps;
  nats: NatsPublisher;
  natsPrefix: string;
}

/** Sends one digest part to any channel type. */
export async function sendDigestTo(
  deps: DigestSenderDeps,
  channel: ChannelRecord,
  digest: Digest,
): Promise<SendOutcome> {
  const json = { 'content-type': 'application/json' };
  switch (channel.channel_type) {
    case 'webhook': {
      const body = Buffer.from(JSON.stringify(digestPayload(digest)), 'utf8');
      const headers: Record<string, string> = { ...json, 'x-service-delivery': digest.deliveryId };
      if (channel.config.secret)
        headers['x-service-signature'] = webhookSignature(channel.config.secret, body);
      return postOnce(deps.http, { url: channel.config.url, headers, body });
    }
    case 'slack': {
      const body = JSON.stringify(slackDigestPayload(describeDigest(digest)));
      return postOnce(deps.http, { url: channel.config.url, headers: json, body });
    }
    case 'discord': {
      const body = JSON.stringify(discordDigestPayload(describeDigest(digest)));
      return postOnce(deps.http, { url: channel.config.url, headers: json, body });
    }
    case 'ntfy':
      return postOnce(deps.http, ntfyDigestRequest(channel, describeDigest(digest)));
    case 'email': {
      const { transport, from } = deps.email;
      if (!transport) return { ok: false, status_code: null, error: NO_SMTP_SERVER };
      if (!from) return { ok: false, status_code: null, error: noSenderError(deps.email.runtime) };
      const content = digestEmailContent(describeDigest(digest));
      const email = { ...content, from, to: [...channel.config.to], deliveryId: digest.deliveryId };
      return transport.send(email).catch((err: unknown) => ({
        ok: false,
        status_code: null,
        error: `send failed: ${err instanceof Error ? err.message : String(err)}`,
      }));
    }
    case 'nats': {
      const problem = natsSubjectProblem(channel.config.subject);
      if (problem) return { ok: false, status_code: null, error: `the subject is not published. ${problem}` };
      const max = (await deps.nats.maxPayload?.()) ?? NATS_DEFAULT_MAX_PAYLOAD;
      const subject = publishedSubject(deps.natsPrefix, channel.tenant_id, channel.config.subject);
      for (const message of natsDigestMessages(digest, max)) {
        const outcome = await deps.nats.publish(subject, message);
        if (!outcome.ok) return outcome;
      }
      return { ok: true, status_code: null, error: null };
    }
  }
}
