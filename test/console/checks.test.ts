import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeProbing } from '../../lib/locations/compose-probing.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { expectCount, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The checks and notifications pages against a real runtime: an HTTP check and a push check made
 * through the forms, a signed webhook channel answered by a local HTTPS receiver (trusted through
 * NODE_EXTRA_CA_CERTS), "Send test", the delivery log with a failed delivery and its retry, and a
 * read-only key that finds no write control.
 */

interface Received {
  path: string;
  body: string;
  signature: string | undefined;
}

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-checks-'));
const tls = createTlsFixtures();
const caFile = join(tmp, 'test-ca.pem');
writeFileSync(caFile, tls.caCert);
const received: Received[] = [];
/** Answers 204, or 500 under /fail. */
const receiver: HttpsServer = createHttpsServer(tls.valid, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const sig = req.headers['x-service-signature'];
    received.push({
      path: req.url ?? '',
      body: Buffer.concat(chunks).toString(),
      signature: typeof sig === 'string' ? sig : undefined,
    });
    res.writeHead(req.url?.startsWith('/fail') ? 500 : 204).end();
  });
});
/** The target of the HTTP check. */
const target: HttpServer = createHttpServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
);

const port = (s: HttpServer | HttpsServer) => (s.address() as AddressInfo).port;

async function choose(page: Page, label: string, option: string | { label: string }) {
  await page.getByLabel(new RegExp(`^${label}`)).selectOption(option);
}

describe('console checks and notifications', { timeout: 60_000 }, () => {
  let entityId: string;
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    target.listen(0, '127.0.0.1');
    await Promise.all([once(receiver, 'listening'), once(target, 'listening')]);
  });
  const rig = useConsole({
    env: { NODE_EXTRA_CA_CERTS: caFile },
    seed: async (rig) => {
      entityId = await seedEntity(
        rig,
        { slug: 'svc', name: 'Services' },
        { slug: 'checkout', name: 'Checkout API' },
      );
    },
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    target.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A signed-in page at the new check form, an http check of Checkout API chosen. */
  const newHttpCheckPage = async () => {
    const p = await openSignedIn(rig, { path: '/checks/new' });
    await choose(p.page, 'Blueprint', { label: 'Services' });
    await choose(p.page, 'Entity', { label: 'Checkout API (checkout)' });
    await choose(p.page, 'Check type', 'http');
    return p;
  };

  it('creates an http check, adds a signed webhook channel and sends a test', async () => {
    const p = await newHttpCheckPage();
    // A bad status first: the API's VALIDATION_ERROR shows at the field.
    await p.page.getByLabel('Target URL').fill(`http://127.0.0.1:${port(target)}/healthz`);
    await p.page.getByLabel('Expected status').fill('99');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await expect.poll(() => p.page.getByLabel('Expected status').getAttribute('aria-invalid')).toBe('true');
    await p.page.getByLabel('Expected status').fill('200');
    await p.page.getByLabel(/^Name/).fill('Checkout health');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await p.page.getByRole('heading', { name: 'Checkout health', level: 1 }).waitFor();
    const checkId = p.page.url().split('/checks/')[1] ?? '';
    expect(checkId).toMatch(/^chk_/);
    await p.page.getByRole('link', { name: 'Checkout API' }).first().waitFor();
    expect(await p.page.getByRole('link', { name: 'Checkout API' }).first().getAttribute('href')).toBe(
      '/entities/svc/checkout',
    );

    await choose(p.page, 'Channel type', 'webhook');
    await p.page.getByLabel(/^URL/).fill(`https://127.0.0.1:${port(receiver)}/hook`);
    await p.page.getByLabel('Signing secret').fill('s3cret');
    await p.page.getByRole('button', { name: 'Add channel' }).click();
    await p.page.getByText('The webhook channel was added.').waitFor();
    await p.page.getByRole('list', { name: 'Channels' }).getByText('(signed)').waitFor();

    await p.page.getByRole('button', { name: 'Send test' }).click();
    await p.page.getByText('Test, webhook: sent (HTTP 204) after 1 attempt.').waitFor();
    // The receiver records a request before it answers; "sent" shows only after the answer.
    const hook = received.find((r) => r.path === '/hook');
    expect(hook).toBeDefined();
    const expected = createHmac('sha256', 's3cret')
      .update(hook?.body ?? '')
      .digest('hex');
    expect(hook?.signature).toBe(`sha256=${expected}`);
    expect(JSON.parse(hook?.body ?? '{}')).toMatchObject({
      check_id: checkId,
      check_name: 'Checkout health',
    });

    await p.page.getByRole('heading', { name: 'Recent results' }).waitFor();
    await screenshot(p.page, 'check');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('creates an http check with accepted statuses, shows them and clears them on edit', async () => {
    const p = await newHttpCheckPage();
    await p.page.getByLabel('Target URL').fill(`http://127.0.0.1:${port(target)}/healthz`);
    await p.page.getByLabel('Accepted statuses').fill('204, 300-399');
    await p.page.getByLabel(/^Name/).fill('Checkout statuses');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await p.page.getByRole('heading', { name: 'Checkout statuses', level: 1 }).waitFor();
    const checkId = p.page.url().split('/checks/')[1] ?? '';
    const stored = () =>
      rig.api<{ expected_status: number; expected_statuses: unknown }>('GET', `/v1/checks/${checkId}`);
    expect((await stored()).body).toMatchObject({
      expected_status: 204,
      expected_statuses: [204, '300-399'],
    });
    await p.page.getByText('204, 300-399').first().waitFor();

    // The edit form loads the list back; blank clears it, expected_status stays its first code.
    await p.page.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => p.page.getByLabel('Accepted statuses').inputValue()).toBe('204, 300-399');
    await p.page.getByLabel('Accepted statuses').fill('');
    await p.page.getByRole('button', { name: 'Save check' }).click();
    await expect.poll(async () => (await stored()).body.expected_statuses).toBeNull();
    expect((await stored()).body.expected_status).toBe(204);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('creates a push check that shows its URLs and curl lines, and takes a heartbeat', async () => {
    const p = await openSignedIn(rig, { path: `/checks/new?entity_id=${entityId}` });
    await choose(p.page, 'Check type', 'push');
    await p.page.getByLabel('Interval (seconds)').fill('300');
    await p.page.getByLabel('Failure threshold').fill('1');
    await p.page.getByLabel('Success threshold').fill('2');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    // No name given: the check is named after its type, entity and interval.
    await p.page.getByRole('heading', { name: 'Push check for checkout, every 5 min', level: 1 }).waitFor();
    const checkId = p.page.url().split('/checks/')[1] ?? '';
    // Issue 35: the form's success threshold is the check's, and its page shows it.
    const stored = await rig.api<{ success_threshold: number }>('GET', `/v1/checks/${checkId}`);
    expect(stored.body.success_threshold).toBe(2);
    await p.page.getByText('Success threshold').first().waitFor();
    const code = (name: string) => p.page.getByRole('figure', { name }).locator('code');
    const heartbeat = `${rig.url}/v1/checks/${checkId}/heartbeat`;
    await expectText(code('Heartbeat URL'), heartbeat);
    await expectText(code('Result URL'), `${rig.url}/v1/checks/${checkId}/results`);
    await expectText(
      code('Heartbeat curl'),
      `curl -fsS -X POST -H "Authorization: Bearer $VIGIL_KEY" ${heartbeat}`,
    );
    await expectText(
      code('Crontab line'),
      `*/5 * * * * curl -fsS -X POST -H "Authorization: Bearer $VIGIL_KEY" ${heartbeat}`,
    );
    expect(await p.page.content()).not.toContain(rig.key);

    const res = await fetch(heartbeat, { method: 'POST', headers: { Authorization: `Bearer ${rig.key}` } });
    expect(res.status).toBe(201);
    await p.page.reload();
    await p.page.getByRole('table', { name: 'Recent results' }).getByText('success').waitFor();
    await screenshot(p.page, 'check-push');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('lists the checks, at 1280 px and at 390 px', async () => {
    const p = await openSignedIn(rig, { path: '/checks' });
    const table = p.page.getByRole('table', { name: 'Checks' });
    await table.getByRole('link', { name: 'Checkout health' }).waitFor();
    await table.getByRole('link', { name: 'Push check for checkout, every 5 min' }).waitFor();
    await table.getByRole('link', { name: 'Checkout API' }).first().waitFor();
    await choose(p.page, 'Type', 'push');
    await expectCount(table.getByRole('link', { name: 'Checkout health' }), 0);
    await choose(p.page, 'Type', { label: 'All types' });
    await table.getByRole('link', { name: 'Checkout health' }).waitFor();
    await screenshot(p.page, 'checks');
    expectNoConsoleErrors(p);
    await p.close();

    const m = await openSignedIn(rig, { path: '/checks', width: 390 });
    await m.page
      .getByRole('table', { name: 'Checks' })
      .getByRole('link', { name: 'Checkout API' })
      .first()
      .waitFor();
    await screenshot(m.page, 'checks-mobile');
    expectNoConsoleErrors(m);
    await m.close();
  });

  it('starts the results at the one a link names, however many came after it, and goes back to the newest', async () => {
    const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
    });
    expect(check.status).toBe(201);
    // 25 results a minute apart, recorded beside the runtime on its SQLite file (as the operator CLI
    // opens it) as slots, whose ids carry their slot's time as a probed browser check's do (a
    // pushed report's id is issued on arrival). The third oldest is 22 places from the top.
    const table = createSqliteTable({ db: openSqliteDatabase(join(rig.dataDir, 'vigil.db')) });
    const { tenants, recorder } = composeProbing({
      table,
      clock: systemClock,
      logger: silentLogger,
      config: { dueShards: loadConfig('local', {}).dueShards, allowPrivateTargets: true },
    });
    const tenantId = (await tenants.listTenants())[0]?.id ?? '';
    const ids: string[] = [];
    const start = Date.now() - 30 * 60_000;
    for (let i = 0; i < 25; i += 1) {
      const recorded = await recorder.record({
        tenantId,
        checkId: check.body.id,
        success: i !== 2,
        status_code: 0,
        latency_ms: 100 + i,
        error_message: i === 2 ? 'disk full' : '',
        checkedAtMs: start + i * 60_000,
        slotMs: start + i * 60_000,
      });
      if (recorded.status !== 'recorded') throw new Error(`not recorded: ${recorded.status}`);
      ids.push(recorded.result.id);
    }
    await table.close();
    const p = await openSignedIn(rig, { path: `/checks/${check.body.id}?result=${ids[2]}` });
    const results = p.page.getByRole('table', { name: 'Recent results' });
    await results.locator('tr[aria-current="true"]').getByText('disk full').waitFor();
    await p.page.getByText('From the result this link names; older results follow.').waitFor();
    // It heads the page: the two older reports follow it, none of the 22 newer ones is shown.
    await expectCount(results.locator('tbody tr'), 3);
    await p.page.getByRole('button', { name: 'Newest results' }).click();
    await results.getByText('124 ms').waitFor();
    await expectCount(results.locator('tr[aria-current="true"]'), 0);
    await expectCount(results.locator('tbody tr'), 20);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a failed delivery in the log and retries it', async () => {
    const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      failure_threshold: 1,
      interval_seconds: 3600,
    });
    expect(check.status).toBe(201);
    const channel = await rig.api('POST', `/v1/checks/${check.body.id}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: `https://127.0.0.1:${port(receiver)}/fail` },
    });
    expect(channel.status).toBe(201);
    const pushed = await rig.api('POST', `/v1/checks/${check.body.id}/results`, {
      success: false,
      latency_ms: 3,
      error_message: 'disk full',
    });
    expect(pushed.status).toBe(201);
    // Three attempts, 1 s and 2 s apart, then the delivery is failed.
    await expect
      .poll(
        async () =>
          (await rig.api<{ logs: { status: string }[] }>('GET', `/v1/notify/logs?check_id=${check.body.id}`))
            .body.logs[0]?.status,
        { timeout: 20_000, interval: 500 },
      )
      .toBe('failed');

    const p = await openSignedIn(rig, { path: '/notifications' });
    const log = p.page.getByRole('table', { name: 'Deliveries' });
    await log.getByText('sent', { exact: true }).first().waitFor();
    await choose(p.page, 'Outcome', 'failed');
    await log.getByRole('button', { name: 'Retry' }).waitFor();
    await expectCount(log.getByText('sent', { exact: true }), 0);
    await log.getByText('Attempt log (3)').click();
    await log
      .getByText(/HTTP 500/)
      .first()
      .waitFor();
    await log.getByRole('button', { name: 'Retry' }).click();
    // The entity also has the http check of the first test, probed at once and on its interval: by
    // that check's state the push check's failure is the entity's down (or degraded), or, when the
    // http check failed first (a probe timing out on a loaded machine), an also-failing alert.
    await p.page
      .getByText(/^Retried: (Down|Degraded|Also failing \(entity already down\)), webhook:/)
      .waitFor();
    await p.page
      .getByRole('table', { name: 'Channels' })
      .getByText(`https://127.0.0.1:${port(receiver)}/fail`)
      .waitFor();
    await choose(p.page, 'Outcome', { label: 'Any outcome' });
    await log.getByText('sent', { exact: true }).first().waitFor();
    await screenshot(p.page, 'notifications');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a recovery deferred by the cooldown in the log, with its due time', async () => {
    const entity = await rig.api<{ id: string }>('POST', '/v1/blueprints/svc/entities', {
      slug: 'ledger',
      name: 'Ledger',
    });
    expect(entity.status).toBe(201);
    const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
      entity_id: entity.body.id,
      check_type: 'push',
      failure_threshold: 1,
      interval_seconds: 3600,
    });
    expect(check.status).toBe(201);
    const logs = `/v1/notify/logs?check_id=${check.body.id}`;
    const policy = await rig.api('POST', `/v1/checks/${check.body.id}/policy`, { cooldown_seconds: 300 });
    expect(policy.status).toBe(201);
    const channel = await rig.api('POST', `/v1/checks/${check.body.id}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: `https://127.0.0.1:${port(receiver)}/ledger` },
    });
    expect(channel.status).toBe(201);
    const report = (success: boolean) =>
      rig.api('POST', `/v1/checks/${check.body.id}/results`, { success, latency_ms: 3 });
    expect((await report(false)).status).toBe(201);
    const latest = async () =>
      (await rig.api<{ logs: { status: string; reason: string | null }[] }>('GET', logs)).body.logs[0];
    await expect.poll(async () => (await latest())?.status, { timeout: 20_000, interval: 250 }).toBe('sent');
    expect((await report(true)).status).toBe(201);
    await expect
      .poll(async () => (await latest())?.status, { timeout: 20_000, interval: 250 })
      .toBe('deferred');
    const reason = String((await latest())?.reason);
    expect(reason).toMatch(/^deferred: cooldown, due \d{4}-\d{2}-\d{2}T/);

    const p = await openSignedIn(rig, { path: '/notifications' });
    await choose(p.page, 'Outcome', 'deferred');
    const log = p.page.getByRole('table', { name: 'Deliveries' });
    await log.getByText(reason, { exact: true }).waitFor();
    await expectCount(log.getByRole('row'), 2);
    await expectText(log.getByRole('row').nth(1), /Recovery.*deferred/);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('gives a read-only key no write controls and hides channel URLs', async () => {
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const checks = await rig.api<{ id: string; check_type: string }[]>('GET', '/v1/checks');
    const http = checks.body.find((c) => c.check_type === 'http');
    const p = await openSignedIn(rig, { key: created.body.key });
    const writeButtons =
      /^(New check|Create check|Edit|Disable|Enable|Delete check|Save policy|Add channel|Send test|Retry|Remove .* channel)$/;

    await p.page.goto('/checks');
    // Loaded: the table lists a check.
    await p.page
      .getByRole('table', { name: 'Checks' })
      .getByRole('link', { name: /^Push check for / })
      .first()
      .waitFor();
    await expectCount(p.page.getByRole('link', { name: 'New check' }), 0);
    await expectCount(p.page.getByRole('button', { name: writeButtons }), 0);

    await p.page.goto(`/checks/${http?.id}`);
    await p.page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await p.page.getByRole('list', { name: 'Channels' }).getByText('********').waitFor();
    await expectCount(p.page.getByRole('list', { name: 'Channels' }).getByText(/https:/), 0);
    await expectCount(p.page.getByRole('button', { name: writeButtons }), 0);
    await expectCount(p.page.locator('form'), 0);

    // The retried delivery is failed again after its three attempts.
    await expect
      .poll(
        async () => {
          await p.page.goto('/notifications?status=failed');
          await p.page.getByRole('table', { name: 'Channels' }).waitFor();
          return p.page
            .getByRole('table', { name: 'Deliveries' })
            .getByText('failed', { exact: true })
            .count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    await expectCount(p.page.getByRole('button', { name: writeButtons }), 0);
    await expectCount(p.page.getByRole('table', { name: 'Channels' }).getByText(/https:/), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('reads the checks 100 at a time and loads the rest with "Load more checks"', async () => {
    const before = await rig.api<{ id: string; check_type: string }[]>('GET', '/v1/checks');
    const total = 103;
    const missing = total - before.body.length;
    expect(missing).toBeGreaterThan(0);
    expect((await rig.api('POST', '/v1/blueprints', { slug: 'fleet', name: 'Fleet' })).status).toBe(201);
    // The plan allows 20 checks per entity: spread them over enough entities.
    for (let made = 0, n = 0; made < missing; n += 1) {
      const entity = await rig.api<{ id: string }>('POST', '/v1/blueprints/fleet/entities', {
        slug: `node-${n}`,
        name: `Node ${n}`,
      });
      expect(entity.status).toBe(201);
      for (let i = 0; i < 20 && made < missing; i += 1, made += 1) {
        const check = await rig.api('POST', '/v1/checks', { entity_id: entity.body.id, check_type: 'push' });
        expect(check.status).toBe(201);
      }
    }
    const p = await openSignedIn(rig, { path: '/checks' });
    const rows = p.page.getByRole('table', { name: 'Checks' }).locator('tbody tr');
    await p.page.getByText('100 checks shown; more follow.').waitFor();
    await expectCount(rows, 100);
    await expectCount(p.page.getByText('apply to the loaded checks'), 0);
    await p.page.getByRole('button', { name: 'Load more checks' }).click();
    await p.page.getByText(`${total} checks shown.`).waitFor();
    await expectCount(rows, total);
    await expectCount(p.page.getByRole('button', { name: 'Load more checks' }), 0);
    // The type filter asks the server: the http checks the earlier tests made, and no push check.
    const http = before.body.filter((c) => c.check_type === 'http').length;
    await choose(p.page, 'Type', 'http');
    await expectCount(rows, http);
    await p.page.getByText(`${http} check${http === 1 ? '' : 's'} shown.`).waitFor();
    expect(new URL(p.page.url()).searchParams.get('type')).toBe('http');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
