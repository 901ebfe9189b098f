import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiHarness } from '../../support/api-harness.ts';
import { sesOutbox } from '../../support/ses-outbox.ts';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.ts';
import { startTwilioAccount, type TwilioAccountReceiver } from './twilio-account.ts';

/** The account's Twilio SMS channel (a POST /v1/notify/channels body): SMS contact methods send through it. */
export const twilioSmsChannel = (accountSid: string, authToken: string) => ({
  name: 'Twilio',
  channel_type: 'sms',
  config: {
    provider: 'twilio',
    to: ['+14155550100'],
    account_sid: accountSid,
    auth_token: authToken,
    from: '+14155550199',
  },
});

/** The 6-digit code a contact method's verification message says. */
export const sixDigits = (text: string | undefined) => /code is (\d{6})\b/.exec(text ?? '')?.[1];

/** Adds a contact method for the key's person and verifies it with the code `codeOf` reads; its id. */
export async function addVerifiedMethod(
  api: Pick<ApiHarness, 'request'>,
  key: string,
  body: Record<string, unknown>,
  codeOf: () => string | undefined,
): Promise<string> {
  const made = await api.request('POST', '/v1/me/contact-methods', { key, body });
  expect(made.status, made.text).toBe(201);
  const verified = await api.request('POST', `/v1/me/contact-methods/${made.body.id}/verify`, {
    key,
    body: { code: codeOf() },
  });
  expect(verified.status, verified.text).toBe(200);
  return String(made.body.id);
}

/**
 * Where a file's people get their messages: a Twilio account and an SMTP server on 127.0.0.1,
 * started before all and closed after all, and the cloud runtime's SES outbox.
 */
export function personInboxes(accountSid: string, authToken: string) {
  let twilio: TwilioAccountReceiver | undefined;
  let smtp: TestSmtpServer | undefined;
  const ses = sesOutbox();
  beforeAll(async () => {
    twilio = await startTwilioAccount(accountSid, authToken);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    ses.restore();
    await twilio?.close();
    await smtp?.close();
  });
  const started = <T>(server: T | undefined): T => {
    if (server === undefined) throw new Error('the inboxes start in beforeAll');
    return server;
  };
  return {
    ses,
    get twilio() {
      return started(twilio);
    },
    get smtp() {
      return started(smtp);
    },
    /** The text of the last e-mail sent: by SMTP locally, through SES in the cloud. */
    lastMail: (runtime: string) =>
      runtime === 'local' ? started(smtp).received.at(-1)?.message.text : ses.mails().at(-1)?.text,
  };
}
