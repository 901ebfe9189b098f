import { type AddressInfo, createServer } from 'node:net';
import { URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { WAIT } from '../support/wait.ts';
import {
  PASSWORD,
  sessionCookie,
  signInWithPassword,
  submitPassword,
  webStorageEntries,
} from './people-support.ts';
import { audit, expectCount, expectNoConsoleErrors, expectText, openPage, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * A person's way in (local runtime, Chromium): an invitation accepted with a password lands signed
 * in; two-factor sign-in set up in Security asks for the code at the next sign-in (a recovery
 * code works once instead); a forgotten password is reset from the e-mailed link (a real SMTP
 * server on 127.0.0.1).
 */

const FROM = 'vigil@example.com';

/** A port of 127.0.0.1 free right now (the runtime takes it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('console invitations, two-factor sign-in and password reset', { timeout: 90_000 }, () => {
  let smtp: TestSmtpServer;
  let port: number;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The reset e-mail links to the public URL: the runtime's own, so a port chosen up front.
    port = await freePort();
  });
  const rig = useConsole({
    env: () => ({
      PORT: String(port),
      VIGIL_PUBLIC_URL: `http://127.0.0.1:${port}`,
      VIGIL_SMTP_URL: smtp.url,
      VIGIL_EMAIL_FROM: `Vigil <${FROM}>`,
    }),
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('accepts an invitation with a name and a password and lands signed in', async () => {
    const admin = await openSignedIn(rig, { path: '/settings' });
    await admin.page.getByLabel(/^E-mail/).fill('erin@example.com');
    await admin.page.getByRole('button', { name: 'Invite' }).click();
    const link = admin.page.getByRole('figure', { name: 'Invitation link' });
    await expectText(link.locator('code'), new RegExp(`^${rig.url}/accept\\?token=.+`));
    const url = (await link.locator('code').textContent()) ?? '';

    const p = await openPage(rig);
    const { page } = p;
    await page.goto(url);
    await page.getByRole('heading', { name: 'Join your team on Vigil' }).waitFor();
    expect(await audit(page)).toEqual([]);
    await page.getByLabel(/^Your name/).fill('Erin');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Repeat the password/).fill('not the same');
    await page.getByText('The two passwords differ.').waitFor();
    expect(await page.getByRole('button', { name: 'Accept invitation' }).isDisabled()).toBe(true);
    await page.getByLabel(/^Repeat the password/).fill(PASSWORD);
    await screenshot(page, 'people-accept');
    await page.getByRole('button', { name: 'Accept invitation' }).click();

    // Signed in by the session cookie the answer set: the status page, nothing in web storage.
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByText('erin@example.com').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/status');
    expect(await sessionCookie(page)).toMatchObject({ httpOnly: true });
    expect(await webStorageEntries(page)).toBe(0);

    // The new member signs in again with the password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInWithPassword(page, 'erin@example.com', PASSWORD);
    for (const x of [admin, p]) expectNoConsoleErrors(x);
    for (const x of [admin, p]) await x.close();
  });

  it('sets up two-factor sign-in, then asks for the code at sign-in; a recovery code works once', async () => {
    const p = await openPage(rig);
    const { page } = p;
    await signInWithPassword(page, 'erin@example.com', PASSWORD, '/settings');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const otpauth =
      (await page.getByRole('figure', { name: 'Setup link' }).locator('code').textContent()) ?? '';
    const secret = (await page.getByRole('figure', { name: 'Secret' }).locator('code').textContent()) ?? '';
    expect(otpauth).toMatch(/^otpauth:\/\/totp\//);
    const totp = URI.parse(otpauth);
    expect(totp.secret.base32).toBe(secret);
    await page.getByLabel(/^Code from the app/).fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codesBlock = page.getByRole('figure', { name: 'Recovery codes' }).locator('code');
    await expectText(codesBlock, /\S/);
    const codes = ((await codesBlock.textContent()) ?? '').split('\n').filter(Boolean);
    expect(codes).toHaveLength(10);
    await screenshot(page, 'people-two-factor');
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByRole('button', { name: 'Turn off' }).waitFor();
    // Shown once: not on the page any more.
    await expectCount(page.getByRole('figure', { name: 'Secret' }), 0);
    await page.getByRole('button', { name: 'Sign out' }).click();

    // The password alone is not enough now: the second step asks for the code.
    await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await submitPassword(page, 'erin@example.com', PASSWORD);
    await page.getByLabel(/^Code/).waitFor();
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'people-sign-in-code');
    await page.getByLabel(/^Code/).fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    expect(await sessionCookie(page)).toBeUndefined();

    // A recovery code signs in, once.
    const recovery = codes[0] ?? '';
    await page.getByLabel(/^Code/).fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await submitPassword(page, 'erin@example.com', PASSWORD);
    await page.getByLabel(/^Code/).fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();

    // The app's code of the next step (the set-up used this one) signs in.
    await page.getByLabel(/^Code/).fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await webStorageEntries(page)).toBe(0);

    // The settings know it is on (GET /v1/me's totp_enabled): they offer turning it off, no set-up, no secret.
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Turn off' }).waitFor();
    await expectCount(page.getByRole('button', { name: 'Set up two-factor sign-in' }), 0);
    await expectCount(page.getByRole('figure', { name: 'Secret' }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('resets a forgotten password from the e-mailed link, which works once', async () => {
    const p = await openPage(rig);
    const { page } = p;
    await page.goto('/');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel(/^E-mail/).fill('erin@example.com');
    await screenshot(page, 'people-reset-request');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(/^If an account uses erin@example.com, an e-mail with a link/).waitFor();

    const text = await vi.waitFor(() => {
      const mail = smtp.received.find((m) => m.to.includes('erin@example.com'));
      const body = `${mail?.message.text ?? ''}${mail?.message.html ?? ''}`;
      expect(body, 'the reset e-mail').toMatch(/reset\?token=/);
      return body;
    }, WAIT);
    const token = /reset\?token=([A-Za-z0-9_%.~-]+)/.exec(text)?.[1];
    expect(token).toBeDefined();
    // The link is the public URL's: this console's.
    expect(text).toContain(`http://127.0.0.1:${new URL(rig.url).port}/reset?token=`);
    const link = `/reset?token=${token}`;

    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    const fresh = 'reset horse, new battery 7';
    await page.getByLabel(/^New password/).fill(fresh);
    await page.getByLabel(/^Repeat the password/).fill(fresh);
    await screenshot(page, 'people-reset');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByText(/^Your password is set/).waitFor();

    // The link works once.
    await page.goto(link);
    await page.getByLabel(/^New password/).fill('yet another horse 99');
    await page.getByLabel(/^Repeat the password/).fill('yet another horse 99');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('alert').waitFor();

    // The new password signs in (the second step follows: two-factor sign-in is on).
    await page.goto('/');
    await submitPassword(page, 'erin@example.com', fresh);
    await page.getByLabel(/^Code/).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });
});
