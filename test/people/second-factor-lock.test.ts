import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCredential } from '../../lib/people/credential-items.ts';
import { WRONG_CODES_BEFORE_LOCK } from '../../lib/people/sign-in/code-lock.ts';
import { totpCode } from '../../lib/people/totp/totp.ts';
import { uniqueEmail } from '../auth/team-helpers.ts';
import type { ApiHarness, ApiResponse } from '../support/api-harness.ts';
import { memberWithPassword, PUBLIC_URL, type ResetRig, resetRigs } from './reset-rig.ts';
import { GOOD_PASSWORD, signIn } from './session-helpers.ts';

/**
 * A second factor cannot be guessed one code per address and turn for ever (issue 75 point 6):
 * after WRONG_CODES_BEFORE_LOCK wrong codes with the right password, a code is taken only from a
 * browser that signed in to the account before (its device cookie) or with the one-time sign-in
 * link e-mailed to the person. Both runtimes: locally real mail to an SMTP server on 127.0.0.1,
 * in the cloud SES v2 (mocked), on a test clock.
 */

const STEP_MS = 30_000;
const LOCKED = 'Too many wrong codes for this account';

/** The `vigil_device=…` pair of a sign-in's Set-Cookie headers. */
const deviceCookieOf = (res: ApiResponse) =>
  /vigil_device=vdv_[0-9A-Za-z]{40}/.exec(res.headers['set-cookie'] ?? '')?.[0];

const totpMessage = (res: ApiResponse): string =>
  (res.body?.details as Array<{ path: string; message: string }> | undefined)?.find((d) => d.path === 'totp')
    ?.message ?? '';

describe.each(resetRigs)(
  'the second factor after repeated wrong codes ($runtime runtime)',
  { timeout: 90_000 },
  ({ start }) => {
    let rig: ResetRig;
    let api: ApiHarness;

    beforeAll(async () => {
      rig = await start();
      api = rig.api;
    });
    afterAll(async () => {
      await rig.close();
    });
    // Each test starts with full rate-limit buckets.
    beforeEach(() => {
      rig.clock.advance(2 * 3_600_000);
    });

    /** A person with a password and a confirmed TOTP secret, signed in once from `device`. */
    async function person() {
      const email = uniqueEmail('lock');
      const member = await memberWithPassword(api, rig.clock, email, undefined, GOOD_PASSWORD);
      const enrolled = await api.request('POST', '/v1/me/totp', { key: member.key });
      const secret: string = enrolled.body.secret;
      const confirmed = await api.request('POST', '/v1/me/totp/confirm', {
        key: member.key,
        body: { code: totpCode(secret, rig.clock.now()) },
      });
      expect(confirmed.status, confirmed.text).toBe(200);
      const code = () => {
        rig.clock.advance(STEP_MS);
        return totpCode(secret, rig.clock.now());
      };
      const first = await signIn(api, { email, password: GOOD_PASSWORD, totp: code() });
      expect(first.status, first.text).toBe(204);
      const device = deviceCookieOf(first);
      expect(device).toBeDefined();
      return { ...member, email, code, device: device ?? '' };
    }

    const attempt = (email: string, totp: string, extra: { cookie?: string; link?: string } = {}) =>
      signIn(
        api,
        { email, password: GOOD_PASSWORD, totp, ...(extra.link ? { link: extra.link } : {}) },
        extra.cookie ? { cookie: extra.cookie } : {},
      );

    /** WRONG_CODES_BEFORE_LOCK wrong codes with the right password from a browser without the device cookie. */
    async function lock(email: string) {
      for (let i = 0; i < WRONG_CODES_BEFORE_LOCK; i += 1) {
        const wrong = await attempt(email, '000000');
        expect(wrong.status, wrong.text).toBe(400);
        expect(totpMessage(wrong)).toBe('the code is wrong or was used already');
      }
    }

    const linksTo = (email: string) =>
      rig
        .mails()
        .filter((m) => m.to.includes(email))
        .flatMap((m) => [...m.text.matchAll(/\/sign-in\?link=(vsl_[A-Za-z0-9_-]+)/g)].map((x) => x[1] ?? ''));

    it('refuses a right code without the device cookie, e-mails a link, and the link lets the person in once', async () => {
      const p = await person();
      await lock(p.email);
      expect(linksTo(p.email)).toEqual([]);

      const refused = await attempt(p.email, p.code());
      expect(refused.status, refused.text).toBe(400);
      expect(totpMessage(refused)).toContain(LOCKED);
      expect(totpMessage(refused)).toContain('open the sign-in link we e-mailed you');
      const links = linksTo(p.email);
      expect(links).toHaveLength(1);
      const link = links[0] ?? '';
      const mail = rig.mails().find((m) => m.to.includes(p.email) && m.text.includes(link));
      expect(mail?.subject).toBe('Your Vigil sign-in link');
      expect(mail?.text).toContain(`${PUBLIC_URL}/sign-in?link=${link}`);
      expect(mail?.text).toContain(`${WRONG_CODES_BEFORE_LOCK} wrong two-factor codes`);
      // The credential keeps the link's hash, never the link.
      const stored = await getCredential(api.table, p.tenantId, p.userId);
      expect(stored?.sign_in_link_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored)).not.toContain(link);
      // Another try within the minute sends no second link.
      expect((await attempt(p.email, p.code())).status).toBe(400);
      expect(linksTo(p.email)).toHaveLength(1);

      // With the link, the right code signs this browser in, and it is remembered.
      const viaLink = await attempt(p.email, p.code(), { link });
      expect(viaLink.status, viaLink.text).toBe(204);
      expect(deviceCookieOf(viaLink)).toBeDefined();
      expect((await getCredential(api.table, p.tenantId, p.userId))?.wrong_codes).toBeUndefined();

      // Once: locked again, the same link is refused, saying so.
      await lock(p.email);
      rig.clock.advance(61_000);
      const again = await attempt(p.email, p.code(), { link });
      expect(again.status, again.text).toBe(400);
      expect(totpMessage(again)).toContain('That sign-in link is wrong, used or expired.');
      // A new link came instead; it works within 15 minutes, not after.
      const fresh = linksTo(p.email)[1] ?? '';
      expect(fresh).not.toBe('');
      expect(fresh).not.toBe(link);
      rig.clock.advance(16 * 60_000);
      const late = await attempt(p.email, p.code(), { link: fresh });
      expect(late.status).toBe(400);
      expect(totpMessage(late)).toContain('That sign-in link is wrong, used or expired.');
    });

    it('still takes the right code from a browser with the device cookie', async () => {
      const p = await person();
      await lock(p.email);
      const known = await attempt(p.email, p.code(), { cookie: p.device });
      expect(known.status, known.text).toBe(204);
      expect((await getCredential(api.table, p.tenantId, p.userId))?.wrong_codes).toBeUndefined();
      // The count starts over: another browser's right code is taken again.
      expect((await attempt(p.email, p.code())).status).toBe(204);
    });

    it('does not take a wrong code through the link either, and spends the link with it', async () => {
      const p = await person();
      await lock(p.email);
      expect((await attempt(p.email, p.code())).status).toBe(400);
      const link = linksTo(p.email)[0] ?? '';
      const wrong = await attempt(p.email, '000000', { link });
      expect(wrong.status).toBe(400);
      expect(totpMessage(wrong)).toBe('the code is wrong or was used already');
      const after = await attempt(p.email, p.code(), { link });
      expect(after.status).toBe(400);
      expect(totpMessage(after)).toContain(LOCKED);
    });
  },
);
