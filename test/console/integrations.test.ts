import { describe, expect, it } from 'vitest';
import { alertmanagerWebhook } from '../support/alertmanager-webhook.ts';
import { audit, expectCount, expectNoConsoleErrors, expectText } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The Integrations page against a real local runtime (issue 77 point 5): an admin makes an
 * Alertmanager integration through the form and gets its ingest URL once, with the receiver to
 * paste into alertmanager.yml; a webhook posted to that URL lands on the entity the rule names,
 * which goes down; the integration's payload log on the page says what the request became, and
 * the entity's page lists the outside alert with its link back to Prometheus.
 */

describe('console integrations', { timeout: 90_000 }, () => {
  const rig = useConsole();

  it('makes an integration with its URL shown once, and shows what each request became', async () => {
    await rig.api('POST', '/v1/blueprints', { slug: 'service', name: 'Service', fields: [] });
    await rig.api('POST', '/v1/blueprints/service/entities', {
      slug: 'orders-db',
      name: 'Orders DB',
      fields: {},
    });
    const p = await openSignedIn(rig);
    await p.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Integrations' })
      .click();
    await p.page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
    await p.page.getByText('No integration yet.').waitFor();

    const form = p.page.getByRole('form', { name: 'Create an integration' });
    await form.getByLabel(/^Name/).fill('Prometheus');
    await form.getByLabel('Kind').selectOption('alertmanager');
    await form.getByLabel(/^Entity/).fill('service/{{labels.service}}');
    await form.getByRole('button', { name: 'Create integration' }).click();
    const url =
      (await p.page.getByRole('figure', { name: 'Ingest URL' }).locator('code').textContent()) ?? '';
    expect(url).toMatch(/\/in\/[0-9A-Za-z]{32}$/);
    const snippet = p.page.getByRole('figure', { name: 'Sender configuration' }).locator('code');
    expect(await snippet.textContent()).toContain(
      `webhook_configs:\n      - url: ${url}\n        send_resolved: true`,
    );
    await p.page.getByRole('button', { name: 'I have copied it' }).click();
    await expectCount(p.page.getByRole('figure', { name: 'Ingest URL' }), 0);
    const table = p.page.getByRole('table', { name: 'Integrations' });
    await expectCount(table.getByRole('row'), 2);
    await expectText(table.getByRole('row').nth(1).getByRole('cell').nth(1), 'alertmanager');

    // Alertmanager's webhook to the URL: the alert is on orders-db, which is down.
    const token = url.slice(url.lastIndexOf('/') + 1);
    const sent = await rig.api(
      'POST',
      `/in/${token}`,
      alertmanagerWebhook([
        {
          fingerprint: 'db-down',
          service: 'orders-db',
          severity: 'critical',
          summary: 'orders-db is down',
          generatorURL: 'http://prometheus.internal:9090/graph?g0.expr=pg_up',
        },
      ]),
    );
    expect(sent).toMatchObject({ status: 202, body: { accepted: 1 } });
    const entity = await rig.api<{ state: string }>('GET', '/v1/blueprints/service/entities/orders-db');
    expect(entity.body.state).toBe('down');

    await p.page.getByRole('button', { name: 'Payloads of Prometheus' }).click();
    const log = p.page.getByRole('list', { name: 'Payloads of Prometheus' });
    await expectCount(log.getByRole('listitem'), 1);
    expect(await log.getByRole('listitem').first().textContent()).toContain('accepted: 1 accepted');

    // The entity's page lists the alert: severity, summary, status, integration, its link back.
    await p.page.goto(`${rig.url}/entities/service/orders-db`);
    const outside = p.page.getByRole('table', { name: 'Outside alerts' });
    await expectCount(outside.getByRole('row'), 2);
    const row = outside.getByRole('row').nth(1);
    await expectText(row.getByRole('rowheader'), 'critical orders-db is down');
    await expectText(row.getByRole('cell').nth(0), 'triggered');
    await expectText(row.getByRole('cell').nth(1), 'Prometheus');
    expect(await row.getByRole('link', { name: 'Source' }).getAttribute('href')).toBe(
      'http://prometheus.internal:9090/graph?g0.expr=pg_up',
    );
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
  });
});
