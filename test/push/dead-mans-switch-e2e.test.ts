import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startLocalHarness } from '../support/api-harness.ts';

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
    await expect
      .poll(async () => (await call('GET', `/v1/checks/${id}`)).body.state, {
        timeout: 15_000,
        interval: 100,
      })
      .toBe('down');
    // While the agent stays silent a synthetic failure follows every interval (1 s): the oldest
    // (the list is newest first) is the one at the deadline.
    const results = (await call('GET', `/v1/checks/${id}/results`)).body.results;
    const synthetic = results.filter((r: { synthetic?: boolean }) => r.synthetic).at(-1);
    expect(synthetic).toMatchObject({ success: false });
    // The deadline is exactly the grace window after the last heartbeat.
    expect(Date.parse(synthetic.checked_at) - Date.parse(beat.body.checked_at)).toBe(2000);
    const status = (await call('GET', '/v1/status')).body;
    expect(status.entities.find((e: { id: string }) => e.id === entity.id).state).toBe('down');

    // The heartbeat moves the check up. Read from its transitions, not its state: 2 s (the grace
    // window) after the heartbeat the switch fires again, and a busy machine may read later than that.
    const recovery = await api.request('POST', `/v1/checks/${id}/heartbeat`, { key: api.adminKey });
    expect(recovery.status).toBe(201);
    const { transitions } = (await call('GET', `/v1/checks/${id}/transitions`)).body;
    const changes = transitions.map(
      (t: { from_state: string; to_state: string }) => `${t.from_state}>${t.to_state}`,
    );
    expect(changes.reverse().slice(0, 3)).toEqual(['unknown>up', 'up>down', 'down>up']);
  }, 30_000);
});
