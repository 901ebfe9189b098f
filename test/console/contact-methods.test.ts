import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { audit, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Your contact methods and notification rules in Settings (issue 55 item 2), against a real SMTP
 * server on 127.0.0.1 (the runtime's VIGIL_SMTP_URL): an e-mail method added, a wrong code
 * refused, the mailed code verifying it; a rule on it saved ("at once by e-mail") and read back by
 * the API.
 */

const ADDRESS = 'pager@example.com';

describe('console contact methods and notification rules', { timeout: 90_000 }, () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  const rig = useConsole({
    env: () => ({ VIGIL_SMTP_URL: smtp.url, VIGIL_EMAIL_FROM: 'Vigil <alerts@vigil.example.com>' }),
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('adds an e-mail method, verifies it with the mailed code, and saves a rule on it', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const add = p.page.getByRole('form', { name: 'Add a contact method' });
    await add.getByLabel('Kind').selectOption('email');
    await add.getByLabel('Address (e-mail)').fill(ADDRESS);
    await add.getByLabel('Your name for it').fill('work');
    await add.getByRole('button', { name: 'Add contact method' }).click();
    await expectText(
      add.getByRole('status'),
      `A code is on its way to ${ADDRESS}: enter it above to verify.`,
    );

    const mailed = () =>
      /code is (\d{6})\b/.exec(smtp.received.find((m) => m.to.includes(ADDRESS))?.message.text ?? '')?.[1];
    await expect.poll(mailed, { timeout: 10_000 }).toMatch(/^\d{6}$/);
    const code = mailed() ?? '';
    const verify = p.page.getByRole('form', { name: `Verify E-mail ${ADDRESS} (work)` });
    // A wrong code first: the API's refusal, and the method stays unverified.
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await verify.getByLabel('Code').fill(wrong);
    await verify.getByRole('button', { name: 'Verify' }).click();
    await expectText(p.page.getByRole('alert').first(), /^Not verified\. /);
    await verify.getByLabel('Code').fill(code);
    await verify.getByRole('button', { name: 'Verify' }).click();
    const item = p.page.locator('li.contact-method', { hasText: ADDRESS });
    await expectText(item.locator('.badge'), 'Verified');

    const rules = p.page.getByRole('form', { name: 'Notification rules' });
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await rules.getByLabel('Rule 1: after (minutes)').fill('0');
    await rules.getByLabel('Rule 1: contact method').selectOption({ label: `E-mail ${ADDRESS} (work)` });
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await rules.getByLabel('Rule 2: after (minutes)').fill('5');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expectText(rules.getByRole('status'), 'Rules saved.');
    const saved = await rig.api<{ rules: { after_seconds: number; contact_method_id: string }[] }>(
      'GET',
      '/v1/me/notification-rules',
    );
    const methods = await rig.api<{ contact_methods: { id: string; verified: boolean }[] }>(
      'GET',
      '/v1/me/contact-methods',
    );
    const id = methods.body.contact_methods[0]?.id;
    expect(methods.body.contact_methods.map((m) => m.verified)).toEqual([true]);
    expect(saved.body.rules).toEqual([
      { after_seconds: 0, contact_method_id: id },
      { after_seconds: 300, contact_method_id: id },
    ]);
    expect(await audit(p.page)).toEqual([]);
    await screenshot(p.page, 'contact-methods');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
