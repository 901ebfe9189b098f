import type * as z from 'zod';
import type { ProviderSendDeps } from './ports.ts';
import { type ProviderOutcome, scrub } from './provider-post.ts';

/**
 * A provider's people use: one kind of contact method (a person's e-mail, SMS, Pushover, ...), the
 * address it takes, what the account must have configured for it, and how one message reaches it
 * through the provider (the request and the error words its alert channel uses). Declared in the
 * provider's file (./<provider>.ts `people`) beside its channel, if it has one; lib/contacts
 * derives the contact method kinds from the provider registry (./registry.ts) and sends through
 * them.
 */

/**
 * Where a person's SMS, calls, Pushover and Telegram messages go out from: the account's own
 * provider accounts, its shared channels' configs (lib/contacts reads them). A kind says which
 * channel type lends it an account and how that config reads as one (`sendingFrom`).
 */
export interface ProviderAccounts {
  /** The account of the oldest shared channel of `channelType` whose config `read` takes; undefined: none. */
  find<A>(channelType: string, read: (config: unknown) => A | undefined): A | undefined;
}

/** One message to one person (a verification code; a page). */
interface PersonMessage {
  subject: string;
  text: string;
  /** What a call says (TwiML <Say>). */
  speech: string;
  /** The message's id (an X-Vigil-Delivery header on e-mail). */
  deliveryId: string;
}

/** The runtime's outbound paths a kind may use, and the tenant's e-mail quota. */
export interface PersonSendDeps extends ProviderSendDeps {
  /** Spends one e-mail of the tenant's daily quota: a refusal's words, or undefined when spent. */
  spendEmail(tenantId: string): Promise<string | undefined>;
}

export interface SendResult {
  ok: boolean;
  /** Why it failed, in words safe to show the person (no secret, no address). */
  error?: string;
}

/** Where one message goes. */
interface PersonTarget {
  tenantId: string;
  address: string;
}

export interface PersonUse {
  /** The docs' and the console's name: "SMS", "Phone call (Twilio)". */
  label: string;
  /** The address a request gives (strict, a sentence-long message); null: the kind takes none (console). */
  address: z.ZodType<string> | null;
  /** What this deployment or account lacks for the kind to send, as a sentence; undefined: nothing. */
  missing(accounts: ProviderAccounts, deps: PersonSendDeps): string | undefined;
  /** Verified when added, sent no code (the console is the signed-in person's own). */
  verifiedWhenAdded?: true;
  /** Sends one message once. */
  send(
    deps: PersonSendDeps,
    accounts: ProviderAccounts,
    target: PersonTarget,
    message: PersonMessage,
  ): Promise<SendResult>;
}

export const failed = (error: string): SendResult => ({ ok: false, error });

/** A provider's outcome as a person's send result, its error with `hidden` (the person's address) taken out. */
export async function sent(
  outcome: Promise<ProviderOutcome>,
  hidden: readonly string[] = [],
): Promise<SendResult> {
  const { ok, error } = await outcome;
  return ok ? { ok: true } : failed(scrub(error ?? 'not delivered', hidden));
}

export function definePersonUse(use: PersonUse): PersonUse {
  return use;
}

/**
 * The `missing` and `send` of a kind that sends from an account of the tenant's shared channels
 * (`accountOf`): without one, a send fails in the words `none` and `missing` adds how to get one
 * (`add`).
 */
export function sendingFrom<A>(
  accountOf: (accounts: ProviderAccounts) => A | undefined,
  words: { none: string; add: string },
  send: (
    deps: PersonSendDeps,
    account: A,
    target: PersonTarget,
    message: PersonMessage,
  ) => Promise<SendResult>,
): Pick<PersonUse, 'missing' | 'send'> {
  return {
    missing: (accounts) => (accountOf(accounts) ? undefined : `${words.none}: ${words.add}`),
    send(deps, accounts, target, message) {
      const account = accountOf(accounts);
      if (!account) return Promise.resolve({ ok: false, error: words.none });
      return send(deps, account, target, message);
    },
  };
}
