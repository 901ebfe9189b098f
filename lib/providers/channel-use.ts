import type * as z from 'zod';
import type { AlertMessage, DigestMessage } from './message.ts';
import type { ProviderSendDeps } from './ports.ts';
import type { ProviderOutcome } from './provider-post.ts';

/**
 * A provider's alert channel type, declared in the provider's file (./<provider>.ts `channel`):
 * its config rules (what a request may configure, what is stored, what the API shows, which URLs
 * the SSRF guard checks at create) and how one alert and one digest part, already written, are
 * sent. lib/notify derives the channel type from it (lib/notify/channels/provider-channels.ts:
 * the channel's template applied, the digest described), so a provider knows no alert and no
 * notify file; a channel type that is no provider's (webhook, NATS, Slack, ...) declares the same
 * rules in lib/notify/channels/definition.ts's ChannelDefinition, which extends ChannelRules.
 */

/** How the caller asked to see a channel: redacted for read-only keys. */
export interface ChannelViewOptions {
  readOnly: boolean;
  natsPrefix: string;
  /** Email recipients' states by address; an address not in it shows pending. */
  recipientStates?: ReadonlyMap<string, 'confirmed' | 'pending'>;
}

/**
 * A channel type's config rules. `C` is its config as stored and sent (secrets included); `V` the
 * config as the API shows it (secrets `********`, secret-bearing URLs redacted for read-only keys).
 */
export interface ChannelRules<C extends object = object, V extends object = object> {
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
}

/** One alert as a provider's channel sends it. */
interface ChannelAlert {
  /** The message (the channel's template applied) with the console link, if VIGIL_PUBLIC_URL is set. */
  message: AlertMessage;
  /** The delivery's id, the same on every attempt. */
  deliveryId: string;
  /** The title again with the entity's name cut to `max` characters: a subject line's. */
  titleWithName(max: number): string;
}

/** One digest part as a provider's channel sends it. */
interface ChannelDigest {
  message: DigestMessage;
  deliveryId: string;
}

/** A provider's alert channel: its config rules, and one attempt per alert or digest part. */
export interface ProviderChannel<C extends object = object, V extends object = object>
  extends ChannelRules<C, V> {
  /** Sends one attempt of an alert (alert, recovery, repeat, escalation, flapping notice, test). */
  send(deps: ProviderSendDeps, config: NoInfer<C>, alert: ChannelAlert): Promise<ProviderOutcome>;
  /** Sends one part of a digest within the provider's limits. */
  sendDigest(deps: ProviderSendDeps, config: NoInfer<C>, digest: ChannelDigest): Promise<ProviderOutcome>;
  /**
   * What this deployment lacks for the type to send, each worded as its sends would fail (email
   * without an SMTP server or a sender): said when a channel is saved. Absent: nothing it needs.
   */
  setupWarnings?(deps: ProviderSendDeps): string[];
}

/**
 * Declares a provider's channel with its config types inferred from its schemas only (the
 * methods' parameters are `NoInfer`, so a helper typed on part of the config cannot narrow it).
 */
export function defineProviderChannel<C extends object, V extends object>(
  channel: ProviderChannel<C, V>,
): ProviderChannel<C, V> {
  return channel;
}
