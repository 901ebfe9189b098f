import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWords, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { expectNoConsoleErrors, expectText, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The email channel through the Channels page, against a real SMTP server on 127.0.0.1 (the
 * runtime's VIGIL_SMTP_URL): the API's errors at the Recipients field (a bad address, 11
 * recipients), a shared email channel created (its addresses shown awaiting confirmation until
 * each one's emailed link is opened and confirmed in the browser), "Send test" about a check (the
 * mail arrives with the entity and the test's words), and its recipients edited (the new address
 * confirms, and the next test reaches it).
 */

const FROM = 'alerts@vigil.example.com';

const CONFIRM_SUBJECT = '[Vigil] Confirm alerts to this address';

describe('console email channel', { timeout: 90_000 }, () => {
  let smtp: TestSmtpServer;
  /** The mails other than confirmation emails. */
  const alerts = () => smtp.received.filter((m) => m.message.headers.get('subject') !== CONFIRM_SUBJECT);

  /** Opens the confirmation link emailed to `address` and presses Confirm. */
  async function confirmInBrowser(page: Page, address: string) {
    const mail = smtp.received.filter(
      (m) => m.to.includes(address) && m.message.headers.get('subject') === CONFIRM_SUBJECT,
    );
    // Sent while the channel was saved: it is there by the time the page shows the channel.
    const path = mail.at(-1)?.message.text?.match(/(\/v1\/email-confirmations\/\S+)/)?.[1];
    if (!path) throw new Error(`no confirmation link to ${address}`);
    await page.goto(path);
    await page.getByText(address).first().waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Address confirmed').waitFor();
  }
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  const rig = useConsole({
    env: () => ({ VIGIL_SMTP_URL: smtp.url, VIGIL_EMAIL_FROM: `Vigil <${FROM}>` }),
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'svc', name: 'Services' },
        { slug: 'payments', name: 'Payments' },
      );
      const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
        entity_id: entityId,
        check_type: 'push',
        name: 'Payments heartbeat',
        interval_seconds: 60,
      });
      expect(check.status).toBe(201);
    },
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('creates an email channel from the form, sends a test that arrives, and edits its recipients', async () => {
    const p = await openSignedIn(rig, { path: '/channels' });
    await p.page.getByText('No shared channels yet.').waitFor();
    const form = p.page.getByRole('form', { name: 'New shared channel' });
    await form.getByLabel(/^Name/).fill('Ops mail');
    await form.getByLabel(/^Channel type/).selectOption('email');
    const recipients = form.getByLabel(/^Recipients/);

    // A bad address: the API's message at the field.
    await recipients.fill('ops@example.com, not-an-address');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await expect.poll(() => recipients.getAttribute('aria-invalid')).toBe('true');
    await expectText(
      form.locator(`#${await recipients.getAttribute('id')}-error`),
      'Enter an email address such as ops@example.com.',
    );
    // Eleven recipients: one too many.
    await recipients.fill(Array.from({ length: 11 }, (_, i) => `ops${i}@example.com`).join(', '));
    await form.getByRole('button', { name: 'Create channel' }).click();
    await expectText(
      form.locator(`#${await recipients.getAttribute('id')}-error`),
      'Enter at most 10 addresses.',
    );
    expect(smtp.received).toHaveLength(0);

    await recipients.fill('oncall@example.com; ops@example.com');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await p.page.getByText('The shared channel Ops mail was created.').waitFor();
    const table = p.page.getByRole('table', { name: 'Shared channels' });
    await table.getByText('oncall@example.com, ops@example.com').waitFor();
    await table.getByText('(awaiting confirmation: oncall@example.com, ops@example.com)').waitFor();
    // Each address confirms in the browser: the emailed link's page, then its Confirm button.
    await confirmInBrowser(p.page, 'oncall@example.com');
    await confirmInBrowser(p.page, 'ops@example.com');
    await p.page.goto('/channels');
    await table.getByText('oncall@example.com, ops@example.com').waitFor();
    expect(await table.getByText(/awaiting confirmation/).count()).toBe(0);

    // Attached to no check: the test names none (issue 37: it no longer needs one).
    await p.page.getByRole('button', { name: 'Send test to Ops mail' }).click();
    await p.page.getByText('Test result: Test, email: sent').waitFor();
    await expect.poll(() => alerts().length).toBe(1);
    const mail = alerts()[0];
    expect(mail?.from).toBe(FROM);
    expect(mail?.to).toEqual(['oncall@example.com', 'ops@example.com']);
    const subject = decodeWords(mail?.message.headers.get('subject') ?? '');
    expect(subject).toMatch(/^\[Vigil\] Test: /);
    expect(mail?.message.text).toContain('This is a test message from Vigil: nothing changed.');
    expect(mail?.message.text).toContain('attached to no check yet');
    expect(mail?.message.html).toContain('This is a test message from Vigil');

    // Edit: the recipients are replaced (the API's errors show at the field here too).
    await p.page.getByRole('button', { name: 'Edit Ops mail' }).click();
    const edit = p.page.getByRole('form', { name: 'Edit Ops mail' });
    const editRecipients = edit.getByLabel(/^Recipients/);
    await expect.poll(() => editRecipients.inputValue()).toBe('oncall@example.com, ops@example.com');
    await editRecipients.fill('pager@example.com, bad address');
    await edit.getByRole('button', { name: 'Save Ops mail' }).click();
    await expect.poll(() => editRecipients.getAttribute('aria-invalid')).toBe('true');
    await editRecipients.fill('pager@example.com');
    await edit.getByRole('button', { name: 'Save Ops mail' }).click();
    await p.page.getByText('The shared channel Ops mail was saved.').waitFor();
    await table.getByText('pager@example.com (awaiting confirmation: pager@example.com)').waitFor();
    await confirmInBrowser(p.page, 'pager@example.com');
    await p.page.goto('/channels');
    await table.getByText('pager@example.com', { exact: true }).waitFor();
    await p.page.getByRole('button', { name: 'Send test to Ops mail' }).click();
    await expect.poll(() => alerts().length).toBe(2);
    expect(alerts()[1]?.to).toEqual(['pager@example.com']);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
