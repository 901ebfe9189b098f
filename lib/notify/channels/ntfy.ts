import * as z from 'zod';
import { type NtfyMessage, sendNtfy } from '../../providers/ntfy.ts';
import type { Alert, SendOutcome } from '../items/ports.ts';
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
import { type AlertMessage, clip, messageFor, plainText, type Tone } from './message.ts';
import { defineContactKind, httpOf, sent } from './person-use.ts';

/**
 * ntfy's uses (lib/providers/ntfy.ts): the channel, the alert as an ntfy message to the channel's
 * topic URL, and people's ntfy (`ntfyPeople`).
 */

const storedConfig = z.object({ url: z.string(), token: z.string().optional() });
type NtfyConfig = z.output<typeof storedConfig>;

/** ntfy priorities: a service down wakes people (high); the rest arrive normally. */
const PRIORITY: Record<Tone, NtfyMessage['priority']> = {
  down: 'high',
  degraded: 'default',
  up: 'default',
  other: 'default',
};
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

/** The topic message: the text as the body, the rest in ntfy's headers. */
function ntfyMessage(channel: ChannelOf<NtfyConfig>, message: AlertMessage): NtfyMessage {
  return {
    url: channel.config.url,
    title: message.title,
    body: plainText(message, false),
    priority: PRIORITY[message.tone],
    tags: TAGS[message.tone],
    click: message.link,
    token: channel.config.token,
  };
}

/** A digest part: the title as a header, the summary and lines as a body of ≤ 4,096 bytes. */
function ntfyDigestMessage(channel: ChannelOf<NtfyConfig>, message: DigestMessage): NtfyMessage {
  const head = message.summary.join('\n');
  const lines = linesWithin(message.lines, MAX_BYTES - bytes(head) - 2, bytes);
  let body = [head, '', ...lines].join('\n');
  while (bytes(body) > MAX_BYTES) body = body.slice(0, body.length - 64);
  return {
    url: channel.config.url,
    title: clip(message.title, 250),
    body,
    priority: message.tone === 'down' ? 'high' : 'default',
    tags: 'package',
    token: channel.config.token,
  };
}

/** Publishes the alert to an ntfy topic URL. */
function sendAlert(
  deps: ChannelSendDeps,
  channel: ChannelOf<NtfyConfig>,
  alert: Alert,
): Promise<SendOutcome> {
  return sendNtfy(deps.http, ntfyMessage(channel, messageFor(channel, alert, deps.publicUrl)));
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
  send: sendAlert,
  sendDigest: (deps, channel, digest) =>
    sendNtfy(deps.http, ntfyDigestMessage(channel, describeDigest(digest))),
});

/** A topic URL: http(s), a host name or address, a port maybe, and a path. */
const TOPIC_URL = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/[A-Za-z0-9._~%/-]+$/;

/**
 * People's ntfy: the message to the person's topic URL at high priority, with the message's id as
 * its sequence id, so a message sent again (a page whose first send's outcome was lost) replaces
 * the first on the person's devices instead of arriving twice.
 */
export const ntfyPeople = {
  ntfy: defineContactKind({
    label: 'ntfy',
    address: z
      .string()
      .max(2048, 'Enter at most 2,048 characters.')
      .regex(TOPIC_URL, 'Enter the topic’s URL: http(s)://host/topic.')
      .meta({ description: 'Your ntfy topic URL, such as https://ntfy.sh/ana-pages' }),
    missing: () => undefined,
    send: (deps, _accounts, target, message) =>
      sent(
        sendNtfy(httpOf(deps), {
          url: target.address,
          title: message.subject,
          body: message.text,
          priority: 'high',
          deliveryId: message.deliveryId,
        }),
        [target.address],
      ),
  }),
};
