import { describe, expect, it } from 'vitest';
import { keyFile, startAgent } from '../support/agent-process.ts';
import { resultKey, type VigilStandIn } from '../support/vigil-stand-in.ts';
import { WAIT } from '../support/wait.ts';
import { agentTestProcesses, httpJob, SLOT } from './agent-rig.ts';

const processes = agentTestProcesses();

const LONG_WAIT = { timeout: 30_000 } as const;

function httpJobs(prefix: string, count: number, url: string) {
  return Array.from({ length: count }, (_, i) => httpJob(`${prefix}-${i}`, url));
}

/** Every job stored exactly once, whatever was posted how often. */
function storedOnce(vigil: VigilStandIn, ids: string[]) {
  return ids.every((id) => vigil.state.storedTimes.get(resultKey({ job_id: id, slot: SLOT })) === 1);
}

const posted = (vigil: VigilStandIn, id: string) =>
  vigil.state.posts.flat().filter((e) => e.job_id === id).length;

const agentArgs = (vigil: VigilStandIn) => [
  '--url',
  vigil.url,
  '--key-file',
  keyFile(),
  '--max-backoff',
  '1',
  '--metrics-port',
  '0',
];

async function scrape(agent: ReturnType<typeof startAgent>): Promise<string> {
  await expect.poll(() => agent.log('metrics served'), WAIT).toBeTruthy();
  return (await fetch(String(agent.log('metrics served')?.metrics_url))).text();
}

describe('vigil agent when Vigil fails', () => {
  it('posts results again while Vigil answers 503, until each is stored once', async () => {
    const { vigil, target } = await processes.standInAndTarget();
    vigil.state.resultsMode = 'unavailable';
    const jobs = httpJobs('busy', 5, target.url('/ok'));
    vigil.enqueue(...jobs);

    const agent = startAgent(agentArgs(vigil));

    // Probed once each, and posted more than once while refused.
    await expect.poll(() => vigil.state.posts.length, LONG_WAIT).toBeGreaterThanOrEqual(3);
    expect(vigil.state.stored.size).toBe(0);
    vigil.state.resultsMode = 'ok';
    await expect.poll(() => vigil.state.stored.size, LONG_WAIT).toBe(5);
    expect(
      storedOnce(
        vigil,
        jobs.map((j) => j.job_id),
      ),
    ).toBe(true);
    expect(target.hits('/ok')).toBe(5);
    const text = await scrape(agent);
    expect(text).toMatch(/vigil_agent_errors_total\{operation="results",kind="server"\} [1-9]/);
    expect(text).toMatch(/vigil_agent_results_retried_total [1-9]/);
    expect(text).toContain('vigil_agent_results_unsent 0');
  });

  it('sends a result again when the answer was lost after Vigil stored it, and Vigil keeps one', async () => {
    const { vigil, target } = await processes.standInAndTarget();
    vigil.state.resultsMode = 'lose-answer';
    const [only] = httpJobs('lost', 1, target.url('/ok'));
    if (!only) throw new Error('no job');
    vigil.enqueue(only);

    const agent = startAgent(agentArgs(vigil));

    await expect.poll(() => vigil.state.stored.size, LONG_WAIT).toBe(1);
    vigil.state.resultsMode = 'ok';
    await expect
      .poll(async () => (await scrape(agent)).includes('status="duplicate"} 1'), LONG_WAIT)
      .toBe(true);
    expect(posted(vigil, 'lost-0')).toBeGreaterThanOrEqual(2);
    expect(storedOnce(vigil, ['lost-0'])).toBe(true);
    expect(target.hits('/ok')).toBe(1);
  });

  it('outlives Vigil going away: results probed meanwhile are delivered when it is back, and leasing resumes', async () => {
    const { vigil, target } = await processes.standInAndTarget(1500);
    const before = httpJobs('before', 3, target.url('/slow'));
    vigil.enqueue(...before);

    const agent = startAgent(agentArgs(vigil));

    // Gone while the probes run: their results have nowhere to go.
    await expect.poll(() => target.inFlight, LONG_WAIT).toBe(3);
    await vigil.stop();
    await expect.poll(() => target.hits('/slow') === 3 && target.inFlight === 0, LONG_WAIT).toBe(true);
    await expect
      .poll(() => agent.logs.filter((l) => l.msg === 'lease failed; asking again').length, LONG_WAIT)
      .toBeGreaterThanOrEqual(2);
    expect(vigil.state.stored.size).toBe(0);

    await vigil.start();
    const after = httpJobs('after', 2, target.url('/ok'));
    vigil.enqueue(...after);
    await expect.poll(() => vigil.state.stored.size, LONG_WAIT).toBe(5);
    expect(
      storedOnce(
        vigil,
        [...before, ...after].map((j) => j.job_id),
      ),
    ).toBe(true);
    expect(target.hits('/slow')).toBe(3);
    expect(target.hits('/ok')).toBe(2);
  });

  it('never probes a job twice when it is leased again, before or after its result was acknowledged', async () => {
    const { vigil, target } = await processes.standInAndTarget(1500);
    const [done] = httpJobs('done', 1, target.url('/ok'));
    const [running] = httpJobs('running', 1, target.url('/slow'));
    if (!done || !running) throw new Error('no job');
    vigil.enqueue(done);

    startAgent(agentArgs(vigil));

    await expect.poll(() => vigil.state.stored.size, LONG_WAIT).toBe(1);
    // Leased again after its result was acknowledged: answered with that result, not probed.
    vigil.enqueue(done);
    await expect.poll(() => posted(vigil, 'done-0'), LONG_WAIT).toBe(2);
    // Leased again while its probe runs: the probe already running answers for both.
    vigil.enqueue(running);
    await expect.poll(() => target.inFlight, LONG_WAIT).toBe(1);
    vigil.enqueue(running);
    await expect
      .poll(() => vigil.state.leased.filter((j) => j.job_id === 'running-0').length, LONG_WAIT)
      .toBe(2);
    await expect.poll(() => vigil.state.stored.size, LONG_WAIT).toBe(2);
    expect(target.hits('/ok')).toBe(1);
    expect(target.hits('/slow')).toBe(1);
    expect(posted(vigil, 'running-0')).toBe(1);
    expect(storedOnce(vigil, ['done-0', 'running-0'])).toBe(true);
  });
});
