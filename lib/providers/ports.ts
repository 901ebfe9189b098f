import type { EmailSender } from '../domain/formats.ts';
import type { Runtime } from '../platform/config.ts';
import type { ProviderHttp, ProviderOutcome } from './provider-post.ts';

/**
 * The runtime's outbound paths a provider sends through, as the compositions hand them over: the
 * guarded HTTP path's settings (./provider-post.ts), the e-mail transport (SMTP locally, Amazon SES
 * v2 in the cloud) and the cloud's SMS transport (Amazon SNS). Alert channels (lib/notify) and
 * people's contact methods (lib/contacts) both give a provider these.
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

/** Amazon SNS's Publish to a phone number (the cloud runtime composes it; IAM-scoped to sns:Publish). */
export interface SmsTransport {
  send(message: { to: string; text: string; deliveryId: string }): Promise<ProviderOutcome>;
}

/** What a provider's sends are given. */
export interface ProviderSendDeps {
  /** The SSRF guard's allow-list, the egress pool, trusted CAs. */
  http: ProviderHttp;
  email: EmailSetup;
  /** The cloud's SMS path; undefined locally, where SMS goes through Twilio only. */
  sms?: SmsTransport | undefined;
}
