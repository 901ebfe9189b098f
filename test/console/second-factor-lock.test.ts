import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../../lib/people/totp/totp.ts';
import { freePort } from '../support/dynamodb-local.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { WAIT } from '../support/wait.ts';
import { adminEmail, PASSWORD, setPassword, submitPassword } from './people-support.ts';
import { expectNoConsoleErrors, openPage } from './support.ts';
import { useConsole } from './use-console.ts';

/**
 * The console's side of the second-factor lock (issue 75 point 6; local runtime, Chromium, a real
 * SMTP server on 127.0.0.1): after five wrong codes a browser that never signed in is told why its
 * code is not taken, and the e-mailed link's page signs it in with the password and a code.
 */

describe('console sign-in after repeated wrong codes', { timeout: 90_000 }, () => {
  let smtp: TestSmtpServer;
  let port: number;
  let email: string;
  let secret: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The link goes to the public URL: the runtime's own, so a port chosen up front.
    port = await freePort();
  });
  const rig = useConsole({
    env: () => ({
      PORT: String(port),
      VIGIL_PUBLIC_URL: `http://127.0.0.1:${port}`,
      VIGIL_SMTP_URL: smtp.url,
      VIGIL_EMAIL_FROM: 'Vigil <vigil@example.com>',
    }),
    seed: async (rig) => {
      email = await adminEmail(rig);
      await setPassword(rig, PASSWORD);
      const enrolled = await rig.api<{ secret: string }>('POST', '/v1/me/totp');
      secret = enrolled.body.secret;
      const confirmed = await rig.api('POST', '/v1/me/totp/confirm', { code: totpCode(secret, Date.now()) });
      expect(confirmed.status).toBe(200);
    },
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('says why a code is not taken, and signs in through the e-mailed link', async () => {
    for (let i = 0; i < 5; i += 1) {
      const wrong = await rig.api('POST', '/v1/session', { email, password: PASSWORD, totp: '000000' });
      expect(wrong.status).toBe(400);
    }
    const p = await openPage(rig);
    const { page } = p;
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await submitPassword(page, email, PASSWORD);
    await page
      .getByText(/^Too many wrong codes for this account: enter the code in a browser you signed in/)
      .waitFor();

    const url = await vi.waitFor(() => {
      const mail = smtp.received.find((m) => m.to.includes(email));
      const found = /http:\/\/127\.0\.0\.1:\d+\/sign-in\?link=vsl_[A-Za-z0-9_-]+/.exec(
        mail?.message.text ?? '',
      )?.[0];
      expect(found, 'the sign-in link e-mail').toBeDefined();
      return found ?? '';
    }, WAIT);
    await page.goto(url);
    await page.getByText(/^You opened the sign-in link from your e-mail/).waitFor();
    await submitPassword(page, email, PASSWORD);
    await page.getByLabel(/^Code/).fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });
});
