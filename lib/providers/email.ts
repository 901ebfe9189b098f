import type { EmailSender } from '../domain/formats.ts';
import type { Runtime } from '../platform/config.ts';
import type { ProviderOutcome } from './provider-post.ts';

/**
 * E-mail, defined once for its uses (lib/notify/channels/email.ts: alert channels and people's
 * e-mail contact methods): the runtime's transport (SMTP locally,
 * lib/notify/channels/email-smtp.ts; Amazon SES v2 in the cloud, email-ses.ts), the sender
 * (VIGIL_EMAIL_FROM), and the words of a deployment that cannot send.
 */

/** The subject, the text body and the HTML body of one message. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** One email to send: addresses validated at create (its `input` schema), content header-safe. */
export interface OutgoingEmail extends EmailContent {
  from: EmailSender;
  to: string[];
  /** The delivery record's id, the same on every attempt (an `X-Vigil-Delivery` header where the transport has headers). */
  deliveryId: string;
  /** Further headers where the transport has headers (a status page notice's or a report's List-Unsubscribe and List-Unsubscribe-Post), names and values header-safe. */
  headers?: Readonly<Record<string, string>>;
}

/** Where email leaves the process: one attempt per call, its outcome as a delivery log entry. */
export interface EmailTransport {
  send(email: OutgoingEmail): Promise<ProviderOutcome>;
  /** Closes what the transport keeps open, if anything. */
  close?(): Promise<void>;
}

/** What a deployment sends e-mail with. */
export interface EmailSetup {
  /** Undefined locally without VIGIL_SMTP_URL: every email fails, saying so. */
  transport: EmailTransport | undefined;
  /** VIGIL_EMAIL_FROM; undefined: every email fails, saying so. */
  from: EmailSender | undefined;
  runtime?: Runtime | undefined;
}

/** The error of every email while no SMTP server is configured (local runtime). */
export const NO_SMTP_SERVER = 'no SMTP server configured (set VIGIL_SMTP_URL to smtp:// or smtps://)';

/** The error of every email while no sender is configured. */
export function noSenderError(runtime: Runtime | undefined): string {
  return runtime === 'cloud'
    ? 'no sender address configured (deploy with -c vigil:emailFrom=alerts@your-verified-domain)'
    : 'no sender address configured (set VIGIL_EMAIL_FROM, e.g. VIGIL_EMAIL_FROM=alerts@example.com)';
}

/** Why every email fails on this deployment, or undefined when it can send. */
export function emailProblem(setup: EmailSetup): string | undefined {
  if (!setup.transport) return NO_SMTP_SERVER;
  if (!setup.from) return noSenderError(setup.runtime);
  return undefined;
}

/** Sends one email, one attempt, from the deployment's sender. */
export async function sendEmail(
  setup: EmailSetup,
  email: Omit<OutgoingEmail, 'from'>,
): Promise<ProviderOutcome> {
  const problem = emailProblem(setup);
  if (problem || !setup.transport || !setup.from)
    return { ok: false, status_code: null, error: problem ?? NO_SMTP_SERVER };
  try {
    return await setup.transport.send({ ...email, from: setup.from });
  } catch (err) {
    return {
      ok: false,
      status_code: null,
      error: `send failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
