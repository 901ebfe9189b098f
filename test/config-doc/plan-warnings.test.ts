import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planText } from '../../lib/config-doc/plan-text.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * `POST /v1/config/plan` warns of each `${NAME}` still unset in an object it would create, which
 * apply refuses (docs/config.md "Secrets"), naming where the document uses it; apply then fails
 * exactly those objects. Both runtimes.
 */

const check = (name: string, headers: Record<string, string>) => ({
  entity: 'service/api',
  name,
  check_type: 'http',
  target_url: 'https://example.com/',
  headers,
});
const document = {
  apiVersion: 'vigil/v1',
  kind: 'Config',
  blueprints: [{ slug: 'service', name: 'Service' }],
  entities: [{ blueprint: 'service', slug: 'api', name: 'API' }],
  checks: [
    check('home', { authorization: '${API_TOKEN}' }),
    check('status', { authorization: '${API_TOKEN}', 'x-key': '${STATUS_KEY}' }),
  ],
};

describe.each(runtimes)('plan warnings ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('warns once per unset variable with where it is used, and apply refuses those objects', async () => {
    const { key } = await api.createTenant('plan warnings');
    const plan = await api.request('POST', '/v1/config/plan', { key, body: document });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.warnings).toEqual([
      {
        variable: 'API_TOKEN',
        used_at: [
          'check service/api:home headers.authorization',
          'check service/api:status headers.authorization',
        ],
        message:
          '${API_TOKEN} is not set: apply will refuse to create check service/api:home headers.authorization, check service/api:status headers.authorization',
      },
      {
        variable: 'STATUS_KEY',
        used_at: ['check service/api:status headers.x-key'],
        message:
          '${STATUS_KEY} is not set: apply will refuse to create check service/api:status headers.x-key',
      },
    ]);
    expect(planText(plan.body)).toContain(
      'Warnings:\n  ! ${API_TOKEN} is not set: apply will refuse to create check service/api:home',
    );

    const applied = await api.request('POST', '/v1/config/apply', { key, body: document });
    const failed = applied.body.changes.filter((c: { status: string }) => c.status === 'failed');
    expect(failed.map((c: { id: string }) => c.id)).toEqual(['service/api:home', 'service/api:status']);
  });

  it('warns of nothing once the variables are resolved, or for an object that already exists', async () => {
    const { key } = await api.createTenant('plan no warnings');
    const resolved = JSON.parse(
      JSON.stringify(document).replace(/\$\{[A-Z_]+\}/g, 'Bearer token-0123456789'),
    );
    const plan = await api.request('POST', '/v1/config/plan', { key, body: resolved });
    expect(plan.body.warnings).toEqual([]);
    const applied = await api.request('POST', '/v1/config/apply', { key, body: resolved });
    expect(applied.body.applied, applied.text).toBe(true);
    // Applied: an update keeps the stored secret for a reference, so nothing is refused.
    const again = await api.request('POST', '/v1/config/plan', { key, body: document });
    expect(again.body.warnings).toEqual([]);
  });
});
