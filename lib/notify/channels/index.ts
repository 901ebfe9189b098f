import type { EmailSender } from '../../domain/email-address.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import type { HttpTransport } from '../../platform/egress.ts';
import type { Resolve } from '../../platform/egress-guard.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ChannelRecord } from '../channel-items.ts';
import type { Alert, ChannelSenders, SendOutcome } from '../ports.ts';
import { sendDigestTo } from './digest.ts';
import { sendDiscord } from './discord.ts';
import { type EmailTransport, sendEmail } from './email.ts';
import { createNatsPublisher, sendNats } from './nats.ts';
import { sendNtfy } from './ntfy.ts';
import { sendSlack } from './slack.ts';
import { sendWebhook } from './webhook.ts';

/** What the senders need: egress settings, the NATS servers, the console URL for links. */
export interface ChannelSenderDeps {
  /** CIDRs exempt from the SSRF guard's private denial (VIGIL_EGRESS_ALLOW). */
  egressAllow: string[];
  /** The runtime whose setting a refused send names; local by default. */
  runtime?: Runtime;
  /** VIGIL_NATS_URL; empty: nats deliveries fail with a clear error. */
  natsUrls: string[];
  /** VIGIL_NATS_PREFIX: the first token(s) of every published subject, before the tenant id. */
  natsPrefix: string;
  /** VIGIL_PUBLIC_URL, for console links in messages. */
  publicUrl?: string;
  logger: Logger;
  /** Extra trusted CA certificates (PEM) for HTTPS receivers. */
  ca?: string[];
  resolve?: Resolve;
  /** The process's kept-alive pools; a fresh connection per send without. */
  transport?: HttpTransport;
  clock: Clock;
  /** The runtime's email transport (SMTP locally, SES in the cloud); undefined: email deliveries fail, saying why. */
  email?: EmailTransport | undefined;
  /** VIGIL_EMAIL_FROM. */
  emailFrom?: EmailSender | undefined;
}

/** Sends one attempt to any channel type: six senders behind the ChannelSenders port. */
export function createChannelSenders(deps: ChannelSenderDeps): ChannelSenders {
  const http = {
    egressAllow: deps.egressAllow,
    runtime: deps.runtime,
    ca: deps.ca,
    resolve: deps.resolve,
    transport: deps.transport,
    publicUrl: deps.publicUrl,
  };
  const nats = createNatsPublisher({ natsUrls: deps.natsUrls, logger: deps.logger });
  const email = {
    transport: deps.email,
    from: deps.emailFrom,
    publicUrl: deps.publicUrl,
    runtime: deps.runtime,
  };

  function dispatch(channel: ChannelRecord, alert: Alert): Promise<SendOutcome> {
    switch (channel.channel_type) {
      case 'webhook':
        return sendWebhook(http, channel, alert);
      case 'slack':
        return sendSlack(http, channel, alert);
      case 'discord':
        return sendDiscord(http, channel, alert);
      case 'ntfy':
        return sendNtfy(http, channel, alert);
      case 'nats':
        return sendNats(nats, deps.natsPrefix, channel, alert);
      case 'email':
        return sendEmail(email, channel, alert);
    }
  }

  return {
    async send(channel, alert) {
      const started = deps.clock.now();
      const outcome = await dispatch(channel, alert);
      // Ids and outcome only: channel configs hold secrets and secret-bearing URLs.
      deps.logger.debug('channel send', {
        channel_id: channel.id,
        channel_type: channel.channel_type,
        delivery_id: alert.deliveryId,
        ok: outcome.ok,
        status_code: outcome.status_code,
        error: outcome.error,
        ms: deps.clock.now() - started,
      });
      return outcome;
    },
    sendDigest(channel, digest) {
      return sendDigestTo({ http, email, nats, natsPrefix: deps.natsPrefix }, channel, digest);
    },
    async close() {
      await Promise.all([nats.close(), deps.email?.close?.()]);
    },
  };
}
