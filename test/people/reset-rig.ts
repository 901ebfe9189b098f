import { expect } from 'vitest';
import { credentialPutOps } from '../../lib/people/credential-items.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { join } from '../auth/team-helpers.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { type MailRig, mailRigs, type SentMail } from '../support/mail-rigs.ts';
import { setPassword } from './session-helpers.ts';

/**
 * The password-reset tests' rigs (`test/support/mail-rigs.ts`: locally real mail to an SMTP server on
 * 127.0.0.1, in the cloud SES v2, mocked), and a person with a password in one or more teams.
 */

export const PUBLIC_URL = 'https://vigil.example.com';
const START = Date.parse('2026-03-02T09:00:00.000Z');
const FROM = 'alerts@vigil.example.com';

export type ResetRig = MailRig;

export const resetRigs = mailRigs({ startMs: START, from: FROM, publicUrl: PUBLIC_URL });

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
export function tokensIn(mail: SentMail | undefined): string[] {
  expect(mail).toBeDefined();
  return [...(mail?.text ?? '').matchAll(/\/reset\?token=(vpr_[A-Za-z0-9_-]+)/g)].map((m) => m[1] ?? '');
}
