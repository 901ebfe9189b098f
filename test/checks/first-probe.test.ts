import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, bothRuntimes, type LambdaHarness } from '../support/api-harness.ts';
import { startStatusServer } from '../support/status-server.ts';
import { newEntity } from './check-fixtures.ts';

/**
 * A new, enabled or re-targeted pull check is probed within seconds (an extra one-off job on the
 * probe queue), not at its first slot an interval later; its cell's slots stay where they were.
 */
describe.each(bothRuntimes)('the first probe of a check ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  let first: Awaited<ReturnType<typeof startStatusServer>>;
  let second: Awaited<ReturnType<typeof startStatusServer>>;
  let entityId: string;

  beforeAll(async () => {
    first = await startStatusServer(200);
    second = await startStatusServer(503);
    api = await start({ env: { VIGIL_FIRST_PROBE: 'true', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    entityId = await newEntity(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await first?.close();
    await second?.close();
  });

  const call = async (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, ...(body === undefined ? {} : { body }) });
  /** The check's results once there are `count`: the Lambda runtime's worker takes the queued job. */
  const resultsOnce = async (checkId: string, count: number) =>
    vi.waitFor(
      async () => {
        if (runtime === 'lambda') await (api as LambdaHarness).runProbeJobs();
        const results = (await call('GET', `/v1/checks/${checkId}/results`)).body.results;
        expect(results).toHaveLength(count);
        return results as { success: boolean; checked_at: string; status_code: number }[];
      },
      { timeout: 15_000, interval: 100 },
    );
  const hourly = (extra: Record<string, unknown>) => ({
    entity_id: entityId,
    check_type: 'http',
    interval_seconds: 3600,
    failure_threshold: 1,
    ...extra,
  });

  it('probes a check created with an hour interval within seconds, its next slot unmoved', async () => {
    const created = await call('POST', '/v1/checks', hourly({ target_url: first.url }));
    expect(created.status, created.text).toBe(201);

    const [result] = await resultsOnce(created.body.id, 1);
    // The state follows the result (the change feed applies it): waited for, bounded, as it is read.
    const shown = await vi.waitFor(
      async () => {
        const check = (await call('GET', `/v1/checks/${created.body.id}`)).body;
        expect(check.state).toBe('up');
        return check;
      },
      { timeout: 15_000, interval: 100 },
    );

    expect(result).toMatchObject({ success: true, status_code: 200 });
    expect(result).not.toHaveProperty('manual');
    expect(shown.next_run_at).toBe(created.body.next_run_at);
  });

  it('probes a check when it is enabled', async () => {
    const created = await call('POST', '/v1/checks', hourly({ target_url: first.url, enabled: false }));
    expect(created.status, created.text).toBe(201);

    const enabled = await call('PUT', `/v1/checks/${created.body.id}`, { enabled: true });

    expect(enabled.status, enabled.text).toBe(200);
    expect(await resultsOnce(created.body.id, 1)).toMatchObject([{ success: true }]);
  });

  it('probes a check again when its target changes, and not when it is renamed', async () => {
    const created = await call('POST', '/v1/checks', hourly({ target_url: first.url }));
    await resultsOnce(created.body.id, 1);
    const renamed = await call('PUT', `/v1/checks/${created.body.id}`, { name: 'Renamed' });
    expect(renamed.status, renamed.text).toBe(200);

    const retargeted = await call('PUT', `/v1/checks/${created.body.id}`, { target_url: second.url });

    expect(retargeted.status, retargeted.text).toBe(200);
    const [latest, earlier] = await resultsOnce(created.body.id, 2);
    expect(latest).toMatchObject({ success: false, status_code: 503 });
    expect(earlier).toMatchObject({ success: true, status_code: 200 });
    expect(second.hits()).toBe(1);
  });

  it('leaves a push check to its agent', async () => {
    const created = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
    });
    expect(created.status, created.text).toBe(201);

    if (runtime === 'lambda') {
      const sent = (api as LambdaHarness).probeSqs.sentBodies().map((b) => JSON.stringify(b));
      expect(sent.some((body) => body.includes(created.body.id))).toBe(false);
    }
    expect((await call('GET', `/v1/checks/${created.body.id}/results`)).body.results).toEqual([]);
  });
});
