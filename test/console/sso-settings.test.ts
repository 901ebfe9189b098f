import { describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

const SECRET = 'console-sso-secret-4f2a9c';

describe('console SSO settings', { timeout: 60_000 }, () => {
  const rig = useConsole();

  it('saves the SSO settings and shows the client secret only as ********', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    const form = page.getByRole('form', { name: 'SSO settings' });
    await form.waitFor();
    // An IP literal: the issuer passes the SSRF guard without a lookup; nothing is fetched on saving.
    await form.getByLabel('Issuer URL').fill('https://1.1.1.1');
    await form.getByLabel('Client ID').fill('vigil-console');
    await form.getByLabel('Client secret').fill(SECRET);
    await form.getByLabel('Allowed e-mail domains').fill('Example.com, example.org');
    await form.getByLabel('Role on first sign-in').selectOption('viewer');
    await form.getByLabel('Sign-in slug').fill('console-team');
    await form.getByRole('button', { name: 'Save SSO settings' }).click();
    await form.getByText('Saved.').waitFor();

    const stored = await rig.api<Record<string, unknown>>('GET', '/v1/settings/sso');
    expect(stored.body).toMatchObject({
      configured: true,
      issuer: 'https://1.1.1.1',
      client_id: 'vigil-console',
      client_secret: '********',
      email_domains: ['example.com', 'example.org'],
      default_role: 'viewer',
      required: false,
      slug: 'console-team',
    });

    await page.reload();
    await expect.poll(() => form.getByLabel('Client secret').inputValue()).toBe('********');
    await expect.poll(() => form.getByLabel('Client ID').inputValue()).toBe('vigil-console');
    await form.getByText(/\/v1\/sso\/start\?tenant=console-team/).waitFor();
    expect(await page.content()).not.toContain(SECRET);

    // Saving again with the mask keeps the stored secret (the API answers ******** either way).
    await form.getByLabel('Require SSO (refuse password sign-in)').check();
    await form.getByRole('button', { name: 'Save SSO settings' }).click();
    await form.getByText('Saved.').waitFor();
    const again = await rig.api<Record<string, unknown>>('GET', '/v1/settings/sso');
    expect(again.body).toMatchObject({ required: true, client_secret: '********' });
    await screenshot(page, 'settings-sso');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
