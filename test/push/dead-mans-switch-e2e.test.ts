import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startLocalHarness } from '../support/api-harness.ts';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The dead man's switch end to end: the local runtime's own scheduler, real time, short intervals. */
describe("the dead man's switch in a running local runtime", () => {
  let api: ApiHarness;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });

  beforeAll(async () => {
    api = await startLocalHarness();
  });
  afterAll(async () => {
    await api.close();
  });

  it('marks a silent agent down after its grace window and recovers on the next heartbeat', async () => {
    await call('POST', '/v1/blueprints', { slug: 'agent', name: 'Agent' });
    const entity = (await call('POST', '/v1/blueprints/agent/entities', { slug: 'edge-1', name: 'Edge 1' }))
      .body;
    const created = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 1,
      failure_threshold: 1,
      config: { grace_seconds: 2 },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const beat = await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect(beat.status).toBe(201);

    // The agent goes silent; poll (bounded) until the scheduler records the synthetic failure.
    let state = 'up';
    for (let i = 0; i < 80 && state !== 'down'; i += 1) {
      await delay(100);
      state = (await call('GET', `/v1/checks/${id}`)).body.state;
    }
    expect(state).toBe('down');
    const results = (await call('GET', `/v1/checks/${id}/results`)).body.results;
    const synthetic = results.find((r: { synthetic?: boolean }) => r.synthetic);
    expect(synthetic).toMatchObject({ success: false });
    // The deadline is exactly the grace window after the last heartbeat.
    expect(Date.parse(synthetic.checked_at) - Date.parse(beat.body.checked_at)).toBe(2000);
    const status = (await call('GET', '/v1/status')).body;
    expect(status.entities.find((e: { id: string }) => e.id === entity.id).state).toBe('down');

    await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect((await call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
  }, 30_000);
});
