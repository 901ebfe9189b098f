import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { withoutStarterSkill } from '../support/toolsets.ts';

/**
 * A heartbeat's run rules in the configuration document (issue 78 point 1, lib/config-doc), on
 * both runtimes: min_duration_seconds, max_duration_seconds, overlap, keepalive_seconds,
 * early_seconds (with a schedule) and learn are exported, applied to another account as they
 * were, and a change to each in the document is applied and read back.
 */
describe.each(bothRuntimes)('run rules as code ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const post = (path: string, key: string, body: unknown) => api.request('POST', path, { key, body });
  const exported = async (key: string) => {
    const res = await api.request('GET', '/v1/config/export', {
      key,
      headers: { accept: 'application/json' },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as Record<string, unknown> & { checks: Record<string, unknown>[] };
  };
  const account = async (name: string) => {
    const { key } = await api.createTenant(name);
    await withoutStarterSkill(api, key);
    return key;
  };
  const pushConfigs = async (key: string) => {
    const res = await api.request('GET', '/v1/checks?type=push', { key });
    expect(res.status, res.text).toBe(200);
    return Object.fromEntries(
      (res.body as { name: string; config: Record<string, unknown> }[]).map((c) => [c.name, c.config]),
    );
  };
  const RULES = {
    min_duration_seconds: 600,
    max_duration_seconds: 7_200,
    overlap: 'alert',
    keepalive_seconds: 300,
    learn: false,
  };
  const SCHEDULED = {
    schedule: { cron: '0 2 * * *', timezone: 'Europe/Berlin' },
    grace_seconds: 1_800,
    early_seconds: 900,
    min_duration_seconds: 60,
  };

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('exports each run rule and applies it to another account as it was', async () => {
    const source = await account('runs source');
    expect((await post('/v1/blueprints', source, { slug: 'cron', name: 'Cron job' })).status).toBe(201);
    const entity = await post('/v1/blueprints/cron/entities', source, { slug: 'nightly', name: 'Nightly' });
    for (const [name, config, interval] of [
      ['Hourly sync', RULES, { interval_seconds: 3_600 }],
      ['Nightly backup', SCHEDULED, {}],
    ] as const) {
      const created = await post('/v1/checks', source, {
        entity_id: entity.body.id,
        check_type: 'push',
        name,
        ...interval,
        config,
      });
      expect(created.status, created.text).toBe(201);
    }
    const document = await exported(source);
    const docConfigs = Object.fromEntries(document.checks.map((c) => [c.name, c.config]));
    expect(docConfigs['Hourly sync']).toEqual(RULES);
    expect(docConfigs['Nightly backup']).toEqual(SCHEDULED);

    const target = await account('runs target');
    const applied = await post('/v1/config/apply', target, document);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.summary).toMatchObject({ failed: 0 });
    expect(await pushConfigs(target)).toEqual({ 'Hourly sync': RULES, 'Nightly backup': SCHEDULED });
    expect((await exported(target)).checks).toEqual(document.checks);

    // Each rule changed in the document is applied and read back; one left out is gone.
    const changed = structuredClone(document);
    const sync = changed.checks.find((c) => c.name === 'Hourly sync') as { config: Record<string, unknown> };
    sync.config = {
      min_duration_seconds: 900,
      max_duration_seconds: 3_600,
      overlap: 'allow',
      keepalive_seconds: 120,
    };
    const backup = changed.checks.find((c) => c.name === 'Nightly backup') as {
      config: Record<string, unknown>;
    };
    backup.config = { ...SCHEDULED, early_seconds: 300, learn: true };
    const again = await post('/v1/config/apply', target, changed);
    expect(again.status, again.text).toBe(200);
    expect(again.body.summary).toMatchObject({ updated: 2, failed: 0 });
    expect(await pushConfigs(target)).toEqual({
      'Hourly sync': {
        min_duration_seconds: 900,
        max_duration_seconds: 3_600,
        overlap: 'allow',
        keepalive_seconds: 120,
      },
      'Nightly backup': { ...SCHEDULED, early_seconds: 300, learn: true },
    });
  });

  it('refuses early_seconds without a schedule in a document, in words', async () => {
    const key = await account('runs refused');
    const document = {
      apiVersion: 'vigil/v1',
      kind: 'Config',
      blueprints: [{ slug: 'cron', name: 'Cron job' }],
      entities: [{ blueprint: 'cron', slug: 'nightly', name: 'Nightly' }],
      checks: [
        {
          entity: 'cron/nightly',
          name: 'Hourly sync',
          check_type: 'push',
          interval_seconds: 3_600,
          config: { early_seconds: 600 },
        },
      ],
    };
    const res = await post('/v1/config/apply', key, document);
    expect(res.text).toContain('early_seconds needs a schedule');
  });
});
