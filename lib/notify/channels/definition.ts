import type * as z from 'zod';
import type { Clock } from '../../platform/clock.ts';
import type { Runtime } from '../../platform/config.ts';
import type { SmsTransport } from '../../providers/sms.ts';
import type { Acknowledgement, Alert, Digest, SendOutcome } from '../items/ports.ts';
import type { EmailDeps, HttpPostDeps, NatsPublisher } from './send-ports.ts';

/**
 * One channel type, whole, in one file (Gatus's `alerting/provider/<name>/<name>.go`, Healthchecks'
 * `Transport`): what a request may configure, what is stored, what the API shows, which URLs the
 * SSRF guard checks at create, and how an alert, a digest part and an incident's acknowledgement
 * are sent. Registered once in ./registry.ts (`CHANNEL_DEFINITIONS`, whose keys are the types), so
 * the compiler refuses a type without every part. Nothing outside a definition file switches on a
 * channel type's name (test/architecture/variant-switches.test.ts).
 */

export type { SmsTransport } from '../../providers/sms.ts';

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

/** How the caller asked to see a channel: redacted for read-only keys. */
export interface ChannelViewOptions {
  readOnly: boolean;
  natsPrefix: string;
  /** Email recipients' states by address; an address not in it shows pending. */
  recipientStates?: ReadonlyMap<string, 'confirmed' | 'pending'>;
}

/**
 * One channel type. `C` is its config as stored and sent (secrets included); `V` the config as
 * the API shows it (secrets `********`, secret-bearing URLs redacted for read-only keys).
 */
export interface ChannelDefinition<C extends object = object, V extends object = object> {
  /** The console's and the docs' name of the type: "PagerDuty", "Microsoft Teams". */
  label: string;
  /**
   * false: the type sends the event as JSON for programs (webhook, nats), with no human title or
   * text, so it takes no message template and the API refuses one (template-types.ts). Absent: it
   * sends people a message built by messageFor, which applies the channel's template.
   */
  templates?: false;
  /** The request's config: strict, every field with a sentence-long message (validated at create and update). */
  input: z.ZodType<C>;
  /** The stored config: lenient (unknown keys dropped), so an old item still reads. */
  stored: z.ZodType<C>;
  /** The config as the API shows it (the OpenAPI document's per-type shape). */
  view: z.ZodType<V>;
  /** Extra response fields beside `config` (email's `recipients`), if any. */
  viewExtra?: z.ZodRawShape;
  /** Config keys that are write-only: an update that leaves one out keeps the stored value. */
  secrets: readonly (keyof NoInfer<C> & string)[];
  /** The config as the caller sees it, with any extra fields (must parse with `view` and `viewExtra`). */
  present(
    config: NoInfer<C>,
    tenantId: string,
    options: ChannelViewOptions,
  ): { config: NoInfer<V> } & Record<string, unknown>;
  /**
   * Addresses that must have confirmed before they receive (email, issue 36): the gate sends only
   * to the confirmed ones (`keep`), or skips the delivery when none is; absent: nothing to confirm.
   */
  recipients?: {
    of(config: NoInfer<C>): readonly string[];
    keep(config: NoInfer<C>, to: string[]): NoInfer<C>;
  };
  /** URLs the SSRF guard checks at create, by field path (`config.url`); every send checks again. */
  destinations(config: NoInfer<C>): { path: string; url: string }[];
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
