import type { Clock } from '../../../lib/platform/clock.ts';
import type { HarnessOptions } from '../../support/api-harness.ts';
import { type ApiHarness, startLambdaHarness, startLocalHarness } from '../../support/api-harness.ts';
import { type SesMail, sesOutbox } from '../../support/ses-outbox.ts';
import { receivedMails, startSmtpServer } from '../../support/smtp-server.ts';

/**
 * The two runtimes of the subscriber tests, each with the mail it sends: locally a real SMTP
 * server on 127.0.0.1 (VIGIL_SMTP_URL), in the cloud the SES v2 client the api and notifier
 * functions send with (captured by aws-sdk-client-mock: test/support/ses-outbox.ts).
 */

const PUBLIC_URL = 'https://status.example.com';

export interface SubscriberRuntime {
  api: ApiHarness;
  /** Every mail sent so far, oldest first. */
  mails(): SesMail[];
  /** The next `count` messages are refused: locally by the SMTP server (451), in the cloud by SES (MessageRejected). */
  refuseMails(count: number): void;
  close(): Promise<void>;
}

const env = {
  VIGIL_EMAIL_FROM: 'Vigil <status@vigil.example.com>',
  VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
  VIGIL_PUBLIC_URL: PUBLIC_URL,
};

async function startLocal(
  clock?: Clock,
  egress?: HarnessOptions['egress'],
  more: Record<string, string> = {},
): Promise<SubscriberRuntime> {
  const smtp = await startSmtpServer();
  const api = await startLocalHarness({
    ...(clock ? { clock } : {}),
    ...(egress ? { egress } : {}),
    env: { ...env, ...more, VIGIL_SMTP_URL: smtp.url },
  });
  return {
    api,
    mails: () => receivedMails(smtp),
    refuseMails: (count) => smtp.refuseNext(count),
    async close() {
      await api.close();
      await smtp.close();
    },
  };
}

async function startLambda(
  clock?: Clock,
  egress?: HarnessOptions['egress'],
  more: Record<string, string> = {},
): Promise<SubscriberRuntime> {
  const ses = sesOutbox();
  const api = await startLambdaHarness({
    ...(clock ? { clock } : {}),
    ...(egress ? { egress } : {}),
    env: { ...env, ...more },
  });
  return {
    api,
    mails: ses.mails,
    refuseMails: ses.refuseNext,
    async close() {
      await api.close();
      ses.restore();
    },
  };
}

export const subscriberRuntimes = [
  { runtime: 'local', start: startLocal },
  { runtime: 'lambda', start: startLambda },
] as const;

/** The path of the first link to `PUBLIC_URL` + `prefix` in a text. */
export function linkIn(text: string, prefix: string): string {
  const at = text.indexOf(`${PUBLIC_URL}${prefix}`);
  if (at < 0) throw new Error(`no ${prefix} link in: ${text}`);
  return (text.slice(at + PUBLIC_URL.length).match(/^\S+/)?.[0] ?? '').replace(/[>)]$/, '');
}
