import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';

/** One e-mail as the cloud runtime handed it to SES. */
export interface SesMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The message's own headers, names in lower case. */
  headers: Map<string, string>;
}

/**
 * The cloud runtime's e-mail: every SES v2 client (the api's and the notifier's, which the SES
 * transport builds from the region alone, with no endpoint to point at 127.0.0.1) captured by
 * aws-sdk-client-mock from this call on, each send answered as SES accepts one. `restore` ends it
 * (in the file's afterAll).
 */
export function sesOutbox() {
  const ses = mockClient(SESv2Client);
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
  return {
    /** Every e-mail sent so far, oldest first. */
    mails: (): SesMail[] =>
      ses.commandCalls(SendEmailCommand).map((call) => {
        const input = call.args[0].input;
        const simple = input.Content?.Simple;
        return {
          to: input.Destination?.ToAddresses ?? [],
          subject: simple?.Subject?.Data ?? '',
          text: simple?.Body?.Text?.Data ?? '',
          html: simple?.Body?.Html?.Data ?? '',
          headers: new Map((simple?.Headers ?? []).map((h) => [(h.Name ?? '').toLowerCase(), h.Value ?? ''])),
        };
      }),
    restore: () => ses.restore(),
  };
}
