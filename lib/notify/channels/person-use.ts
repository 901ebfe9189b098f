import type * as z from 'zod';
import type { EmailSender } from '../../domain/formats.ts';
import type { EgressSettings } from '../../egress/egress.ts';
import type { Runtime } from '../../platform/config.ts';
import type { EmailSetup, EmailTransport } from '../../providers/email.ts';
import { type ProviderHttp, type ProviderOutcome, scrub } from '../../providers/provider-post.ts';
import type { SmsTransport } from '../../providers/sms.ts';

/**
 * A provider's people use: one kind of contact method (a person's e-mail, SMS, Pushover, ...), the
 * address it takes, what the account must have configured for it, and how one message reaches it
 * through its provider (lib/providers: the request and the error words its alert channel uses).
 * Declared in the provider's one use file (./<provider>.ts, `people`) beside its channel, if it
 * has one; ./registry.ts (`PROVIDERS`) derives the contact method kinds from those uses, and
 * lib/contacts reads them through lib/notify/schemas.ts.
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
interface ContactMessage {
  subject: string;
  text: string;
  /** What a call says (TwiML <Say>). */
  speech: string;
  /** The message's id (an X-Vigil-Delivery header on e-mail). */
  deliveryId: string;
}

/** The runtime's outbound paths a kind may use. */
export interface ContactSendDeps {
  egressAllow: readonly string[];
  runtime: Runtime;
  egress?: EgressSettings | undefined;
  email: EmailTransport | undefined;
  emailFrom: EmailSender | undefined;
  /** The cloud's SNS path for SMS; undefined locally. */
  smsTransport: SmsTransport | undefined;
  /** Spends one e-mail of the tenant's daily quota: a refusal's words, or undefined when spent. */
  spendEmail(tenantId: string): Promise<string | undefined>;
}

export interface SendResult {
  ok: boolean;
  /** Why it failed, in words safe to show the person (no secret, no address). */
  error?: string;
}

/** Where one message goes. */
interface ContactTarget {
  tenantId: string;
  address: string;
}

export interface ContactKindDefinition {
  /** The docs' and the console's name: "SMS", "Phone call (Twilio)". */
  label: string;
  /** The address a request gives (strict, a sentence-long message); null: the kind takes none (console). */
  address: z.ZodType<string> | null;
  /** What this deployment or account lacks for the kind to send, as a sentence; undefined: nothing. */
  missing(accounts: ProviderAccounts, deps: ContactSendDeps): string | undefined;
  /** Verified when added, sent no code (the console is the signed-in person's own). */
  verifiedWhenAdded?: true;
  /** Sends one message once. */
  send(
    deps: ContactSendDeps,
    accounts: ProviderAccounts,
    target: ContactTarget,
    message: ContactMessage,
  ): Promise<SendResult>;
}

export const failed = (error: string): SendResult => ({ ok: false, error });

/** The deps' outbound HTTP path as the providers (lib/providers) take it. */
export function httpOf(deps: ContactSendDeps): ProviderHttp {
  return {
    egressAllow: deps.egressAllow,
    runtime: deps.runtime,
    ca: deps.egress?.ca,
    resolve: deps.egress?.resolve,
    transport: deps.egress?.transport,
  };
}

/** The deps' e-mail transport and sender as the e-mail provider takes them. */
export function emailSetupOf(deps: ContactSendDeps): EmailSetup {
  return { transport: deps.email, from: deps.emailFrom, runtime: deps.runtime };
}

/** A provider's outcome as a person's send result, its error with `hidden` (the person's address) taken out. */
export async function sent(
  outcome: Promise<ProviderOutcome>,
  hidden: readonly string[] = [],
): Promise<SendResult> {
  const { ok, error } = await outcome;
  return ok ? { ok: true } : failed(scrub(error ?? 'not delivered', hidden));
}

export function defineContactKind(definition: ContactKindDefinition): ContactKindDefinition {
  return definition;
}

/**
 * The `missing` and `send` of a kind that sends from an account of the tenant's shared channels
 * (`accountOf`; ./provider-accounts.ts): without one, a send fails in the words `none` and `missing`
 * adds how to get one (`add`).
 */
export function sendingFrom<A>(
  accountOf: (accounts: ProviderAccounts) => A | undefined,
  words: { none: string; add: string },
  send: (
    deps: ContactSendDeps,
    account: A,
    target: ContactTarget,
    message: ContactMessage,
  ) => Promise<SendResult>,
): Pick<ContactKindDefinition, 'missing' | 'send'> {
  return {
    missing: (accounts) => (accountOf(accounts) ? undefined : `${words.none}: ${words.add}`),
    send(deps, accounts, target, message) {
      const account = accountOf(accounts);
      if (!account) return Promise.resolve({ ok: false, error: words.none });
      return send(deps, account, target, message);
    },
  };
}
