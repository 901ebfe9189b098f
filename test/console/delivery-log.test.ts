import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { audit, expectCount, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Issue 37's notification edges in Chromium against a real runtime: the delivery log over 1,000+
 * deliveries filtered on the server by entity, check, channel and outcome with the filter in the
 * URL (a link reproduces the view), an entity column with names; a shared channel attached to no
 * check sends its test; a check whose only delivery path is a route says so instead of "nobody is
 * told"; the pages stay axe-clean.
 *
 * The deliveries are seeded by pushing alternating results to four push checks without channels
 * (each change logs one `skipped: no channels` record; flap detection off, no probe goes out).
 */

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-deliveries-'));
const tls = createTlsFixtures();
const caFile = join(tmp, 'test-ca.pem');
writeFileSync(caFile, tls.caCert);
const received: { path: string; body: string }[] = [];
const receiver: HttpsServer = createHttpsServer(tls.valid, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString() });
    res.writeHead(204).end();
  });
});
const hookUrl = (path: string) => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/${path}`;

const ENTITIES = ['Orders', 'Billing', 'Search', 'Mailer'] as const;
/** Changes pushed per check: 4 × 260 = 1,040 deliveries. */
const CHANGES_PER_CHECK = 260;

describe('console delivery log at 1,000+ deliveries', { timeout: 240_000 }, () => {
  const checks: Record<string, string> = {};
  const entities: Record<string, string> = {};
  const count = async (query: string) => {
    let total = 0;
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { logs: unknown[]; next_cursor: string | null } } = await rig.api(
        'GET',
        `/v1/notify/logs?limit=200&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      total += page.body.logs.length;
      cursor = page.body.next_cursor;
    } while (cursor);
    return total;
  };

  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  const rig = useConsole({
    env: { NODE_EXTRA_CA_CERTS: caFile, VIGIL_RATE_LIMIT_RPS: '100000', VIGIL_RATE_LIMIT_BURST: '100000' },
    timeout: 240_000,
    seed: async (rig) => {
      expect((await rig.api('POST', '/v1/blueprints', { slug: 'svc', name: 'Services' })).status).toBe(201);
      for (const name of ENTITIES) {
        const entity = await rig.api<{ id: string }>('POST', '/v1/blueprints/svc/entities', {
          slug: name.toLowerCase(),
          name,
        });
        entities[name] = entity.body.id;
        const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
          entity_id: entity.body.id,
          check_type: 'push',
          name: `${name} heartbeat`,
          interval_seconds: 3600,
          failure_threshold: 1,
        });
        checks[name] = check.body.id;
        await rig.api('POST', `/v1/checks/${check.body.id}/policy`, { cooldown_seconds: 0, flap_changes: 0 });
      }
      // Four checks side by side, each its changes in order.
      await Promise.all(
        ENTITIES.map(async (name) => {
          for (let i = 0; i < CHANGES_PER_CHECK; i += 1) {
            const res = await rig.api('POST', `/v1/checks/${checks[name]}/results`, {
              success: i % 2 === 0,
              latency_ms: 5,
            });
            expect(res.status).toBe(201);
          }
        }),
      );
      await vi.waitFor(async () => expect(await count('')).toBe(ENTITIES.length * CHANGES_PER_CHECK), {
        timeout: 120_000,
        interval: 2_000,
      });
    },
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('filters the log on the server by entity, outcome and check, with the filter in the URL', async () => {
    const p = await openSignedIn(rig, { path: '/notifications' });
    const table = p.page.getByRole('table', { name: 'Deliveries' });
    await table.getByRole('row').nth(1).waitFor();
    // A page of 50, every row naming its entity (linked) and check.
    await expectCount(table.getByRole('row'), 51);
    await table.getByRole('link', { name: 'Mailer', exact: true }).first().waitFor();

    // The entity picker: blueprint, then entity; the server filters, the URL keeps it.
    const filters = p.page.getByRole('search', { name: 'Filter deliveries' });
    await filters.getByLabel('Entity: blueprint').selectOption({ label: 'Services' });
    await filters.getByLabel(/^Entity$/).selectOption({ label: 'Billing' });
    await expect.poll(() => new URL(p.page.url()).searchParams.get('entity_id')).toBe(entities.Billing);
    await filters
      .getByRole('list', { name: 'Active filters' })
      .getByText('Entity: Billing', { exact: true })
      .waitFor();
    await expect.poll(() => table.getByRole('link', { name: 'Orders', exact: true }).count()).toBe(0);
    await expectCount(table.getByRole('link', { name: 'Billing', exact: true }), 50);

    // Outcome: the first result of each check was a success (unknown → up: "first result").
    await filters.getByLabel('Outcome').selectOption('skipped');
    await expect.poll(() => new URL(p.page.url()).searchParams.get('status')).toBe('skipped');
    await expectCount(table.getByRole('row'), 51);
    await screenshot(p.page, 'delivery-log-filtered');
    expect(await audit(p.page)).toEqual([]);

    // A link reproduces the view: a fresh page at the same URL shows the same filtered rows.
    const url = p.page.url();
    const again = await openSignedIn(rig, { path: url });
    const againTable = again.page.getByRole('table', { name: 'Deliveries' });
    await againTable.getByRole('row').nth(1).waitFor();
    await again.page
      .getByRole('list', { name: 'Active filters' })
      .getByText('Entity: Billing', { exact: true })
      .waitFor();
    await expect.poll(() => againTable.getByRole('link', { name: 'Search', exact: true }).count()).toBe(0);
    expectNoConsoleErrors(again);
    await again.close();

    // Paging follows the filter on the server: older pages hold Billing's deliveries only, all 260 of them.
    expect(await count(`entity_id=${entities.Billing}&status=skipped`)).toBe(CHANGES_PER_CHECK);
    await p.page.getByRole('button', { name: 'Older deliveries' }).click();
    await p.page.getByRole('button', { name: 'Newest deliveries' }).waitFor();
    await table.getByRole('row').nth(1).waitFor();
    await expectCount(table.getByRole('link', { name: 'Billing', exact: true }), 50);
    await expectCount(table.getByRole('link', { name: 'Orders', exact: true }), 0);
    await p.page.getByRole('button', { name: 'Newest deliveries' }).click();

    // "only" beside a check narrows to that check; removing the entity filter keeps it.
    await table.getByRole('link', { name: 'only deliveries of Billing heartbeat' }).first().click();
    await expect.poll(() => new URL(p.page.url()).searchParams.get('check_id')).toBe(checks.Billing);
    await filters.getByRole('button', { name: 'Remove filter Entity: Billing' }).click();
    await expect.poll(() => new URL(p.page.url()).searchParams.get('entity_id')).toBeNull();
    await filters.getByText('Check: Billing heartbeat', { exact: true }).waitFor();
    await expectCount(table.getByRole('row'), 51);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('sends a test to a shared channel attached to no check and logs it', async () => {
    const made = await rig.api<{ id: string }>('POST', '/v1/notify/channels', {
      name: 'Lonely room',
      channel_type: 'webhook',
      config: { url: hookUrl('lonely') },
    });
    expect(made.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/channels' });
    await p.page.getByRole('button', { name: 'Send test to Lonely room' }).click();
    await p.page.getByText('Test result: Test, webhook: sent (HTTP 204) after 1 attempt.').waitFor();
    expect(received.filter((r) => r.path === '/lonely')).toHaveLength(1);
    expect(JSON.parse(received.find((r) => r.path === '/lonely')?.body ?? '{}')).toMatchObject({
      kind: 'test',
      check_id: '',
    });
    await p.page.goto(`/notifications?channel_id=${made.body.id}`);
    const table = p.page.getByRole('table', { name: 'Deliveries' });
    await table.getByText('none (a channel test)').waitFor();
    await table.getByRole('cell', { name: /^Lonely room only/ }).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('names the route that delivers a check’s alerts instead of "nobody is told"', async () => {
    const pager = await rig.api<{ id: string }>('POST', '/v1/notify/channels', {
      name: 'Pager',
      channel_type: 'webhook',
      config: { url: hookUrl('pager') },
    });
    const route = await rig.api('POST', '/v1/notify/routes', {
      match: { blueprint_slugs: ['svc'], to_states: ['down'] },
      channel_ids: [pager.body.id],
    });
    expect(route.status).toBe(201);
    const p = await openSignedIn(rig, { path: `/checks/${checks.Orders}` });
    const routed = p.page.getByRole('list', { name: 'Channels reached by routes' });
    await routed.getByText('Pager').waitFor();
    await routed.getByText('when it goes down').waitFor();
    await p.page.getByText('No channels of its own: only the routes above tell anyone.').waitFor();
    await expectCount(p.page.getByText(/nobody is told/), 0);
    await screenshot(p.page, 'check-routed-channels');

    // A repeat under a minute reads as one sentence at its field, not zod's "Too small".
    const form = p.page.getByRole('form', { name: 'Notification policy' });
    const repeat = form.getByLabel(/^Repeat while down/);
    await repeat.fill('30');
    await form.getByRole('button', { name: /^Save/ }).click();
    await expect.poll(() => repeat.getAttribute('aria-invalid')).toBe('true');
    await expectText(
      form.locator(`#${await repeat.getAttribute('id')}-error`),
      'Repeat at most every minute: enter 60 seconds or more, or 0 for no repeat.',
    );
    await expectCount(p.page.getByText(/Too small|expected number/), 0);
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
