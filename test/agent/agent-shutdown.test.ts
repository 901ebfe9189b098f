import { afterEach, describe, expect, it } from 'vitest';
import {
  keyFile,
  killAgents,
  startAgent,
  startHttpTarget,
  TEST_LOCATION_KEY,
} from '../support/agent-process.ts';
import { startVigilStandIn } from '../support/vigil-stand-in.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  killAgents();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const LONG_WAIT = { timeout: 30_000 } as const;
const SLOT = Date.parse('2026-11-24T12:00:00.000Z');
const slowJob = (id: string, url: string) => ({
  job_id: id,
  slot: SLOT,
  check: { check_type: 'http', target_url: `${url}?job=${id}`, timeout_ms: 10_000 },
});

describe('vigil agent on SIGTERM', () => {
  it('stops leasing, lets running probes finish, posts their results and exits 0', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    const target = await startHttpTarget(2000);
    cleanups.push(vigil.stop, target.close);
    vigil.enqueue(...['a', 'b', 'c'].map((id) => slowJob(id, target.url('/slow'))));
    const agent = startAgent(['--url', vigil.url, '--key-file', keyFile(), '--concurrency', '3']);
    await expect.poll(() => target.inFlight, LONG_WAIT).toBe(3);

    agent.child.kill('SIGTERM');
    await expect
      .poll(() => agent.log('stopping: running probes finish and their results are posted'), LONG_WAIT)
      .toBeTruthy();
    // Queued after the stop: never leased.
    vigil.enqueue(slowJob('late', target.url('/slow')));

    expect(await agent.exited).toBe(0);
    expect([...vigil.state.stored.values()].map((e) => e.job_id).sort()).toEqual(['a', 'b', 'c']);
    expect([...vigil.state.stored.values()].every((e) => e.result.success)).toBe(true);
    expect(vigil.state.leased.map((j) => j.job_id)).not.toContain('late');
    expect(agent.log('stopped: every result delivered')).toBeTruthy();
  });

  it('exits 1 after the stop grace when Vigil cannot take the results, saying how many', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    const target = await startHttpTarget(500);
    cleanups.push(vigil.stop, target.close);
    vigil.enqueue(slowJob('a', target.url('/slow')), slowJob('b', target.url('/slow')));
    const agent = startAgent([
      '--url',
      vigil.url,
      '--key-file',
      keyFile(),
      '--stop-grace',
      '2',
      '--max-backoff',
      '1',
    ]);
    await expect.poll(() => target.inFlight, LONG_WAIT).toBe(2);
    vigil.state.resultsMode = 'unavailable';
    await expect.poll(() => vigil.state.posts.length, LONG_WAIT).toBeGreaterThan(0);

    agent.child.kill('SIGTERM');

    expect(await agent.exited).toBe(1);
    expect(agent.log('stopped with results not delivered: Vigil leases their jobs again')).toMatchObject({
      unsent: 2,
    });
    expect(vigil.state.stored.size).toBe(0);
  });
});
