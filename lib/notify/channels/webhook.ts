import { createHmac } from 'node:crypto';
import type { ChannelRecord } from '../channel-items.ts';
import type { Alert, SendOutcome } from '../ports.ts';
import { type HttpPostDeps, postOnce } from './http-post.ts';
import { eventPayload } from './payload.ts';

type WebhookChannel = Extract<ChannelRecord, { channel_type: 'webhook' }>;

/** `sha256=<lowercase hex HMAC-SHA256>` of the exact body bytes, as receivers recompute it. */
export function webhookSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The webhook request: the state-change event with `check_name` as JSON (payload.ts), signed when the channel has a
 * secret, with the delivery id (the same on every attempt) for receiver-side dedup.
 */
export function webhookRequest(
  channel: WebhookChannel,
  alert: Alert,
): { url: string; headers: Record<string, string>; body: Buffer } {
  const body = eventPayload(alert);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-delivery': alert.deliveryId,
  };
  if (channel.config.secret) headers['x-service-signature'] = webhookSignature(channel.config.secret, body);
  return { url: channel.config.url, headers, body };
}

/** POSTs the event to a webhook channel; non-2xx, a timeout (10 s) or a connection error fail. */
export function sendWebhook(deps: HttpPostDeps, channel: WebhookChannel, alert: Alert): Promise<SendOutcome> {
  return postOnce(deps, webhookRequest(channel, alert));
}
