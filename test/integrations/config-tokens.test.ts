import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEnvReferences } from '../../lib/config-doc/secrets.ts';
import { alertmanagerWebhook } from '../support/alertmanager-webhook.ts';
import { type ApiHarness, adminCall, bothRuntimes } from '../support/api-harness.ts';

/**
 * Integrations as code (issue 77 point 5): a document's integration takes its ingest token from
 * `${ENV}`, so the URL its senders hold keeps working where the document is applied; the export
 * writes the token as a reference and never its value; a token held by another tenant's
 * integration is refused, and a token given on replace takes over from the old one.
 */

const TOKEN = 'ProdAlertmanagerToken0123456789a';
const NEXT_TOKEN = 'NextAlertmanagerToken0123456789b';

const documentWith = (token: string) => ({
  apiVersion: 'vigil/v1',
  kind: 'Config',
  blueprints: [{ slug: 'service', name: 'Service' }],
  entities: [{ blueprint: 'service', slug: 'orders-db', name: 'Orders DB' }],
  integrations: [
    {
      name: 'prometheus',
      kind: 'alertmanager',
      entity_rules: [{ match: {}, entity: 'service/{{labels.service}}' }],
      token,
    },
  ],
});

describe.each(bothRuntimes)('integrations as code ($runtime)', ({ start }) => {
  let api: ApiHarness;
  let other: { tenantId: string; key: string };

  const fire = (token: string) =>
    api.request('POST', `/in/${token}`, {
      body: alertmanagerWebhook([
        { fingerprint: 'db-down', service: 'orders-db', severity: 'critical', summary: 'Orders DB is down' },
      ]),
    });

  beforeAll(async () => {
    api = await start();
    other = await api.createTenant('another tenant');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('applies an integration whose token comes from the environment: its senders’ URL works', async () => {
    const { value, missing } = resolveEnvReferences(documentWith(`\${PROM_TOKEN}`), { PROM_TOKEN: TOKEN });
    expect(missing).toEqual([]);
    const applied = await adminCall(api, 'POST', '/v1/config/apply', value);
    expect(applied.summary).toMatchObject({ created: 3, failed: 0 });
    const res = await fire(TOKEN);
    expect(res.status, res.text).toBe(202);
    await api.drainChanges();
    expect((await adminCall(api, 'GET', '/v1/blueprints/service/entities/orders-db')).state).toBe('down');
  });

  it('exports the token as a reference, never its value, and plans nothing for its own export', async () => {
    const exported = await api.request('GET', '/v1/config/export', {
      key: api.adminKey,
      headers: { accept: 'application/json' },
    });
    expect(exported.text).not.toContain(TOKEN);
    expect(exported.body.integrations).toEqual([
      {
        name: 'prometheus',
        kind: 'alertmanager',
        enabled: true,
        entity_rules: [{ match: {}, entity: 'service/{{labels.service}}' }],
        severity_map: {},
        token: `\${VIGIL_INTEGRATIONS_PROMETHEUS_TOKEN}`,
      },
    ]);
    // The integration's own blueprint and entity are its own, not the document's.
    expect(exported.body.blueprints.map((b: { slug: string }) => b.slug)).toEqual(['service']);
    const plan = await adminCall(api, 'POST', '/v1/config/plan', exported.body);
    expect(plan.changes).toEqual([]);
  });

  it('refuses a token another tenant’s integration holds, and one not of the token’s form', async () => {
    const taken = await api.request('POST', '/v1/config/apply', {
      key: other.key,
      body: documentWith(TOKEN),
    });
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body.changes).toContainEqual(
      expect.objectContaining({
        kind: 'integrations',
        status: 'failed',
        error: expect.stringContaining('that token is in use by another integration'),
      }),
    );
    const direct = await api.request('POST', '/v1/integrations', {
      key: other.key,
      body: { name: 'copy', kind: 'alertmanager', token: TOKEN },
    });
    expect(direct.status).toBe(409);
    expect(direct.text).not.toContain(TOKEN);
    const short = await api.request('POST', '/v1/integrations', {
      key: other.key,
      body: { name: 'short', kind: 'alertmanager', token: 'abc' },
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('A token is 32 letters and digits');
    // Nothing of the refused requests stayed: the other tenant has no integration.
    const listed = await api.request('GET', '/v1/integrations', { key: other.key });
    expect(listed.body.integrations).toEqual([]);
  });

  it('moves to a token a replace gives: the old one stops working at once', async () => {
    const [made] = (await adminCall(api, 'GET', '/v1/integrations')).integrations;
    await adminCall(api, 'PUT', `/v1/integrations/${made.id}`, {
      name: 'prometheus',
      kind: 'alertmanager',
      entity_rules: made.entity_rules,
      token: NEXT_TOKEN,
    });
    expect((await fire(TOKEN)).status).toBe(404);
    expect((await fire(NEXT_TOKEN)).status).toBe(202);
    // A replace without a token keeps the current one.
    await adminCall(api, 'PUT', `/v1/integrations/${made.id}`, { name: 'prom', kind: 'alertmanager' });
    expect((await fire(NEXT_TOKEN)).status).toBe(202);
  });
});
