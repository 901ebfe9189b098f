import type { ChannelRecord } from '../channel-items.ts';
import type { Alert, SendOutcome } from '../ports.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';
import { type AlertMessage, describeAlert, plainText, type Tone } from './message.ts';

type NtfyChannel = Extract<ChannelRecord, { channel_type: 'ntfy' }>;

/** ntfy priorities: a service down wakes people (high); the rest arrive normally. */
const PRIORITY: Record<Tone, string> = { down: 'high', degraded: 'default', up: 'default', other: 'default' };
/** ntfy turns these tags into emojis on the phone. */
const TAGS: Record<Tone, string> = {
  down: 'rotating_light',
  degraded: 'warning',
  up: 'white_check_mark',
  other: 'grey_question',
};

/**
 * A header-safe value: line breaks removed, and non-ASCII text as an RFC 2047 encoded word, which
 * ntfy decodes (HTTP header values are bytes, and entity names are not always ASCII).
 */
export function headerText(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/** The topic request: the message as the text body, the rest in ntfy's headers. */
export function ntfyRequest(
  channel: NtfyChannel,
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

/** Publishes the alert to an ntfy topic URL. */
export function sendNtfy(
  deps: HttpPostDeps & { publicUrl?: string },
  channel: NtfyChannel,
  alert: Alert,
): Promise<SendOutcome> {
  return postOnce(deps, ntfyRequest(channel, describeAlert(alert, deps.publicUrl)));
}
