import { createHash } from 'node:crypto';
import * as z from 'zod';
import { defineProviderChannel } from './channel-use.ts';
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
import { type AlertMessage, clip, type DigestMessage, linesWithin, plainText, type Tone } from './message.ts';
import { definePersonUse, sent } from './person-use.ts';
import type { Provider } from './provider.ts';
import { field, type ProviderHttp, type ProviderOutcome, postToProvider } from './provider-post.ts';

/**
 * ntfy (https://docs.ntfy.sh/publish/), defined once: the message as the text body of a POST to
 * the topic URL, the rest in ntfy's headers, and ntfy's error words
 * (`{"code":40301,"http":403,"error":"forbidden"}`). Its uses: the alert channel, to the channel's
 * topic URL, and people's ntfy.
 */

interface NtfyMessage {
  /** The topic URL. */
  url: string;
  title: string;
  body: string;
  priority: 'high' | 'default';
  /** Tags, which ntfy shows as emojis ("rotating_light"). */
  tags?: string | undefined;
  /** What a click on the notification opens. */
  click?: string | undefined;
  /** An access token for a protected topic. */
  token?: string | undefined;
  /**
   * The message's own id: sent as its sequence id (`X-Sequence-ID`, ntfy 2.16 and later), so a
   * message sent again replaces the first on the devices instead of arriving twice; an older
   * server ignores the header.
   */
  deliveryId?: string | undefined;
}

/**
 * A header-safe value: line breaks removed, and non-ASCII text as an RFC 2047 encoded word, which
 * ntfy decodes (HTTP header values are bytes, and entity names are not always ASCII).
 */
function headerText(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/**
 * The sequence id of a message id: ntfy takes `^[-_A-Za-z0-9]{1,64}$` (and refuses anything else
 * with a 400), so the id's SHA-256, base64url, under a prefix.
 */
const sequenceId = (deliveryId: string) =>
  `vigil-${createHash('sha256').update(deliveryId).digest('base64url').slice(0, 40)}`;

/** Publishes one message to its topic. */
function sendNtfy(http: ProviderHttp, message: NtfyMessage): Promise<ProviderOutcome> {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(message.title),
    priority: message.priority,
  };
  if (message.tags) headers.tags = message.tags;
  if (message.click) headers.click = message.click;
  if (message.token) headers.authorization = `Bearer ${message.token}`;
  if (message.deliveryId) headers['x-sequence-id'] = sequenceId(message.deliveryId);
  return postToProvider(
    http,
    'ntfy',
    { url: message.url, headers, body: message.body },
    { secrets: [message.token], explain: (answer) => field(answer.json, 'error')?.toString() },
  );
}

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
function ntfyMessage(config: NtfyConfig, message: AlertMessage): NtfyMessage {
  return {
    url: config.url,
    title: message.title,
    body: plainText(message, false),
    priority: PRIORITY[message.tone],
    tags: TAGS[message.tone],
    click: message.link,
    token: config.token,
  };
}

/** A digest part: the title as a header, the summary and lines as a body of ≤ 4,096 bytes. */
function ntfyDigestMessage(config: NtfyConfig, message: DigestMessage): NtfyMessage {
  const head = message.summary.join('\n');
  const lines = linesWithin(message.lines, MAX_BYTES - bytes(head) - 2, bytes);
  let body = [head, '', ...lines].join('\n');
  while (bytes(body) > MAX_BYTES) body = body.slice(0, body.length - 64);
  return {
    url: config.url,
    title: clip(message.title, 250),
    body,
    priority: message.tone === 'down' ? 'high' : 'default',
    tags: 'package',
    token: config.token,
  };
}

const channel = defineProviderChannel({
  label: 'ntfy',
  input: z.strictObject({ url: topicUrl, token: headerSafe(MAX_TOKEN_LENGTH).optional() }),
  stored: storedConfig,
  view: z.strictObject({ url: urlView, token: redactedView.optional() }),
  secrets: ['token'],
  present: (config, _tenantId, options) => ({
    config: { url: shownUrl(config.url, options), ...shownSecret('token', config.token) },
  }),
  destinations: urlDestination,
  send: (deps, config, alert) => sendNtfy(deps.http, ntfyMessage(config, alert.message)),
  sendDigest: (deps, config, digest) => sendNtfy(deps.http, ntfyDigestMessage(config, digest.message)),
});

/** A topic URL: http(s), a host name or address, a port maybe, and a path. */
const TOPIC_URL = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/[A-Za-z0-9._~%/-]+$/;

/**
 * People's ntfy: the message to the person's topic URL at high priority, with the message's id as
 * its sequence id, so a message sent again (a page whose first send's outcome was lost) replaces
 * the first on the person's devices instead of arriving twice.
 */
const people = {
  ntfy: definePersonUse({
    label: 'ntfy',
    address: z
      .string()
      .max(2048, 'Enter at most 2,048 characters.')
      .regex(TOPIC_URL, 'Enter the topic’s URL: http(s)://host/topic.')
      .meta({ description: 'Your ntfy topic URL, such as https://ntfy.sh/ana-pages' }),
    missing: () => undefined,
    send: (deps, _accounts, target, message) =>
      sent(
        sendNtfy(deps.http, {
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

export const ntfyProvider = { channel, people } satisfies Provider;
