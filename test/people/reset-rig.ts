import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { expect } from 'vitest';
import { credentialPutOps } from '../../lib/people/credential-items.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { join } from '../auth/team-helpers.ts';
import { type ApiHarness, startLambdaHarness, startLocalHarness } from '../support/api-harness.ts';
import { startSmtpServer } from '../support/smtp-server.ts';
import { setPassword } from './session-helpers.ts';

/**
 * The password-reset tests' rigs: locally real mail to an SMTP server on 127.0.0.1, in the cloud
 * SES v2 (mocked), each on a test clock; and a person with a password in one or more teams.
 */

export const PUBLIC_URL = 'https://vigil.example.com';
const START = Date.parse('2026-03-02T09:00:00.000Z');
const FROM = 'alerts@vigil.example.com';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface ResetRig {
  api: ApiHarness;
  clock: ReturnType<typeof createFakeClock>;
  mails(): Mail[];
  close(): Promise<void>;
}

async function localRig(): Promise<ResetRig> {
  const smtp = await startSmtpServer();
  const clock = createFakeClock(START);
  const api = await startLocalHarness({
    clock,
    env: {
      VIGIL_SMTP_URL: smtp.url,
      VIGIL_EMAIL_FROM: FROM,
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      VIGIL_PUBLIC_URL: PUBLIC_URL,
    },
  });
  return {
    api,
    clock,
    mails: () =>
      smtp.received.map((m) => ({
        to: m.to,
        subject: m.message.headers.get('subject') ?? '',
        text: m.message.text ?? '',
        html: m.message.html ?? '',
      })),
    async close() {
      await api.close();
      await smtp.close();
    },
  };
}

async function lambdaRig(): Promise<ResetRig> {
  const ses = mockClient(SESv2Client);
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
  const clock = createFakeClock(START);
  const api = await startLambdaHarness({
    clock,
    env: { VIGIL_EMAIL_FROM: FROM, VIGIL_PUBLIC_URL: PUBLIC_URL },
  });
  return {
    api,
    clock,
    mails: () =>
      ses.commandCalls(SendEmailCommand).map((call) => {
        const input = call.args[0].input;
        return {
          to: input.Destination?.ToAddresses ?? [],
          subject: input.Content?.Simple?.Subject?.Data ?? '',
          text: input.Content?.Simple?.Body?.Text?.Data ?? '',
          html: input.Content?.Simple?.Body?.Html?.Data ?? '',
        };
      }),
    async close() {
      await api.close();
      ses.restore();
    },
  };
}

export const resetRigs = [
  { runtime: 'local', start: localRig },
  { runtime: 'lambda', start: lambdaRig },
] as const;

/** Where a person has a password: the team's admin key, and the person's own ids. */
interface Membership {
  tenantId: string;
  adminKey: string;
  userId: string;
  key: string;
}

let teams = 0;

/**
 * `email` joins a new team (named `team`) and gets a password there: `password` set through the
 * API, or else stored as the sign-in stores it (its credential and sign-in lookup, `password_hash`
 * a stand-in: the reset never reads it).
 */
export async function memberWithPassword(
  api: ApiHarness,
  clock: { now(): number },
  email: string,
  team?: string,
  password?: string,
) {
  teams += 1;
  const { tenantId, key: adminKey } = await api.createTenant(team ?? `Team${teams}`);
  const joined = await join(api, adminKey, { email });
  if (password !== undefined) {
    // A real password, set as the person sets it.
    const set = await setPassword(api, joined.key, { password });
    expect(set.status, set.text).toBe(204);
    return { tenantId, adminKey, userId: joined.userId, key: joined.key } satisfies Membership;
  }
  await api.table.transact(
    credentialPutOps(
      {
        tenant_id: tenantId,
        user_id: joined.userId,
        email,
        password_hash: 'stand-in',
        password_changed_at: isoTime(clock.now() - 86_400_000),
        version: 1,
        updated_at: isoTime(clock.now()),
      },
      { kind: 'itemNotExists' },
    ),
  );
  return { tenantId, adminKey, userId: joined.userId, key: joined.key } satisfies Membership;
}

/** The reset tokens of the links in a mail's text, in order. */
export function tokensIn(mail: Mail | undefined): string[] {
  expect(mail).toBeDefined();
  return [...(mail?.text ?? '').matchAll(/\/reset\?token=(vpr_[A-Za-z0-9_-]+)/g)].map((m) => m[1] ?? '');
}
