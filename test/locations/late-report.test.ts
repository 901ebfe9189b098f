import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { locatedHttpCheck, newLocation, putLocationJob, wireResult } from './agent-routes-fixtures.ts';

/**
 * A location that reports after the quorum decided its slot (office 30 ms after lab, quorum 1 of
 * 2: lab's failure decides at once): the slot's breakdown, its message and the check's last slot
 * show what office reported instead of "no report", while the decision, the state and the
 * transitions stay.
 */

const START = Date.parse('2026-03-02T10:00:00.000Z');
const DEADLINE_AFTER_MS = 10 * 60_000;

describe.each(runtimes)('a location reporting after its slot was decided ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);
  const keys: Record<string, string> = {};
  let checkId = '';

  const post = (location: string, slotMs: number, success: boolean) =>
    api.request('POST', '/v1/agent/results', {
      key: keys[location] ?? '',
      body: [{ job_id: `${checkId}:${slotMs}`, slot: slotMs, result: wireResult(slotMs + 5, success) }],
    });
  const read = async (path: string) => {
    const res = await api.request('GET', path, { key: api.adminKey });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    api = await start({ clock });
    for (const name of ['lab', 'office']) keys[name] = (await newLocation(api, name)).key;
    checkId = await locatedHttpCheck(api, 'https://intranet.example/health', ['lab', 'office'], {
      quorum: 1,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('shows the late report in the slot’s breakdown and the last slot, and decides nothing again', async () => {
    const slotMs = START + 60_000;
    clock.set(slotMs);
    for (const location of ['lab', 'office']) {
      await putLocationJob(api, { location, checkId, slotMs, deadlineMs: slotMs + DEADLINE_AFTER_MS });
    }
    expect((await post('lab', slotMs, false)).body.results[0].status).toBe('recorded');
    await api.drainChanges();
    const slotResult = async () =>
      (await read(`/v1/checks/${checkId}/results`)).results.filter(
        (r: { checked_at: string }) => r.checked_at === new Date(slotMs).toISOString(),
      );
    const [decided] = await slotResult();
    expect(decided.locations).toEqual([
      expect.objectContaining({ location: 'lab', outcome: 'down', status_code: 503 }),
      expect.objectContaining({ location: 'office', outcome: 'unknown', status_code: null }),
    ]);
    const transitionsBefore = (await read(`/v1/checks/${checkId}/transitions`)).transitions;
    const stateBefore = (await read(`/v1/checks/${checkId}`)).state;

    clock.set(slotMs + 30);
    expect((await post('office', slotMs, true)).body.results[0].status).toBe('recorded');
    await api.drainChanges();

    const after = await slotResult();
    expect(after).toHaveLength(1);
    expect(decided.error_message).toMatch(/; office no report$/);
    // The message names what office reported, as it would have in time; the outcome stays.
    expect(after[0]).toMatchObject({
      id: decided.id,
      success: false,
      error_message: decided.error_message.replace('office no report', 'office ok'),
    });
    expect(after[0].locations).toEqual([
      expect.objectContaining({ location: 'lab', outcome: 'down', status_code: 503 }),
      { location: 'office', outcome: 'up', status_code: 200, latency_ms: 12, error_message: '' },
    ]);
    const check = await read(`/v1/checks/${checkId}`);
    expect(check.state).toBe(stateBefore);
    expect(check.last_locations).toEqual(after[0].locations);
    expect((await read(`/v1/checks/${checkId}/transitions`)).transitions).toEqual(transitionsBefore);
  });
});
