import type { Clock } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import type { ChannelRules } from '../../providers/channel-use.ts';
import type { SmsTransport } from '../../providers/ports.ts';
import type { Acknowledgement, Alert, Digest, SendOutcome } from '../items/ports.ts';
import type { EmailDeps, HttpPostDeps, NatsPublisher } from './send-ports.ts';

/**
 * One channel type, whole, in one file (Gatus's `alerting/provider/<name>/<name>.go`, Healthchecks'
 * `Transport`): its config rules (lib/providers/channel-use.ts ChannelRules: what a request may
 * configure, what is stored, what the API shows, which URLs the SSRF guard checks at create), and
 * how an alert, a digest part and an incident's acknowledgement are sent. A messaging provider's
 * channel is declared in its provider's file (lib/providers/<provider>.ts) and made a definition
 * by ./provider-channels.ts; every other type is a file of this folder. Registered once in
 * ./registry.ts (`CHANNEL_DEFINITIONS`, whose keys are the types), so the compiler refuses a type
 * without every part. Nothing outside a definition file switches on a channel type's name
 * (test/architecture/variant-switches.test.ts).
 */

export type { ChannelViewOptions } from '../../providers/channel-use.ts';
export type { SmsTransport } from '../../providers/ports.ts';

/** What a channel definition's senders may use: the runtime's outbound paths. */
export interface ChannelSendDeps {
  /** URL channels: the SSRF guard's allow-list, the egress pool, trusted CAs. */
  http: HttpPostDeps;
  /** VIGIL_PUBLIC_URL, for console links in messages. */
  publicUrl: string | undefined;
  email: EmailDeps;
  nats: NatsPublisher;
  /** VIGIL_NATS_PREFIX. */
  natsPrefix: string;
  /** The runtime whose setting a refusal names. */
  runtime: Runtime;
  clock: Clock;
  /** The cloud's SMS path (Amazon SNS); undefined locally, where SMS goes through Twilio only. */
  sms?: SmsTransport | undefined;
}

/** A stored channel as a definition's sender sees it: its own config typed. */
export interface ChannelOf<C> {
  id: string;
  tenant_id: string;
  /** The check whose alert it carries; '' for a shared channel's test attached to no check. */
  check_id: string;
  name?: string | undefined;
  config: C;
  /** The channel's own message template (title and body), if it has one: messageFor applies it. */
  template?: MessageTemplate | undefined;
}

/** A channel's optional message template: logic-less, over the event's fields (message.ts messageFor). */
export interface MessageTemplate {
  title?: string | undefined;
  body?: string | undefined;
}

/**
 * One channel type: its config rules and its senders. `C` is its config as stored and sent
 * (secrets included); `V` the config as the API shows it.
 */
export interface ChannelDefinition<C extends object = object, V extends object = object>
  extends ChannelRules<C, V> {
  /** Sends one attempt of an alert (alert, recovery, repeat, escalation, flapping notice, test). */
  send(deps: ChannelSendDeps, channel: ChannelOf<NoInfer<C>>, alert: Alert): Promise<SendOutcome>;
  /** Sends one part of a digest within the provider's limits. */
  sendDigest(deps: ChannelSendDeps, channel: ChannelOf<NoInfer<C>>, digest: Digest): Promise<SendOutcome>;
  /**
   * What this deployment lacks for the type to send, each worded as its sends would fail (email
   * without an SMTP server or a sender): said when a channel is saved. Absent: nothing it needs.
   */
  setupWarnings?(deps: ChannelSendDeps): string[];
  /** Tells the provider an incident was acknowledged in Vigil; absent: the type has no incidents. */
  acknowledge?(
    deps: ChannelSendDeps,
    channel: ChannelOf<NoInfer<C>>,
    ack: Acknowledgement,
  ): Promise<SendOutcome>;
}

/**
 * Declares a channel type with its config types inferred from its schemas (`input`, `stored`,
 * `view`) only: the methods' parameters are `NoInfer`, so a helper typed on part of the config
 * (`(config: {url: string}) => ...`) cannot narrow the type.
 */
export function defineChannel<C extends object, V extends object>(
  definition: ChannelDefinition<C, V>,
): ChannelDefinition<C, V> {
  return definition;
}
