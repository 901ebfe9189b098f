import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { locatedHttpCheck, newLocation, wireResult } from '../locations/agent-routes-fixtures.ts';
import { type ApiHarness, bothRuntimes, type LambdaHarness } from '../support/api-harness.ts';

/**
 * A located check's first probe and manual run: a one-off slot fanned out to its locations (here
 * one agent's), whose report decides it within seconds instead of an interval later; the manual
 * run's location job carries the mark to its location's result, and so to the decided one.
 */
describe.each(bothRuntimes)('the first probe of a located check ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  let office: { key: string };
  let checkId: string;

  beforeAll(async () => {
    api = await start({ env: { VIGIL_FIRST_PROBE: 'true' } });
    office = await newLocation(api, 'office');
    checkId = await locatedHttpCheck(api, 'https://intranet.example/health', ['office'], {
      failure_threshold: 1,
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  /** The office agent's jobs once there is one: the Lambda runtime's worker takes the queued slot first. */
  const leaseOne = async () =>
    vi.waitFor(
      async () => {
        if (runtime === 'lambda') await (api as LambdaHarness).runProbeJobs();
        const leased = await api.request('POST', '/v1/agent/lease', {
          key: office.key,
          body: { max: 10, wait_seconds: 0 },
        });
        expect(leased.body.jobs).toHaveLength(1);
        return leased.body.jobs[0] as { job_id: string; slot: number };
      },
      { timeout: 15_000, interval: 100 },
    );
  const report = async (job: { job_id: string; slot: number }) => {
    const posted = await api.request('POST', '/v1/agent/results', {
      key: office.key,
      body: [{ job_id: job.job_id, slot: job.slot, result: wireResult(Date.now()) }],
    });
    expect(posted.body.results).toMatchObject([{ status: 'recorded' }]);
  };
  const results = async () =>
    (await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey })).body.results;

  it('dispatches a new check to its location at once, and records the decided slot', async () => {
    const job = await leaseOne();
    await report(job);

    expect(await results()).toMatchObject([{ success: true }]);
    const shown = await api.request('GET', `/v1/checks/${checkId}`, { key: api.adminKey });
    expect(shown.body.state).toBe('up');
  });

  it('answers a manual run with 202 and dispatches a new slot to the location', async () => {
    const run = await api.request('POST', `/v1/checks/${checkId}/run`, { key: api.adminKey });

    expect(run.status, run.text).toBe(202);
    expect(run.body).toEqual({
      status: 'dispatched',
      check_id: checkId,
      results: `/v1/checks/${checkId}/results`,
    });
    await report(await leaseOne());
    const [manual, first] = await results();
    expect(manual).toMatchObject({ success: true, manual: true });
    // The first probe was asked for by nobody: it is not marked.
    expect(first).not.toHaveProperty('manual');
  });
});
