import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { formatEmailSender } from '../../domain/formats.ts';
import type { EmailTransport, OutgoingEmail } from '../../providers/ports.ts';
import type { SendOutcome } from '../items/ports.ts';

/**
 * The cloud's email transport: Amazon SES v2 SendEmail with Simple content (subject, text and
 * HTML bodies, UTF-8; SES builds the MIME message and encodes the headers). The functions that
 * send (the notifier, the api function's test sends) are allowed ses:SendEmail on the sender's
 * identity only (infra/notifications.ts). Imported by the cloud compositions alone, so the
 * functions that never send do not load the SES client.
 */

export interface SesTransportOptions {
  region: string;
  /** A client of the caller's own (the HTTP functions trace theirs); one is made at the first send without. */
  client?: SESv2Client;
}

const UTF8 = 'UTF-8';
const MAX_ERROR_SHOWN = 200;

/** A failed SendEmail as one line: the service's error name and message (MessageRejected: Email address is not verified...). */
function sesFailureText(err: unknown): string {
  const name = err instanceof Error ? err.name : 'Error';
  const message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
  const text = `SES refused the email: ${name}: ${message}`;
  return text.length <= MAX_ERROR_SHOWN ? text : `${text.slice(0, MAX_ERROR_SHOWN - 1)}…`;
}

/** The SendEmail request of one email. */
function sendEmailInput(email: OutgoingEmail) {
  return {
    FromEmailAddress: formatEmailSender(email.from),
    Destination: { ToAddresses: [...email.to] },
    Content: {
      Simple: {
        Subject: { Data: email.subject, Charset: UTF8 },
        Body: { Text: { Data: email.text, Charset: UTF8 }, Html: { Data: email.html, Charset: UTF8 } },
        Headers: [
          ...Object.entries(email.headers ?? {}).map(([Name, Value]) => ({ Name, Value })),
          { Name: 'X-Vigil-Delivery', Value: email.deliveryId },
        ],
      },
    },
  };
}

/** An email transport over SES v2. */
export function createSesTransport(options: SesTransportOptions): EmailTransport {
  let client = options.client;
  return {
    async send(email: OutgoingEmail): Promise<SendOutcome> {
      client ??= new SESv2Client({ region: options.region });
      try {
        await client.send(new SendEmailCommand(sendEmailInput(email)));
        return { ok: true, status_code: null, error: null };
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        return { ok: false, status_code: status ?? null, error: sesFailureText(err) };
      }
    },
    async close() {
      client?.destroy();
    },
  };
}
