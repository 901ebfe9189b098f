import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FauxqsEngine, startFauxqsEngine } from '../support/fauxqs.ts';
import { type CloudHarness, createEntity, runGeneratorMinuteOnQueue, startCloudHarness } from './support.ts';

/**
 * The push side of the cloud runtime through its Lambda handlers: pushes and heartbeats through the
 * api handler, and the dead man's switch through the generator (Scheduler payload) -> the probe
 * queue (fauxqs) -> the event-source poller -> worker handler, on a fake clock.
 */
describe("a push check's dead man's switch in the cloud runtime", () => {
  let engine: FauxqsEngine;
  let h: CloudHarness;
  let checkId: string;

  const runMinute = () => runGeneratorMinuteOnQueue(h);

  const check = async () => (await h.api('GET', `/v1/checks/${checkId}`)).body;

  beforeAll(async () => {
    engine = await startFauxqsEngine();
    h = await startCloudHarness({ engine });
    const entityId = await createEntity(h, 'nightly-backup');
    const created = await h.api('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 60,
      failure_threshold: 1,
    });
    expect(created.status).toBe(201);
    checkId = created.body.id;
  });
  afterAll(async () => {
    await h?.close();
    await engine?.stop();
  });

  it('enqueues nothing for a push check that never reported', async () => {
    h.clock.advance(10 * 60_000);
    expect(await runMinute()).toEqual([]);
    expect((await check()).state).toBe('unknown');
  });

  it('goes down after grace + one interval of silence and up on the next heartbeat', async () => {
    const beat = await h.api('POST', `/v1/checks/${checkId}/heartbeat`);
    expect(beat.status).toBe(201);
    expect((await check()).state).toBe('up');
    const lastBeat = h.clock.now();

    // The grace window is 2 x 60 s; the generator runs every minute.
    for (let minute = 0; minute < 4 && (await check()).state === 'up'; minute += 1) {
      h.clock.set(Math.floor(h.clock.now() / 60_000) * 60_000 + 60_000);
      await runMinute();
    }
    const down = await check();
    expect(down.state).toBe('down');
    expect(h.clock.now() - lastBeat).toBeLessThanOrEqual(120_000 + 60_000 + 60_000);
    const [synthetic] = (await h.api('GET', `/v1/checks/${checkId}/results`)).body.results;
    expect(synthetic).toMatchObject({ success: false, synthetic: true });
    expect(Date.parse(synthetic.checked_at) - lastBeat).toBe(120_000);

    expect((await h.api('POST', `/v1/checks/${checkId}/heartbeat`)).status).toBe(201);
    expect((await check()).state).toBe('up');
  });

  it('accepts pushed results through the api handler and refuses them for a pull check', async () => {
    const pushed = await h.api('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 12 });
    expect(pushed.status).toBe(201);
    const entityId = (await check()).entity_id;
    const pull = await h.api('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'http',
      target_url: 'https://example.com/health',
      enabled: false,
    });
    const refused = await h.api('POST', `/v1/checks/${pull.body.id}/results`, {
      success: true,
      latency_ms: 1,
    });
    expect(refused.status).toBe(409);
  });
});
