import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import type { SendOutcome } from '../items/ports.ts';
import type { SmsTransport } from './definition.ts';

/**
 * The cloud's SMS transport: Amazon SNS Publish straight to a phone number (no topic), as a
 * Transactional message (SNS then prefers the route that delivers, over the cheapest). The
 * functions that send (the notifier, the api function's test sends) may call sns:Publish
 * (infra/notifications.ts says why that grant cannot name a resource). Imported by the cloud
 * compositions alone, so the functions that never send do not load the SNS client.
 */

export interface SnsSmsOptions {
  region: string;
  /** A client of the caller's own (tests mock it); one is made at the first send without. */
  client?: SNSClient;
}

const MAX_ERROR_SHOWN = 200;

/** A failed Publish as one line: the service's error name and message. */
function snsFailureText(err: unknown): string {
  const name = err instanceof Error ? err.name : 'Error';
  const message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
  const text = `SNS refused the SMS: ${name}: ${message}`;
  return text.length <= MAX_ERROR_SHOWN ? text : `${text.slice(0, MAX_ERROR_SHOWN - 1)}…`;
}

/** The Publish request of one SMS. */
function publishInput(message: { to: string; text: string }) {
  return {
    PhoneNumber: message.to,
    Message: message.text,
    MessageAttributes: {
      'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
    },
  };
}

/** An SMS transport over SNS. */
export function createSnsSmsTransport(options: SnsSmsOptions): SmsTransport & { close(): Promise<void> } {
  let client = options.client;
  return {
    async send(message): Promise<SendOutcome> {
      client ??= new SNSClient({ region: options.region });
      try {
        await client.send(new PublishCommand(publishInput(message)));
        return { ok: true, status_code: null, error: null };
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        return { ok: false, status_code: status ?? null, error: snsFailureText(err) };
      }
    },
    async close() {
      client?.destroy();
    },
  };
}
