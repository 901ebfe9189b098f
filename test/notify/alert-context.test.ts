import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { checkLabelOf } from '../../lib/notify/pipeline/alert-context.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';

describe('the check label in alert text', () => {
  let api: LocalHarness;
  beforeAll(async () => {
    api = await startLocalHarness({ scheduler: false });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('keeps credentials and secret-looking query values out of an http check label', async () => {
    const key = api.adminKey;
    await api.request('POST', '/v1/blueprints', { key, body: { slug: 'svc', name: 'Service' } });
    const entity = await api.request('POST', '/v1/blueprints/svc/entities', {
      key,
      body: { slug: 'api', name: 'API' },
    });
    const check = await api.request('POST', '/v1/checks', {
      key,
      body: {
        entity_id: entity.body.id,
        check_type: 'http',
        target_url: 'https://ops:hunter2@api.example.com/health?token=abc123&region=eu',
        interval_seconds: 60,
      },
    });
    expect(check.status).toBe(201);
    const definition = await getCheckDefinition(api.table, api.tenantId, check.body.id);
    const label = checkLabelOf(definition ?? 'removed');
    expect(label).toContain('api.example.com/health');
    expect(label).toContain('region=eu');
    expect(label).not.toContain('hunter2');
    expect(label).not.toContain('abc123');
  });
});
