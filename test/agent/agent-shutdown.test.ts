import { describe, expect, it } from 'vitest';
import { keyFile, startAgent } from '../support/agent-process.ts';
import { agentTestProcesses, httpJob } from './agent-rig.ts';

const processes = agentTestProcesses();

const LONG_WAIT = { timeout: 30_000 } as const;
const slowJob = (id: string, url: string) => httpJob(id, url, 10_000);

describe('vigil agent on SIGTERM', () => {
  it('stops leasing, lets running probes finish, posts their results and exits 0', async () => {
    const { vigil, target } = await processes.standInAndTarget(2000);
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
    const { vigil, target } = await processes.standInAndTarget(500);
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
