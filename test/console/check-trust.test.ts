import { once } from 'node:events';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { expectNoConsoleErrors, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Per-check TLS trust in the console: the check form's "Trust" group for an http check on a
 * self-signed HTTPS target (a bad PEM refused at its field, then its certificate as the extra CA),
 * the settings rows, the edit that turns on "Skip certificate verification", and the warning beside
 * the results.
 */

const tls = createTlsFixtures();
/** A self-signed HTTPS target on 127.0.0.1 (its certificate names 127.0.0.1). */
const target: HttpsServer = createHttpsServer(tls.selfSigned, (_req, res) => res.writeHead(200).end('ok'));

async function choose(page: Page, label: string, option: string | { label: string }) {
  await page.getByLabel(new RegExp(`^${label}`)).selectOption(option);
}

describe('console per-check TLS trust', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    target.listen(0, '127.0.0.1');
    await once(target, 'listening');
  });
  const rig = useConsole({
    seed: async (rig) => {
      await seedEntity(rig, { slug: 'lab', name: 'Homelab' }, { slug: 'nas', name: 'NAS' });
    },
  });
  afterAll(async () => {
    target.closeAllConnections();
    target.close();
  });

  it('trusts an extra CA for one check, then skips verification with a warning', async () => {
    const p = await openSignedIn(rig, { path: '/checks/new' });
    await choose(p.page, 'Blueprint', { label: 'Homelab' });
    await choose(p.page, 'Entity', { label: 'NAS (nas)' });
    await choose(p.page, 'Check type', 'http');
    await p.page
      .getByLabel('Target URL')
      .fill(`https://127.0.0.1:${(target.address() as AddressInfo).port}/`);
    await p.page.getByLabel('Interval (seconds)').fill('2');
    const pem = p.page.getByLabel('Extra CA certificate (PEM)');
    await pem.fill('not a certificate');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await expect.poll(() => pem.getAttribute('aria-invalid')).toBe('true');
    await p.page
      .getByText(/Give one or more PEM certificates/)
      .first()
      .waitFor();
    await pem.fill(tls.selfSigned.cert);
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await p.page.getByRole('heading', { name: 'Recent results' }).waitFor();
    await p.page.getByText('1 certificate').waitFor();

    await p.page.getByRole('button', { name: 'Edit' }).click();
    expect(await p.page.getByLabel('Extra CA certificate (PEM)').inputValue()).toBe(
      tls.selfSigned.cert.trim(),
    );
    await p.page.getByLabel('Extra CA certificate (PEM)').fill('');
    await p.page.getByLabel('Skip certificate verification (insecure)').check();
    await p.page.getByRole('button', { name: 'Save check' }).click();
    await p.page.getByText('Skipped (insecure): any certificate passes').waitFor();
    expect(await p.page.getByText('1 certificate').count()).toBe(0);
    // The next probes run with skip_verify: their results carry the warning.
    await expect
      .poll(
        async () => {
          await p.page.reload();
          await p.page.getByRole('heading', { name: 'Recent results' }).waitFor();
          return p.page
            .getByRole('table', { name: 'Recent results' })
            .getByText('certificate not verified (skip_verify)')
            .count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    await screenshot(p.page, 'check-trust');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
