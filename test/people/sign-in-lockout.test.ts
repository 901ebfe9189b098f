import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { totpCode } from '../../lib/people/totp/totp.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { join, uniqueEmail } from '../auth/team-helpers.ts';
import { type ApiHarness, startLambdaHarness } from '../support/api-harness.ts';
import { GOOD_PASSWORD, setPassword, signIn } from './session-helpers.ts';

/**
 * Failed sign-ins at one account from many addresses lock nobody out (issue 52): the cloud runtime
 * behind the edge (each request its own viewer address), DynamoDB Local's shared limiter, SES
 * mocked. The local runtime's side (one socket address per test) is test/people/sign-in-slowdown.test.ts.
 */

const START = Date.parse('2026-01-01T00:00:00.000Z');
const WRONG = 'not the password 41';
const EDGE_SECRET = 'a-test-edge-secret-of-32-characters!';
const from = (address: string, cookie?: string) => ({
  [EDGE_SECRET_HEADER]: EDGE_SECRET,
  [VIEWER_ADDRESS_HEADER]: address,
  ...(cookie ? { cookie } : {}),
});

/** The `vigil_device=…` pair of a sign-in's Set-Cookie headers. */
const deviceCookieOf = (setCookie: string | undefined) =>
  /vigil_device=vdv_[0-9A-Za-z]{40}/.exec(setCookie ?? '')?.[0];

describe('failed sign-ins at one account from many addresses (lambda runtime, behind the edge)', () => {
  let api: ApiHarness;
  const ses = mockClient(SESv2Client);
  const clock = createFakeClock(START);

  beforeAll(async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
    api = await startLambdaHarness({
      clock,
      env: {
        VIGIL_AUTH_FAILURE_LIMIT: '3',
        VIGIL_EDGE_SECRET: EDGE_SECRET,
        VIGIL_EMAIL_FROM: 'alerts@vigil.example.com',
        VIGIL_PUBLIC_URL: 'https://vigil.example.com',
      },
    });
  });
  afterAll(async () => {
    await api.close();
    ses.restore();
  });

  const mailsTo = (email: string) =>
    ses
      .commandCalls(SendEmailCommand)
      .map((call) => call.args[0].input)
      .filter((input) => input.Destination?.ToAddresses?.includes(email))
      .map((input) => input.Content?.Simple?.Body?.Text?.Data ?? '');

  async function member() {
    const joined = await join(api, api.adminKey, { email: uniqueEmail('spray') });
    expect((await setPassword(api, joined.key, { password: GOOD_PASSWORD })).status).toBe(204);
    return joined;
  }

  const failuresLogged = async (userId: string) => {
    const log = await api.request('GET', `/v1/audit?target=user:${userId}`, { key: api.adminKey });
    expect(log.status, log.text).toBe(200);
    return log.body.entries.filter((entry: { action: string }) => entry.action === 'session.failures');
  };

  it('lets a browser that signed in before in, and slows other browsers down without refusing them', async () => {
    clock.advance(60 * 60_000);
    const target = await member();
    const first = await signIn(api, { email: target.email, password: GOOD_PASSWORD }, from('198.51.100.9'));
    expect(first.status, first.text).toBe(204);
    expect(first.headers['set-cookie']).toMatch(
      /vigil_device=vdv_\w{40}; Max-Age=31536000; Path=\/v1\/session; HttpOnly; SameSite=Strict; Secure/,
    );
    const device = deviceCookieOf(first.headers['set-cookie']);
    // Twelve wrong passwords from twelve addresses: each is looked at (401), none locks the account.
    for (let i = 1; i <= 12; i += 1)
      expect(
        (await signIn(api, { email: target.email, password: WRONG }, from(`203.0.113.${i}`))).status,
      ).toBe(401);
    const known = await signIn(
      api,
      { email: target.email, password: GOOD_PASSWORD },
      from('198.51.100.7', device),
    );
    expect(known.status, known.text).toBe(204);
    // The same browser keeps its device cookie.
    expect(deviceCookieOf(known.headers['set-cookie'])).toBe(device);
    // Another browser from a fresh address gets in on its first try too.
    expect(
      (await signIn(api, { email: target.email, password: GOOD_PASSWORD }, from('198.51.100.8'))).status,
    ).toBe(204);
    // The script's address waits its turn: a short, bounded Retry-After, then it is looked at again.
    const again = await signIn(api, { email: target.email, password: WRONG }, from('203.0.113.12'));
    expect(again.status).toBe(429);
    const wait = Number(again.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    clock.advance(wait * 1000);
    expect((await signIn(api, { email: target.email, password: WRONG }, from('203.0.113.12'))).status).toBe(
      401,
    );
  });

  it('tells the person once an hour, by e-mail and in the audit log, never with the password', async () => {
    clock.advance(60 * 60_000);
    const target = await member();
    for (let i = 1; i <= 6; i += 1)
      await signIn(api, { email: target.email, password: WRONG }, from(`192.0.2.${i % 3}`));
    const mails = mailsTo(target.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('3 failed sign-ins from 3 addresses in the hour from 2026-01-01 ');
    expect(mails[0]).toContain('from 192.0.2.0');
    expect(mails[0]).not.toContain(WRONG);
    const logged = await failuresLogged(target.userId);
    expect(logged).toEqual([
      expect.objectContaining({
        actor: { type: 'anonymous', id: '192.0.2.0', label: 'unknown caller at 192.0.2.0' },
        target: { type: 'user', id: target.userId },
        source_ip: '192.0.2.0',
      }),
    ]);
    expect(logged[0].summary).not.toContain(WRONG);
    // The next hour is a new window: told again once its failures reach the limit.
    clock.advance(60 * 60_000);
    for (let i = 1; i <= 3; i += 1)
      await signIn(api, { email: target.email, password: WRONG }, from(`192.0.2.${10 + i}`));
    expect(mailsTo(target.email)).toHaveLength(2);
    expect(await failuresLogged(target.userId)).toHaveLength(2);
  });

  it('counts wrong second-factor codes the same, and says the password was right', async () => {
    clock.advance(60 * 60_000);
    const target = await member();
    const enrolled = await api.request('POST', '/v1/me/totp', { key: target.key });
    const secret: string = enrolled.body.secret;
    const confirm = { code: totpCode(secret, clock.now()) };
    expect(
      (await api.request('POST', '/v1/me/totp/confirm', { key: target.key, body: confirm })).status,
    ).toBe(200);
    const guess = { email: target.email, password: GOOD_PASSWORD, totp: '000000' };
    for (let i = 1; i <= 3; i += 1)
      expect((await signIn(api, guess, from(`198.18.0.${i}`))).status).toBe(400);
    const mails = mailsTo(target.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('3 failed sign-ins (3 with the right password and a wrong two-factor code)');
    expect(mails[0]).toContain('change it now');
    // Past the limit a fresh browser still signs in with a good code.
    clock.advance(30_000);
    const good = { ...guess, totp: totpCode(secret, clock.now()) };
    expect((await signIn(api, good, from('198.18.0.99'))).status).toBe(204);
  });
});
