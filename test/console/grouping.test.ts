import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { expectNoConsoleErrors, expectText } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Grouping and the storm fold in the console, against a real runtime: a route made in the editor
 * with its grouping (shown in the routes table), the tenant's alerting setting changed on the
 * Settings page, and a small storm (fold limit 1: one alert alone, the other folded) whose
 * delivery log shows the `folded` row naming its digest and the digest's row.
 */

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-grouping-'));
const tls = createTlsFixtures();
const caFile = join(tmp, 'test-ca.pem');
writeFileSync(caFile, tls.caCert);
const receiver: HttpsServer = createHttpsServer(tls.valid, (req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});
const hookUrl = () => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/storm`;

describe('console grouping and the storm fold', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  const rig = useConsole({
    env: { NODE_EXTRA_CA_CERTS: caFile, VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    seed: async (rig) => {
      expect((await rig.api('POST', '/v1/blueprints', { slug: 'host', name: 'Host' })).status).toBe(201);
    },
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('makes a grouping route, changes the fold setting and shows folded and digest rows', async () => {
    const channel = await rig.api<{ id: string }>('POST', '/v1/notify/channels', {
      name: 'Storm hook',
      channel_type: 'webhook',
      config: { url: hookUrl() },
    });
    expect(channel.status).toBe(201);
    const p = await openSignedIn(rig);

    await p.page.goto('/channels');
    const form = p.page.getByRole('form', { name: 'New route' });
    await form.getByLabel('Send to Storm hook').check();
    await form.getByLabel(/^Group by/).selectOption('blueprint');
    await form.getByLabel(/^Group wait/).fill('10');
    await form.getByLabel(/^Group interval/).fill('60');
    await form.getByRole('button', { name: 'Create route' }).click();
    await p.page.getByText('The route was created.').waitFor();
    await p.page
      .getByRole('table', { name: 'Routes' })
      .getByRole('cell', { name: 'by blueprint, wait 10 s, then every 60 s', exact: true })
      .waitFor();
    const { body: listed } = await rig.api<{ routes: { id: string; group_by: string }[] }>(
      'GET',
      '/v1/notify/routes',
    );
    expect(listed.routes.map((r) => r.group_by)).toEqual(['blueprint']);
    // The storm below goes through a plain route: the fold alone.
    await rig.api('DELETE', `/v1/notify/routes/${listed.routes[0]?.id}`);
    await rig.api('POST', '/v1/notify/routes', { channel_ids: [channel.body.id] });

    await p.page.goto('/settings');
    const settings = p.page.getByRole('form', { name: 'Alerting settings' });
    await expect.poll(() => settings.getByLabel(/^Alerts per channel per minute/).inputValue()).toBe('10');
    await settings.getByLabel(/^Alerts per channel per minute/).fill('1');
    await settings.getByRole('button', { name: 'Save alerting settings' }).click();
    await p.page.getByText('Saved.').waitFor();
    expect((await rig.api('GET', '/v1/settings/alerting')).body).toEqual({ alert_fold_per_minute: 1 });

    // Two entities down at once: one alert alone, the other folded into a digest (sent 5 s later).
    for (const n of [1, 2]) {
      const entity = await rig.api<{ id: string }>('POST', '/v1/blueprints/host/entities', {
        slug: `web-${n}`,
        name: `Web node ${n}`,
      });
      const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
        entity_id: entity.body.id,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
      });
      await rig.api('POST', `/v1/checks/${check.body.id}/results`, { success: false, latency_ms: 5 });
    }
    // The alerts follow the results' answers through the queue: wait in the store for the folded
    // alert and the digest's record, then the page shows both on its first load.
    type Logs = { logs: { status: string; kind: string }[] };
    const logs = async () => (await rig.api<Logs>('GET', '/v1/notify/logs?limit=200')).body.logs;
    await expect
      .poll(async () => (await logs()).filter((d) => d.status === 'folded').length, { timeout: 60_000 })
      .toBe(1);
    await expect
      .poll(async () => (await logs()).filter((d) => d.kind === 'digest').length, { timeout: 60_000 })
      .toBe(1);
    await p.page.goto('/notifications');
    const log = p.page.getByRole('table').first();
    await log.getByText('folded', { exact: true }).waitFor();
    await log.getByText(/^in digest dig_/).waitFor();
    const digestCell = p.page.getByRole('cell', { name: 'Digest', exact: true });
    await digestCell.waitFor();
    expect(await digestCell.count()).toBe(1);
    // The digest's row is the digest (its count and group), not the alert it is stored under;
    // opened, it lists the alert folded into it.
    const digestRow = p.page.getByRole('row').filter({ has: digestCell });
    await expectText(digestRow, /Digest of 1 alert \(blueprint host\)/);
    const folded = (await logs()).find((d) => d.status === 'folded') as unknown as { entity_name: string };
    await digestRow.getByText('Its alerts', { exact: true }).click();
    await expectText(
      digestRow.getByRole('list', { name: 'Alerts in this digest' }),
      new RegExp(`^${folded.entity_name} \\(Push check for .*\\): Down$`),
    );
    expectNoConsoleErrors(p);
    await p.close();
  });
});
