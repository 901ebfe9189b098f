import type { EmailSender } from '../../domain/formats.ts';
import { REDACTED } from '../../domain/redaction.ts';
import type { HttpTransport } from '../../egress/egress.ts';
import type { Resolve } from '../../egress/egress-guard.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import type { EmailTransport } from '../../providers/ports.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import type { ChannelSenders, SendOutcome } from '../items/ports.ts';
import type { ChannelSendDeps, SmsTransport } from './definition.ts';
import { createNatsPublisher } from './nats.ts';
import { channelDefinition } from './registry.ts';

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
  /** The cloud's SMS transport (Amazon SNS); undefined locally, where sms channels send through Twilio. */
  smsTransport?: SmsTransport | undefined;
}

/** A URL's path and query (Slack's and Discord's hold their secret; an error answer may echo them). */
function pathOf(url: string): string | undefined {
  try {
    const { pathname, search } = new URL(url);
    return `${pathname}${search}`;
  } catch {
    return undefined;
  }
}

/** Values shorter than this are not scrubbed: they would mask ordinary words of an error. */
const MIN_SCRUBBED = 6;

/**
 * What takes a channel's secrets (its `secrets` values, and its destination URLs, which may embed
 * one) out of an outcome's error: a provider's error answer or a connection error may echo them,
 * and the error is stored in the delivery log and shown.
 */
function scrubber(values: readonly unknown[]): (outcome: SendOutcome) => SendOutcome {
  const secrets = values
    .filter((v): v is string => typeof v === 'string' && v.length >= MIN_SCRUBBED)
    .flatMap((v) => [v, encodeURIComponent(v)])
    // The longest first, so a URL goes whole before a secret inside it.
    .sort((a, b) => b.length - a.length);
  return (outcome) => {
    if (!outcome.error || secrets.length === 0) return outcome;
    const error = secrets.reduce((text, secret) => text.replaceAll(secret, REDACTED), outcome.error);
    return error === outcome.error ? outcome : { ...outcome, error };
  };
}

/** Sends one attempt to any channel type: its definition's sender behind the ChannelSenders port. */
export function createChannelSenders(deps: ChannelSenderDeps): ChannelSenders {
  const nats = createNatsPublisher({ natsUrls: deps.natsUrls, logger: deps.logger });
  const send: ChannelSendDeps = {
    http: {
      egressAllow: deps.egressAllow,
      runtime: deps.runtime,
      ca: deps.ca,
      resolve: deps.resolve,
      transport: deps.transport,
    },
    publicUrl: deps.publicUrl,
    email: { transport: deps.email, from: deps.emailFrom, publicUrl: deps.publicUrl, runtime: deps.runtime },
    nats,
    natsPrefix: deps.natsPrefix,
    runtime: deps.runtime ?? 'local',
    clock: deps.clock,
    sms: deps.smsTransport,
  };

  /** The channel with its config read by its type's stored schema (an old item's extra keys dropped). */
  const typed = (channel: ChannelRecord) => {
    const definition = channelDefinition(channel.channel_type);
    const config = definition.stored.parse(channel.config);
    const scrub = scrubber([
      ...definition.secrets.map((key: string) => config[key]),
      ...definition.destinations(config).flatMap((d) => [d.url, pathOf(d.url)]),
    ]);
    return { definition, channel: { ...channel, config }, scrub };
  };

  return {
    async send(record, alert) {
      const started = deps.clock.now();
      const { definition, channel, scrub } = typed(record);
      const outcome = scrub(await definition.send(send, channel, alert));
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
    async sendDigest(record, digest) {
      const { definition, channel, scrub } = typed(record);
      return scrub(await definition.sendDigest(send, channel, digest));
    },
    acknowledges: (record) => channelDefinition(record.channel_type).acknowledge !== undefined,
    warnings: (channelType) => channelDefinition(channelType).setupWarnings?.(send) ?? [],
    async acknowledge(record, ack) {
      const { definition, channel, scrub } = typed(record);
      if (!definition.acknowledge)
        return { ok: false, status_code: null, error: 'this channel type has no incidents' };
      return scrub(await definition.acknowledge(send, channel, ack));
    },
    async close() {
      await Promise.all([nats.close(), deps.email?.close?.()]);
    },
  };
}
