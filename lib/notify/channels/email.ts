import type { EmailSender } from '../../domain/email-address.ts';
import type { Runtime } from '../../platform/config.ts';
import type { ChannelRecord } from '../channel-items.ts';
import type { Alert, SendOutcome } from '../ports.ts';
import { type EmailContent, emailContent, headerLine } from './email-message.ts';
import { clip, describeAlert } from './message.ts';

/**
 * The email channel: the alert's message as text and HTML to the channel's 1-10 recipients, from
 * VIGIL_EMAIL_FROM, through the runtime's transport: SMTP locally (email-smtp.ts, VIGIL_SMTP_URL),
 * Amazon SES v2 in the cloud (email-ses.ts). The compositions pick the transport, so this module
 * and the channel registry load neither nodemailer nor the SES client.
 */

type EmailChannel = Extract<ChannelRecord, { channel_type: 'email' }>;

/** One email to send: addresses validated at create (channel-config.ts), content header-safe. */
export interface OutgoingEmail extends EmailContent {
  from: EmailSender;
  to: string[];
  /** The delivery record's id, the same on every attempt (an `X-Vigil-Delivery` header where the transport has headers). */
  deliveryId: string;
}

/** Where email leaves the process: one attempt per call, its outcome as a delivery log entry. */
export interface EmailTransport {
  send(email: OutgoingEmail): Promise<SendOutcome>;
  /** Closes what the transport keeps open, if anything. */
  close?(): Promise<void>;
}

export interface EmailDeps {
  /** Undefined locally without VIGIL_SMTP_URL: every email delivery fails, saying so. */
  transport: EmailTransport | undefined;
  /** VIGIL_EMAIL_FROM; undefined: every email delivery fails, saying so. */
  from: EmailSender | undefined;
  publicUrl?: string | undefined;
  runtime?: Runtime | undefined;
}

/** The error of every email delivery while no SMTP server is configured (local runtime). */
export const NO_SMTP_SERVER = 'no SMTP server configured (set VIGIL_SMTP_URL to smtp:// or smtps://)';

/** The error of every email delivery while no sender is configured. */
export function noSenderError(runtime: Runtime | undefined): string {
  return runtime === 'cloud'
    ? 'no sender address configured (deploy with -c vigil:emailFrom=alerts@your-verified-domain)'
    : 'no sender address configured (set VIGIL_EMAIL_FROM, e.g. VIGIL_EMAIL_FROM=alerts@example.com)';
}

/** Characters of the entity's name a subject shows (the body shows it whole, up to 200). */
export const SUBJECT_NAME = 80;

const failed = (error: string): SendOutcome => ({ ok: false, status_code: null, error });

/** Sends the alert by email: one attempt, whose failure the notifier retries as any channel's. */
export async function sendEmail(deps: EmailDeps, channel: EmailChannel, alert: Alert): Promise<SendOutcome> {
  if (!deps.transport) return failed(NO_SMTP_SERVER);
  if (!deps.from) return failed(noSenderError(deps.runtime));
  const content = emailContent(describeAlert(alert, deps.publicUrl));
  // The subject names the entity shortened, so that the state after it always shows and a
  // recipient's inbox never carries more than 80 characters of a user's text (issue 36).
  const name = clip(alert.entity.name || alert.event.entity_name, SUBJECT_NAME);
  content.subject = headerLine(
    `[Vigil] ${describeAlert({ ...alert, entity: { ...alert.entity, name } }, undefined).title}`,
  );
  try {
    return await deps.transport.send({
      ...content,
      from: deps.from,
      to: [...channel.config.to],
      deliveryId: alert.deliveryId,
    });
  } catch (err) {
    return failed(`send failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
