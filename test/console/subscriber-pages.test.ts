import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { WAIT } from '../support/wait.ts';
import { audit, expectNoConsoleErrors, openPage, seedServices } from './support.ts';
import { useConsole } from './use-console.ts';

/**
 * The keyless pages of a status page's subscribers and of a password page in Chromium (issue 54
 * items 3 and 4), each under its own CSP and axe-core clean (WCAG 2.1 A and AA): the subscribe
 * form and its "check your inbox" answer, the emailed confirmation link's page and its answer, the
 * manage page — where a subscriber chooses the components they are told about, which the tenant
 * then reads — and the password form, with its error. No page runs a script or violates its CSP.
 */

interface Subscriber {
  address: string | null;
  components: string[] | 'all';
  state: string;
}

describe('subscriber and password pages in Chromium', { timeout: 120_000 }, () => {
  let smtp: TestSmtpServer;
  let billingId: string;
  let searchId: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const rig = useConsole({
    env: () => ({ VIGIL_SMTP_URL: smtp.url, VIGIL_EMAIL_FROM: 'Vigil <status@vigil.example.com>' }),
    seed: async (rig) => {
      ({ billing: billingId, search: searchId } = await seedServices(rig, 'Billing', 'Search'));
      for (const [slug, extra] of [
        ['acme', {}],
        ['secret', { visibility: 'password', password: 'a long page password' }],
      ] as const) {
        const made = await rig.api('POST', '/v1/status-pages', {
          slug,
          title: slug === 'acme' ? 'Acme' : 'Secret',
          entity_ids: [billingId, searchId],
          ...extra,
        });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
      }
    },
  });

  /** The path of the last link to `prefix` in the last email to `address`, once it came. */
  const linkMailed = (address: string, prefix: string, count: number) =>
    vi.waitFor(() => {
      const mails = smtp.received.filter((m) => m.to.includes(address));
      expect(mails.length, `emails to ${address}`).toBeGreaterThanOrEqual(count);
      const text = mails.at(-1)?.message.text ?? '';
      const found = new RegExp(`(?:https?://[^/\\s]+)?(${prefix}[A-Za-z0-9_.~%-]+)`).exec(text)?.[1];
      expect(found, text).toBeDefined();
      return found ?? '';
    }, WAIT);

  /** A page in a fresh context that never signed in, recording CSP violations before its content runs. */
  const visitor = async () => {
    const p = await openPage(rig);
    await p.page.addInitScript(
      "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));",
    );
    const clean = async () => {
      expect(await audit(p.page)).toEqual([]);
      expect(await p.page.evaluate<string[]>('window.__violations')).toEqual([]);
      expect(await p.page.locator('script').count()).toBe(0);
    };
    return { ...p, clean };
  };

  it('subscribes, confirms and chooses components through the plain forms, each page clean', async () => {
    const p = await visitor();
    const { page } = p;
    await page.goto('/p/acme');
    await page.getByLabel('Email').fill('ann@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    await p.clean();

    await page.goto(await linkMailed('ann@example.com', '/p/acme/confirm/', 1));
    await page.getByRole('heading', { level: 1, name: 'Confirm updates of Acme' }).waitFor();
    await p.clean();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { level: 1, name: 'Subscription confirmed' }).waitFor();
    await p.clean();

    // A notice of an update carries the manage link.
    const incident = await rig.api('POST', '/v1/status-pages/acme/incidents', {
      title: 'Billing slow',
      body: 'Looking into it.',
      impact: [{ entity_id: billingId, level: 'degraded_performance' }],
      notify: true,
    });
    expect(incident.status).toBe(201);
    const manage = await linkMailed('ann@example.com', '/p/acme/subscription/', 2);
    await page.goto(manage);
    await page.getByRole('heading', { level: 1, name: 'Updates of Acme' }).waitFor();
    await p.clean();
    const choices = page.getByRole('group', { name: 'Tell me about' });
    expect(await choices.getByLabel('Everything on the page').isChecked()).toBe(true);
    await choices.getByLabel('Everything on the page').uncheck();
    await choices.getByLabel('Billing').uncheck();
    await choices.getByLabel('Search').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saved' }).waitFor();
    await p.clean();

    const listed = await rig.api<{ subscribers: Subscriber[] }>('GET', '/v1/status-pages/acme/subscribers');
    expect(listed.body.subscribers).toEqual([
      expect.objectContaining({ address: 'ann@example.com', components: [searchId], state: 'confirmed' }),
    ]);
    // The choice holds when the manage page is read again.
    await page.goto(manage);
    expect(await choices.getByLabel('Search').isChecked()).toBe(true);
    expect(await choices.getByLabel('Billing').isChecked()).toBe(false);
    expect(await choices.getByLabel('Everything on the page').isChecked()).toBe(false);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a password page’s form, and its error, clean; the right password opens the page', async () => {
    const p = await visitor();
    const { page } = p;
    const res = await page.goto('/p/secret');
    expect(res?.status()).toBe(401);
    await page.getByRole('heading', { level: 1, name: 'This status page is private' }).waitFor();
    expect(await page.content()).not.toContain('Secret');
    await p.clean();
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Open the page' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await p.clean();
    await page.getByLabel('Password').fill('a long page password');
    await page.getByRole('button', { name: 'Open the page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Secret' }).waitFor();
    await p.clean();
    await p.close();
  });
});
