import type { EmailSender } from '../../domain/formats.ts';
import type { Runtime } from '../../platform/config.ts';
import type { ProviderHttp } from '../../providers/provider-post.ts';
import type { SendOutcome } from '../pipeline/ports.ts';

/**
 * The outbound paths a channel definition's senders are given (definition.ts ChannelSendDeps),
 * in one file that both the definition and the senders (email.ts, http-post.ts, nats.ts) import,
 * so no file of channels/ imports back from one that imports it.
 */

/** The subject, the text body and the HTML body of one alert. */
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

/** How URL channels reach the network: the providers' one guarded path's settings. */
export type HttpPostDeps = ProviderHttp;

/** Publishes bytes to a subject and waits for the server to have them. */
export interface NatsPublisher {
  publish(subject: string, data: Uint8Array): Promise<SendOutcome>;
  /** The server's max_payload (bytes), once connected; undefined when unknown. */
  maxPayload?(): Promise<number | undefined>;
  close(): Promise<void>;
}
