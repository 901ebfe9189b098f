import * as z from 'zod';
import type { Alert, SendOutcome } from '../pipeline/ports.ts';
import {
  headerSafe,
  MAX_TOKEN_LENGTH,
  redactedView,
  shownSecret,
  shownUrl,
  topicUrl,
  urlDestination,
  urlView,
} from './config-fields.ts';
import { type ChannelOf, type ChannelSendDeps, defineChannel } from './definition.ts';
import { type DigestMessage, describeDigest, linesWithin } from './digest-message.ts';
import { postOnce } from './http-post.ts';
import { type AlertMessage, clip, messageFor, plainText, type Tone } from './message.ts';

/** The ntfy channel: the message as the text body of a POST to the topic URL, the rest in ntfy's headers. */

const storedConfig = z.object({ url: z.string(), token: z.string().optional() });
type NtfyConfig = z.output<typeof storedConfig>;

/** ntfy priorities: a service down wakes people (high); the rest arrive normally. */
const PRIORITY: Record<Tone, string> = { down: 'high', degraded: 'default', up: 'default', other: 'default' };
/** ntfy turns these tags into emojis on the phone. */
const TAGS: Record<Tone, string> = {
  down: 'rotating_light',
  degraded: 'warning',
  up: 'white_check_mark',
  other: 'grey_question',
};
/** ntfy's message limit (bytes); a longer body becomes an attachment. */
const MAX_BYTES = 4096;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * A header-safe value: line breaks removed, and non-ASCII text as an RFC 2047 encoded word, which
 * ntfy decodes (HTTP header values are bytes, and entity names are not always ASCII).
 */
function headerText(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/** The topic request: the message as the text body, the rest in ntfy's headers. */
function ntfyRequest(
  channel: ChannelOf<NtfyConfig>,
  message: AlertMessage,
): { url: string; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(message.title),
    priority: PRIORITY[message.tone],
    tags: TAGS[message.tone],
  };
  if (message.link) headers.click = message.link;
  if (channel.config.token) headers.authorization = `Bearer ${channel.config.token}`;
  return { url: channel.config.url, headers, body: plainText(message, false) };
}

/** A digest part: the title as a header, the summary and lines as a body of ≤ 4,096 bytes. */
function ntfyDigestRequest(channel: ChannelOf<NtfyConfig>, message: DigestMessage) {
  const head = message.summary.join('\n');
  const lines = linesWithin(message.lines, MAX_BYTES - bytes(head) - 2, bytes);
  let body = [head, '', ...lines].join('\n');
  while (bytes(body) > MAX_BYTES) body = body.slice(0, body.length - 64);
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(clip(message.title, 250)),
    priority: message.tone === 'down' ? 'high' : 'default',
    tags: 'package',
  };
  if (channel.config.token) headers.authorization = `Bearer ${channel.config.token}`;
  return { url: channel.config.url, headers, body };
}

/** Publishes the alert to an ntfy topic URL. */
function sendNtfy(deps: ChannelSendDeps, channel: ChannelOf<NtfyConfig>, alert: Alert): Promise<SendOutcome> {
  return postOnce(deps.http, ntfyRequest(channel, messageFor(channel, alert, deps.publicUrl)));
}

export const ntfyChannel = defineChannel({
  label: 'ntfy',
  input: z.strictObject({ url: topicUrl, token: headerSafe(MAX_TOKEN_LENGTH).optional() }),
  stored: storedConfig,
  view: z.strictObject({ url: urlView, token: redactedView.optional() }),
  secrets: ['token'],
  present: (config, _tenantId, options) => ({
    config: { url: shownUrl(config.url, options), ...shownSecret('token', config.token) },
  }),
  destinations: urlDestination,
  send: sendNtfy,
  sendDigest: (deps, channel, digest) =>
    postOnce(deps.http, ntfyDigestRequest(channel, describeDigest(digest))),
});
