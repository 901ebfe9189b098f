import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import {
  type ConsolePage,
  expectCount,
  expectNoConsoleErrors,
  expectText,
  openPage,
  signIn,
} from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * Editing a shared channel on the Channels page (PUT /v1/notify/channels/{id}), whose signing
 * secret is never read back: a rename sends no config and the receiver still gets requests signed
 * with the first secret; a new URL asks for the secret again (and sends nothing until given);
 * the secret can be removed; no request ever carries the redacted `********`. And the routes
 * editor's entity chips: a route of two entities. A read-only key gets neither control.
 */

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-channel-edit-'));
const tls = createTlsFixtures();
const caFile = join(tmp, 'test-ca.pem');
writeFileSync(caFile, tls.caCert);
interface Hit {
  path: string;
  body: string;
  signature: string | undefined;
}
const received: Hit[] = [];
const receiver: HttpsServer = createHttpsServer(tls.valid, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const signature = req.headers['x-service-signature'];
    received.push({
      path: req.url ?? '',
      body: Buffer.concat(chunks).toString(),
      signature: typeof signature === 'string' ? signature : undefined,
    });
    res.writeHead(204).end();
  });
});
const hookUrl = (path: string) => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;
const signed = (hit: Hit | undefined, secret: string) =>
  `sha256=${createHmac('sha256', secret)
    .update(hit?.body ?? '')
    .digest('hex')}`;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's WCAG 2 A/AA violations (ids) on the page as it is now, as accessibility.test.ts audits pages. */
async function axeViolations(p: ConsolePage): Promise<string[]> {
  await p.page.evaluate(`${AXE};0`);
  return p.page.evaluate<string[]>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
  );
}

/** The bodies of the channel PUTs the page sends. */
function watchPuts(p: ConsolePage): unknown[] {
  const puts: unknown[] = [];
  p.page.on('request', (req) => {
    if (req.method() === 'PUT' && /\/v1\/notify\/channels\//.test(req.url())) puts.push(req.postDataJSON());
  });
  return puts;
}

describe('console shared channel edit and multi-entity routes', { timeout: 90_000 }, () => {
  let checkId: string;
  const entities: Record<string, string> = {};
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  const rig = useConsole({
    env: { NODE_EXTRA_CA_CERTS: caFile },
    seed: async (rig) => {
      expect((await rig.api('POST', '/v1/blueprints', { slug: 'svc', name: 'Services' })).status).toBe(201);
      for (const [slug, name] of [
        ['payments', 'Payments'],
        ['orders', 'Orders'],
        ['search', 'Search'],
      ] as const) {
        const made = await rig.api<{ id: string }>('POST', '/v1/blueprints/svc/entities', { slug, name });
        expect(made.status).toBe(201);
        entities[slug] = made.body.id;
      }
      checkId = await seedCheck(rig, {
        entity_id: entities.payments,
        check_type: 'push',
        name: 'Payments heartbeat',
        interval_seconds: 60,
      });
    },
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('edits a shared channel, keeping its secret unless it is given again or removed', async () => {
    const made = await rig.api<{ id: string }>('POST', '/v1/notify/channels', {
      name: 'Pager',
      channel_type: 'webhook',
      config: { url: hookUrl('/a'), secret: 'first-secret' },
    });
    expect(made.status).toBe(201);
    const attached = await rig.api('POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_id: made.body.id,
    });
    expect(attached.status).toBe(201);
    const p = await openPage(rig);
    const puts = watchPuts(p);
    await signIn(p.page, rig.key);
    await p.page.goto('/channels');
    const table = p.page.getByRole('table', { name: 'Shared channels' });
    await table.getByText('(signed)').waitFor();

    // A rename: the name alone is sent, the stored secret stays and still signs.
    await p.page.getByRole('button', { name: 'Edit Pager' }).click();
    let edit = p.page.getByRole('form', { name: 'Edit Pager' });
    await expect.poll(() => edit.getByLabel(/^URL/).inputValue()).toBe(hookUrl('/a'));
    expect(await edit.getByLabel('Signing secret', { exact: true }).inputValue()).toBe('');
    await edit.getByLabel(/^Name/).fill('Pager duty');
    await edit.getByRole('button', { name: 'Save Pager' }).click();
    await p.page.getByText('The shared channel Pager duty was saved.').waitFor();
    expect(puts).toEqual([{ name: 'Pager duty' }]);
    await p.page.getByRole('button', { name: 'Send test to Pager duty' }).click();
    await p.page.getByText('Test result: Test, webhook: sent (HTTP 204) after 1 attempt.').waitFor();
    expect(received.map((h) => h.path)).toEqual(['/a']);
    expect(received[0]?.signature).toBe(signed(received[0], 'first-secret'));

    // A new URL without the secret: asked for at the field, nothing sent.
    await p.page.getByRole('button', { name: 'Edit Pager duty' }).click();
    edit = p.page.getByRole('form', { name: 'Edit Pager duty' });
    await edit.getByLabel(/^URL/).fill(hookUrl('/b'));
    await edit.getByRole('button', { name: 'Save Pager duty' }).click();
    const secret = edit.getByLabel('Signing secret', { exact: true });
    await expect.poll(() => secret.getAttribute('aria-invalid')).toBe('true');
    await expectText(
      edit.locator(`#${await secret.getAttribute('id')}-error`),
      'Give the signing secret again to change the destination (it is never read back), or remove it.',
    );
    expect(puts).toHaveLength(1);
    await secret.fill('second-secret');
    await edit.getByRole('button', { name: 'Save Pager duty' }).click();
    await p.page.getByText('The shared channel Pager duty was saved.').waitFor();
    expect(puts[1]).toEqual({
      name: 'Pager duty',
      channel_type: 'webhook',
      config: { url: hookUrl('/b'), secret: 'second-secret' },
    });
    await table.getByText(hookUrl('/b')).waitFor();
    await p.page.getByRole('button', { name: 'Send test to Pager duty' }).click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]?.path).toBe('/b');
    expect(received[1]?.signature).toBe(signed(received[1], 'second-secret'));

    // Removed: the channel is no longer signed.
    await p.page.getByRole('button', { name: 'Edit Pager duty' }).click();
    edit = p.page.getByRole('form', { name: 'Edit Pager duty' });
    await edit.getByLabel('Remove the signing secret').check();
    await edit.getByRole('button', { name: 'Save Pager duty' }).click();
    await p.page.getByText('The shared channel Pager duty was saved.').waitFor();
    await expectCount(table.getByText('(signed)'), 0);
    expect(puts[2]).toEqual({ name: 'Pager duty', channel_type: 'webhook', config: { url: hookUrl('/b') } });
    await p.page.getByRole('button', { name: 'Send test to Pager duty' }).click();
    await expect.poll(() => received.length).toBe(3);
    expect(received[2]?.signature).toBeUndefined();

    // Cancel sends nothing; the redacted value was never sent.
    await p.page.getByRole('button', { name: 'Edit Pager duty' }).click();
    await p.page
      .getByRole('form', { name: 'Edit Pager duty' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await expectCount(p.page.getByRole('form', { name: 'Edit Pager duty' }), 0);
    expect(puts).toHaveLength(3);
    expect(JSON.stringify(puts)).not.toContain('********');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('makes a route of several entities from the chip list (a phone-width page, edit form open, axe-clean)', async () => {
    const made = await rig.api<{ id: string; name: string }>('POST', '/v1/notify/channels', {
      name: 'Routed',
      channel_type: 'webhook',
      config: { url: hookUrl('/routed') },
    });
    expect(made.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/channels', width: 390 });
    const route = p.page.getByRole('form', { name: 'New route' });
    const group = route.getByRole('group', { name: 'Alerts of these entities (none: any)' });
    await group.getByText('Any entity.').waitFor();
    // Picked by blueprint, then entity (no directory of the tenant's entities).
    await group.getByLabel('Entity to add: blueprint').selectOption({ label: 'Services' });
    const pick = group.getByLabel(/^Entity to add$/);
    for (const label of ['Payments', 'Orders', 'Search']) {
      await expect.poll(() => pick.locator('option', { hasText: label }).count()).toBe(1);
      await pick.selectOption({ label });
    }
    const chips = group.getByRole('list', { name: 'Route entities' });
    await expectCount(chips.getByRole('listitem'), 3);
    // A chosen entity is no longer offered.
    await expectCount(pick.locator('option', { hasText: 'Orders' }), 0);
    await p.page.getByRole('button', { name: 'Edit Routed' }).click();
    await p.page.getByRole('form', { name: 'Edit Routed' }).waitFor();
    expect(await axeViolations(p)).toEqual([]);
    expect(
      await p.page.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      ),
    ).toBe(0);
    await p.page.getByRole('form', { name: 'Edit Routed' }).getByRole('button', { name: 'Cancel' }).click();
    await chips.getByRole('button', { name: 'Remove Search (svc/search)' }).click();
    await expectCount(chips.getByRole('listitem'), 2);
    await route.getByLabel('To down').check();
    await route.getByLabel('Send to Routed').check();
    await route.getByRole('button', { name: 'Create route' }).click();
    await p.page.getByText('The route was created.').waitFor();
    await p.page
      .getByRole('table', { name: 'Routes' })
      .getByRole('cell', {
        name: 'entities Payments (svc/payments), Orders (svc/orders); to down',
        exact: true,
      })
      .waitFor();
    await group.getByText('Any entity.').waitFor();
    const routes = await rig.api<{ routes: { match: { entity_ids: string[] }; channel_ids: string[] }[] }>(
      'GET',
      '/v1/notify/routes',
    );
    expect(routes.body.routes).toMatchObject([
      { match: { entity_ids: [entities.payments, entities.orders] }, channel_ids: [made.body.id] },
    ]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('gives a read-only key no edit control and no route form', async () => {
    const made = await rig.api<{ id: string }>('POST', '/v1/notify/channels', {
      name: 'Watched',
      channel_type: 'webhook',
      config: { url: hookUrl('/watched') },
    });
    expect(made.status).toBe(201);
    const route = await rig.api('POST', '/v1/notify/routes', {
      match: { entity_ids: [entities.search, entities.orders] },
      channel_ids: [made.body.id],
    });
    expect(route.status).toBe(201);
    const viewer = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    const p = await openSignedIn(rig, { path: '/channels', key: viewer.body.key });
    await p.page.getByRole('table', { name: 'Shared channels' }).getByText('Pager duty').waitFor();
    await p.page
      .getByRole('table', { name: 'Routes' })
      .getByText(/entities Payments/)
      .waitFor();
    await expectCount(p.page.getByRole('button', { name: /^(Edit|Add entity|Remove|Save)/ }), 0);
    await expectCount(p.page.locator('form'), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
