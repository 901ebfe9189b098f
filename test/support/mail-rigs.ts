import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, type LambdaHarness, startLambdaHarness, startLocalHarness } from './api-harness.ts';
import { type SesMail, sesOutbox } from './ses-outbox.ts';
import { receivedMails, startSmtpServer } from './smtp-server.ts';

/**
 * The e-mail tests' rigs on both runtimes, each on a test clock: locally real mail to an SMTP
 * server on 127.0.0.1, in the cloud SES v2 (mocked, `sesOutbox`). The password-reset, email
 * recipient and report tests read their mail through one shape.
 */

/** One e-mail as either runtime sent it (header names in lower case). */
export type SentMail = SesMail;

export interface MailRig<H extends ApiHarness = ApiHarness> {
  api: H;
  clock: ReturnType<typeof createFakeClock>;
  /** The environment the runtime was started with. */
  env: Record<string, string>;
  /** Every e-mail sent so far, oldest first. */
  mails(): SentMail[];
  close(): Promise<void>;
}

export interface MailRigOptions {
  /** The test clock's start. */
  startMs: number;
  from: string;
  publicUrl: string;
}

/** The local runtime sending through a real SMTP server on 127.0.0.1. */
export async function localMailRig({ startMs, from, publicUrl }: MailRigOptions): Promise<MailRig> {
  const smtp = await startSmtpServer();
  const clock = createFakeClock(startMs);
  const env = {
    VIGIL_SMTP_URL: smtp.url,
    VIGIL_EMAIL_FROM: from,
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    VIGIL_PUBLIC_URL: publicUrl,
  };
  const api = await startLocalHarness({ clock, env });
  return {
    api,
    clock,
    env,
    mails: () => receivedMails(smtp),
    async close() {
      await api.close();
      await smtp.close();
    },
  };
}

/** The Lambda harness sending through SES v2 (mocked). */
export async function lambdaMailRig({
  startMs,
  from,
  publicUrl,
}: MailRigOptions): Promise<MailRig<LambdaHarness>> {
  const outbox = sesOutbox();
  const clock = createFakeClock(startMs);
  const env = { VIGIL_EMAIL_FROM: from, VIGIL_PUBLIC_URL: publicUrl };
  const api = await startLambdaHarness({ clock, env });
  return {
    api,
    clock,
    env,
    mails: outbox.mails,
    async close() {
      await api.close();
      outbox.restore();
    },
  };
}

/** Both runtimes' rigs, for `describe.each`. */
export const mailRigs = (options: MailRigOptions) =>
  [
    { runtime: 'local', start: () => localMailRig(options) },
    { runtime: 'lambda', start: () => lambdaMailRig(options) },
  ] as const;
