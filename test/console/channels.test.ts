import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SMTP_SERVER } from '../../lib/providers/email.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { expectCount, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/**
 * The Channels page against a real runtime: a shared webhook channel created once, attached from a
 * check's notifications by picking it, "Send test" about its check, a route made in the editor
 * (the channel attached AND routed still gets one alert), the route and the channel deleted (the
 * check loses it), and a read-only key that sees redacted URLs and no write control.
 */

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-channels-'));
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
const hookUrl = () => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/shared`;
const atShared = () => received.filter((r) => r.path === '/shared');

describe('console shared channels and routes', { timeout: 90_000 }, () => {
  let checkId: string;
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  const rig = useConsole({
    env: { NODE_EXTRA_CA_CERTS: caFile },
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'svc', name: 'Services' },
        { slug: 'payments', name: 'Payments' },
      );
      checkId = await seedCheck(rig, {
        entity_id: entityId,
        check_type: 'push',
        name: 'Payments heartbeat',
        interval_seconds: 60,
        failure_threshold: 1,
      });
      await rig.api('POST', `/v1/checks/${checkId}/policy`, {
        cooldown_seconds: 0,
        notify_on_recovery: false,
      });
      await rig.api('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 5 });
    },
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('creates a shared channel, attaches it to a check, tests it, routes to it and deletes it', async () => {
    const p = await openSignedIn(rig);
    await p.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Channels' }).click();
    await p.page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
    await p.page.getByText('No shared channels yet.').waitFor();

    const form = p.page.getByRole('form', { name: 'New shared channel' });
    await form.getByLabel(/^Channel type/).selectOption('webhook');
    await form.getByLabel(/^URL/).fill(hookUrl());
    await form.getByLabel('Signing secret').fill('s3cret');
    // No name first: the API's VALIDATION_ERROR shows at the field.
    await form.getByRole('button', { name: 'Create channel' }).click();
    await expect.poll(() => form.getByLabel(/^Name/).getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel(/^Name/).fill('On-call');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await p.page.getByText('The shared channel On-call was created.').waitFor();
    const table = p.page.getByRole('table', { name: 'Shared channels' });
    await table.getByRole('cell', { name: 'On-call', exact: true }).waitFor();
    await table.getByText('(signed)').waitFor();

    // Attach anywhere: from the check's notifications, by picking it.
    await p.page.goto(`/checks/${checkId}`);
    const attach = p.page.getByRole('form', { name: 'Attach a shared channel' });
    await attach.getByLabel(/^Shared channel/).selectOption({ label: 'On-call (webhook)' });
    await attach.getByRole('button', { name: 'Attach channel' }).click();
    await p.page.getByText('On-call was attached.').waitFor();
    await p.page.getByRole('list', { name: 'Channels' }).getByText('On-call (shared)').waitFor();
    await p.page.getByRole('button', { name: 'Detach On-call' }).waitFor();

    // Send test (about the first check it is attached to).
    await p.page.goto('/channels');
    await p.page.getByRole('button', { name: 'Send test to On-call' }).click();
    await p.page.getByText('Test result: Test, webhook: sent (HTTP 204) after 1 attempt.').waitFor();
    expect(atShared()).toHaveLength(1);
    expect(JSON.parse(atShared()[0]?.body ?? '{}')).toMatchObject({ check_id: checkId });

    // A route: alerts of the Services blueprint changing to down also go to On-call.
    const route = p.page.getByRole('form', { name: 'New route' });
    await route.getByLabel('Blueprint Services').check();
    await route.getByLabel('To down').check();
    await route.getByRole('button', { name: 'Create route' }).click();
    await expect
      .poll(() =>
        route
          .getByRole('group', { name: 'Also send to' })
          .getByText('must name at least one channel')
          .count(),
      )
      .toBe(1);
    await route.getByLabel('Send to On-call').check();
    await route.getByRole('button', { name: 'Create route' }).click();
    await p.page.getByText('The route was created.').waitFor();
    const routes = p.page.getByRole('table', { name: 'Routes' });
    await routes.getByRole('cell', { name: 'blueprints svc; to down', exact: true }).waitFor();
    await screenshot(p.page, 'channels');

    // Attached and routed: the down alert reaches On-call once.
    await rig.api('POST', `/v1/checks/${checkId}/results`, {
      success: false,
      latency_ms: 5,
      error_message: 'boom',
    });
    await expect
      .poll(
        async () =>
          (
            await rig.api<{ logs: { event: string; status: string }[] }>(
              'GET',
              `/v1/notify/logs?check_id=${checkId}`,
            )
          ).body.logs.filter((l) => l.event === 'down' && l.status === 'sent').length,
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(atShared()).toHaveLength(2);

    await p.page.getByRole('button', { name: 'Delete route for blueprints svc; to down' }).click();
    await p.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await p.page.getByText('No routes yet.').waitFor();
    await p.page.getByRole('button', { name: 'Delete On-call' }).click();
    await p.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await p.page.getByText('No shared channels yet.').waitFor();
    await p.page.goto(`/checks/${checkId}`);
    await p.page
      .getByText('No channels and no route: state changes of this check are logged but nobody is told.')
      .waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a read-only key the shared channels and routes, redacted, without a write control', async () => {
    const made = await rig.api<{ id: string }>('POST', '/v1/notify/channels', {
      name: 'Pager',
      channel_type: 'webhook',
      config: { url: hookUrl(), secret: 'whsec-x' },
    });
    expect(made.status).toBe(201);
    await rig.api('POST', '/v1/notify/routes', { channel_ids: [made.body.id] });
    const viewer = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    const p = await openSignedIn(rig, { path: '/channels', key: viewer.body.key });
    await p.page.getByRole('table', { name: 'Shared channels' }).getByText('********').first().waitFor();
    await p.page
      .getByRole('table', { name: 'Routes' })
      .getByRole('cell', { name: 'every alert', exact: true })
      .waitFor();
    await expectCount(p.page.getByText(/https:/), 0);
    await expectCount(p.page.locator('form'), 0);
    await expectCount(p.page.getByRole('button', { name: /^(Send test|Edit|Delete|Create|Add entity)/ }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('warns when an email channel is saved on a runtime without SMTP, in the words its deliveries would fail with', async () => {
    const p = await openSignedIn(rig, { path: '/channels' });
    const form = p.page.getByRole('form', { name: 'New shared channel' });
    await form.getByLabel(/^Name/).fill('Ops mail');
    await form.getByLabel(/^Channel type/).selectOption('email');
    await form.getByLabel(/^Recipients/).fill('ops@example.com');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await p.page.getByText('The shared channel Ops mail was created.').waitFor();
    const warning = form.getByRole('alert');
    await expectText(warning, /alerts will fail until the operator sets this up/);
    await expectText(warning.getByRole('listitem'), NO_SMTP_SERVER);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
