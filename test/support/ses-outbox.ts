import { MessageRejected, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
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
 * aws-sdk-client-mock from this call on, each send answered as SES accepts one, but those
 * `refuseNext` asks SES to refuse (MessageRejected, as SES answers an unverified address). `restore`
 * ends it (in the file's afterAll).
 */
export function sesOutbox() {
  const ses = mockClient(SESv2Client);
  /** Sends to refuse still; the indexes (among every send) of those refused. */
  let refusals = 0;
  let sends = 0;
  const refused = new Set<number>();
  ses.on(SendEmailCommand).callsFake(() => {
    sends += 1;
    if (refusals === 0) return { MessageId: `ses-${sends}` };
    refusals -= 1;
    refused.add(sends - 1);
    throw new MessageRejected({
      message: 'Email address is not verified.',
      $metadata: { httpStatusCode: 400 },
    });
  });
  return {
    /** SES refuses the next `count` sends. */
    refuseNext: (count: number) => {
      refusals += count;
    },
    /** Every e-mail SES accepted so far, oldest first (as an SMTP server receives only those it took). */
    mails: (): SesMail[] =>
      ses
        .commandCalls(SendEmailCommand)
        .filter((_, i) => !refused.has(i))
        .map((call) => {
          const input = call.args[0].input;
          const simple = input.Content?.Simple;
          return {
            to: input.Destination?.ToAddresses ?? [],
            subject: simple?.Subject?.Data ?? '',
            text: simple?.Body?.Text?.Data ?? '',
            html: simple?.Body?.Html?.Data ?? '',
            headers: new Map(
              (simple?.Headers ?? []).map((h) => [(h.Name ?? '').toLowerCase(), h.Value ?? '']),
            ),
          };
        }),
    restore: () => ses.restore(),
  };
}
