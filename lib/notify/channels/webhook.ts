import { createHmac } from 'node:crypto';
import * as z from 'zod';
import {
  headerSafe,
  MAX_SECRET_LENGTH,
  receiverUrl,
  redactedView,
  shownSecret,
  shownUrl,
  urlDestination,
  urlView,
} from '../../providers/config-fields.ts';
import type { Alert, SendOutcome } from '../items/ports.ts';
import { type ChannelOf, defineChannel } from './definition.ts';
import { digestPayload } from './digest-message.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';
import { eventPayload } from './payload.ts';

/**
 * The webhook channel: the state-change event (payload.ts) as JSON, signed with HMAC-SHA256 when
 * the channel has a secret, with the delivery id (the same on every attempt) for receiver-side dedup.
 */

const storedConfig = z.object({ url: z.string(), secret: z.string().optional() });
type WebhookConfig = z.output<typeof storedConfig>;

/** `sha256=<lowercase hex HMAC-SHA256>` of the exact body bytes, as receivers recompute it. */
function webhookSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The signed request of a body (an alert's event, or a digest part's payload). */
function signedRequest(channel: { config: WebhookConfig }, deliveryId: string, body: Buffer) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-delivery': deliveryId,
  };
  if (channel.config.secret) headers['x-service-signature'] = webhookSignature(channel.config.secret, body);
  return { url: channel.config.url, headers, body };
}

/**
 * A JSON body POSTed and signed as a webhook channel's, outside any channel: a status page's
 * webhook subscribers (lib/status-pages/subscribers/subscriber-webhooks.ts), through the same SSRF guard.
 */
export function postSignedWebhook(
  deps: HttpPostDeps,
  target: { url: string; secret: string; deliveryId: string },
  body: Buffer,
): Promise<SendOutcome> {
  return postOnce(
    deps,
    signedRequest({ config: { url: target.url, secret: target.secret } }, target.deliveryId, body),
  );
}

/** The webhook request of an alert: the event with `check_name` (payload.ts), signed when the channel has a secret. */
function webhookRequest(
  channel: ChannelOf<WebhookConfig>,
  alert: Alert,
): { url: string; headers: Record<string, string>; body: Buffer } {
  return signedRequest(channel, alert.deliveryId, eventPayload(alert));
}

/** POSTs the event to a webhook channel; non-2xx, a timeout (10 s) or a connection error fail. */
function sendWebhook(
  deps: HttpPostDeps,
  channel: ChannelOf<WebhookConfig>,
  alert: Alert,
): Promise<SendOutcome> {
  return postOnce(deps, webhookRequest(channel, alert));
}

export const webhookChannel = defineChannel({
  label: 'Webhook',
  templates: false,
  input: z.strictObject({ url: receiverUrl, secret: headerSafe(MAX_SECRET_LENGTH).optional() }),
  stored: storedConfig,
  view: z.strictObject({ url: urlView, secret: redactedView.optional() }),
  secrets: ['secret'],
  present: (config, _tenantId, options) => ({
    config: { url: shownUrl(config.url, options), ...shownSecret('secret', config.secret) },
  }),
  destinations: urlDestination,
  send: (deps, channel, alert) => sendWebhook(deps.http, channel, alert),
  // A digest part: the machine payload (digest-message.ts), signed as alerts are.
  sendDigest: (deps, channel, digest) =>
    postOnce(
      deps.http,
      signedRequest(channel, digest.deliveryId, Buffer.from(JSON.stringify(digestPayload(digest)), 'utf8')),
    ),
});
