import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { expectCount, expectNoConsoleErrors, expectText, signIn } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The journey, in one browser session, through the forms only: sign in with the key the
 * first start printed; create a blueprint, an entity and an HTTP check (every second, against a
 * local server); watch it go down and up on the status page without a reload; add a webhook
 * channel and send a test; create and run an action; create a read-only key, sign in with it and
 * find no write control on any page.
 */

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-journey-'));
const tls = createTlsFixtures();
const caFile = join(tmp, 'ca.pem');
writeFileSync(caFile, tls.caCert);

const hooks: string[] = [];
const receiver = createHttpsServer(tls.valid, (req, res) => {
  req.resume().on('end', () => {
    hooks.push(req.url ?? '');
    res.writeHead(204).end();
  });
});
let healthy = true;
/** What the check watches: 200 while `healthy`, else 503. */
const target = createHttpServer((_req, res) => res.writeHead(healthy ? 200 : 503).end(healthy ? 'ok' : 'no'));
const port = (s: { address(): unknown }) => (s.address() as AddressInfo).port;

const WRITE_CONTROLS =
  /^(new|create|add|save|edit|delete|remove|revoke|invite|register|run|send test|retry|enable|disable)\b/i;

describe('console journey', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    target.listen(0, '127.0.0.1');
    await Promise.all([once(receiver, 'listening'), once(target, 'listening')]);
  });
  const rig = useConsole({ env: { NODE_EXTRA_CA_CERTS: caFile } });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    target.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('goes from the first key to a live check, an alert test, an action and a read-only key', async () => {
    const p = await openSignedIn(rig);
    const { page } = p;

    // The catalog: a blueprint, then an entity from its form.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entities' }).click();
    const newBlueprint = page.getByRole('form', { name: 'New blueprint' });
    await newBlueprint.getByLabel('Slug').fill('web');
    await newBlueprint.getByLabel('Name').fill('Web');
    await newBlueprint.getByRole('button', { name: 'Create blueprint' }).click();
    await page.goto('/catalog?blueprint=web');
    const entityForm = page.getByRole('form', { name: 'New Web entity' });
    await entityForm.getByLabel('Slug').fill('storefront');
    await entityForm.getByLabel('Name').fill('Storefront');
    await entityForm.getByRole('button', { name: 'Create entity' }).click();
    await page.getByRole('link', { name: 'Storefront', exact: true }).waitFor();

    // An HTTP check every second, failing at the first failure.
    await page.goto('/checks/new');
    await page.getByLabel(/^Blueprint/).selectOption({ label: 'Web' });
    await page.getByLabel(/^Entity/).selectOption({ label: 'Storefront (storefront)' });
    await page.getByLabel(/^Check type/).selectOption('http');
    await page.getByLabel(/^Target URL/).fill(`http://127.0.0.1:${port(target)}/health`);
    await page.getByLabel(/^Interval \(seconds\)/).fill('1');
    await page.getByLabel(/^Failure threshold/).fill('1');
    await page.getByRole('button', { name: 'Create check' }).click();
    // No name given: the check is named after its method and target.
    await page
      .getByRole('heading', { name: `HTTP GET 127.0.0.1:${port(target)}/health`, level: 1 })
      .waitFor();
    const checkUrl = page.url();

    // The status page follows it down and up; the marker proves the page was never reloaded.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Status', exact: true })
      .click();
    await page.evaluate('window.__journey = true');
    const tile = (state: string) =>
      page.locator('.stat', { hasText: new RegExp(`^\\s*\\d+\\s*${state}\\s*$`, 'i') }).locator('.n');
    // The check runs every second; its first run waits for the scheduler's next tick.
    await expectText(tile('Up'), '1', 15_000);
    healthy = false;
    await expectText(tile('Down'), '1', 15_000);
    await page.getByRole('link', { name: 'Storefront' }).first().waitFor();
    healthy = true;
    await expectText(tile('Up'), '1', 15_000);
    expect(await page.evaluate('window.__journey === true')).toBe(true);

    // A webhook channel and a test alert.
    await page.goto(checkUrl);
    await page.getByLabel(/^Channel type/).selectOption('webhook');
    await page.getByLabel(/^URL/).fill(`https://127.0.0.1:${port(receiver)}/alerts`);
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page.getByText('The webhook channel was added.').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText(/webhook: sent \(HTTP 204\)/).waitFor();
    expect(hooks).toContain('/alerts');

    // An action, run by hand.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Actions' }).click();
    await page.getByRole('button', { name: 'New action' }).click();
    await page.getByLabel(/^Name/).fill('Redeploy');
    await page.getByLabel(/^URL/).fill(`https://127.0.0.1:${port(receiver)}/deploy/{{entity_slug}}`);
    await page.getByRole('button', { name: 'Create action' }).click();
    await page.getByRole('heading', { name: 'Redeploy', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('status', { name: 'Run result' }).getByText('204').waitFor();
    expect(hooks.some((h) => h.startsWith('/deploy/'))).toBe(true);

    // A read-only key, shown once.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const keyForm = page.getByRole('form', { name: 'Create an API key' });
    await keyForm.getByLabel(/^Label/).fill('wallboard');
    await keyForm.getByLabel('Read-only').check();
    await keyForm.getByRole('button', { name: /^Create/ }).click();
    const shownKey = page.getByRole('figure', { name: 'New API key' }).locator('code');
    await expectText(shownKey, /^vgl_/);
    const readOnlyKey = (await shownKey.textContent()) ?? '';
    expectNoConsoleErrors(p);
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Signed in with it: no write control anywhere.
    await signIn(page, readOnlyKey);
    await page.getByText('read-only key').waitFor();
    const found: Record<string, string[]> = {};
    for (const path of [
      '/status',
      '/catalog?blueprint=web',
      '/catalog/graph',
      '/entities/web/storefront',
      '/checks',
      checkUrl,
      '/notifications',
      '/actions',
      '/skills',
      '/settings',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectCount(page.getByText(/^Loading/), 0, path);
      const names = await page
        .getByRole('button')
        .allTextContents()
        .then((texts) => texts.map((text) => text.trim()));
      const writes = names.filter((n) => WRITE_CONTROLS.test(n));
      if (writes.length > 0 || (await page.locator('form').count()) > 0)
        found[path] = [...writes, ...((await page.locator('form').count()) > 0 ? ['a form'] : [])];
    }
    expect(found).toEqual({});
    expectNoConsoleErrors(p);
    await p.close();
  });
});
