import { afterEach, describe, expect, it } from 'vitest';
import { createProbeRegionLambda } from '../../functions/probe-region.ts';
import { createRegionHandler, type RegionRunAnswer } from '../../lib/agent/region-function.ts';
import { slotLocationResults } from '../../lib/checks/items/location-result-items.ts';
import { latestResults } from '../../lib/checks/items/result-items.ts';
import { createPowertoolsLogger, fromPowertools } from '../../lib/cloud/edge/lambda-edge.ts';
import { getLocationJob } from '../../lib/locations/location-job-items.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { locatedHttpCheck, putLocationJob } from '../locations/agent-routes-fixtures.ts';
import { startHttpTarget, TEST_LOCATION_KEY } from '../support/agent-process.ts';
import { startLocalHarness } from '../support/api-harness.ts';
import { lambdaContext } from '../support/lambda-context.ts';
import { resultKey, startVigilStandIn } from '../support/vigil-stand-in.ts';

/**
 * An AWS region's probe function (functions/probe-region.ts) as Lambda invokes it, against a
 * stand-in home API on 127.0.0.1 (test/support/vigil-stand-in.ts), with its run shortened from
 * 50 s to 2 s. The location key comes from a stand-in of Secrets Manager's GetSecretValue:
 * @aws-sdk/client-secrets-manager is not installed here, so aws-sdk-client-mock cannot stand in
 * for it; the reader is the handler's one seam to Secrets Manager (lib/agent/location-key-secret.ts).
 * The last case runs it against the local runtime's own agent routes (lib/locations).
 */

const SECRET_ID = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:VigilProbeLocationKey-abc';
const SLOT = Date.parse('2026-11-24T12:00:00.000Z');
const LEASE_FOR_MS = 2000;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A secret holding `value` (undefined: the empty secret the stack creates), with its reads counted. */
function secret(value: string | undefined) {
  const state = {
    value,
    reads: [] as string[],
    read: async (secretId: string): Promise<string | undefined> => {
      state.reads.push(secretId);
      if (state.value !== undefined) return state.value;
      const err = new Error(
        "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
      );
      err.name = 'ResourceNotFoundException';
      throw err;
    },
  };
  return state;
}

function regionLambda(
  vigil: { url: string },
  read: (id: string) => Promise<string | undefined>,
  /** How long before the invocation's 60 s run out the run is aborted (default: 1 s). */
  stopMarginMs = 1000,
) {
  const lines: Record<string, unknown>[] = [];
  const powertools = createPowertoolsLogger({
    level: 'info',
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const handler = createProbeRegionLambda({
    regionHandler: createRegionHandler({
      config: {
        agentUrl: vigil.url,
        locationKeySecret: SECRET_ID,
        allowPrivateTargets: true,
        region: 'eu-west-1',
      },
      readSecret: read,
      clock: systemClock,
      logger: fromPowertools(powertools),
      run: { leaseForMs: LEASE_FOR_MS, stopMarginMs },
    }),
    powertools,
  });
  const invoke = async () =>
    (await handler(
      { scheduled_time: new Date().toISOString() },
      lambdaContext('vigil-probe-region'),
    )) as RegionRunAnswer;
  return { invoke, lines };
}

describe('the AWS region probe function', () => {
  it('leases from the home API, probes a 127.0.0.1 target, posts the result and ends within its run', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    const target = await startHttpTarget();
    cleanups.push(vigil.stop, target.close);
    const key = secret(TEST_LOCATION_KEY);
    const { invoke } = regionLambda(vigil, key.read);
    const job = {
      job_id: 'chk_1:1',
      slot: SLOT,
      check: { check_type: 'http', target_url: target.url('/ok'), expected_status: 200, timeout_ms: 2000 },
    };
    vigil.enqueue(job);

    const answer = await invoke();

    expect(answer).toEqual({ leased: 1, answered: 1, unsent: 0, refused: false });
    expect(target.hits('/ok')).toBe(1);
    expect(vigil.state.stored.get(resultKey(job))?.result).toMatchObject({ success: true, status_code: 200 });
    expect(vigil.state.heartbeats.length).toBeGreaterThan(0);
    // No long-poll outlasts the run: each lease waits at most what was left of its 2 s.
    expect(vigil.state.leases.length).toBeGreaterThan(0);
    for (const lease of vigil.state.leases)
      expect(lease.wait_seconds).toBeLessThanOrEqual(LEASE_FOR_MS / 1000);

    // The next minute: the key is not read again, and a job redelivered after its result was
    // acknowledged is answered with that result, not probed twice.
    vigil.enqueue(job);
    const second = await invoke();

    expect(second).toEqual({ leased: 1, answered: 1, unsent: 0, refused: false });
    expect(target.hits('/ok')).toBe(1);
    expect(vigil.state.storedTimes.get(resultKey(job))).toBe(1);
    expect(key.reads).toEqual([SECRET_ID]);
  });

  it('short-polls the home while nothing is due: each lease waits 0 s there, a pause of its own between', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    cleanups.push(vigil.stop);
    const { invoke } = regionLambda(vigil, secret(TEST_LOCATION_KEY).read);

    const answer = await invoke();

    expect(answer).toEqual({ leased: 0, answered: 0, unsent: 0, refused: false });
    // A long-poll would have waited the run's 2 s in the home's api function, billed there.
    expect(vigil.state.leases.map((l) => l.wait_seconds)).toEqual(vigil.state.leases.map(() => 0));
    // One lease, then 1 s of pause (REGION_RUN.idlePollMs) leaves less than a lease's second: at most two.
    expect(vigil.state.leases.length).toBeGreaterThanOrEqual(1);
    expect(vigil.state.leases.length).toBeLessThanOrEqual(2);
  });

  it('drops what the home did not take by its hard stop, and probes that job again when it is leased again', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    const target = await startHttpTarget();
    cleanups.push(vigil.stop, target.close);
    // Aborted 4 s into the invocation (60 s left, less 56 s): the results loop is still retrying.
    const { invoke } = regionLambda(vigil, secret(TEST_LOCATION_KEY).read, 56_000);
    const job = {
      job_id: 'chk_2:1',
      slot: SLOT,
      check: { check_type: 'http', target_url: target.url('/ok'), expected_status: 200, timeout_ms: 2000 },
    };
    vigil.state.resultsMode = 'unavailable';
    vigil.enqueue(job);

    const lost = await invoke();

    expect(lost).toMatchObject({ leased: 1, answered: 0, unsent: 1 });
    expect(vigil.state.stored.size).toBe(0);

    // The home leases the job again once its lease ran out: probed again, since no result was taken.
    vigil.state.resultsMode = 'ok';
    vigil.enqueue(job);
    const next = await invoke();

    expect(next).toMatchObject({ leased: 1, answered: 1, unsent: 0 });
    expect(target.hits('/ok')).toBe(2);
    expect(vigil.state.storedTimes.get(resultKey(job))).toBe(1);
  });

  it('skips the minute while the secret is empty, and reads it again until the key is there', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    cleanups.push(vigil.stop);
    const key = secret(undefined);
    const { invoke, lines } = regionLambda(vigil, key.read);

    const answer = await invoke();

    expect(answer).toMatchObject({ skipped: expect.stringContaining('holds no location key yet') });
    expect(vigil.state.leases).toEqual([]);
    expect(vigil.state.heartbeats).toEqual([]);
    expect(lines.find((l) => l.level === 'ERROR')?.message).toBe(
      'no location key: nothing probed this minute',
    );

    key.value = TEST_LOCATION_KEY;
    const next = await invoke();

    expect(next).toMatchObject({ refused: false, unsent: 0 });
    expect(vigil.state.heartbeats.length).toBeGreaterThan(0);
    expect(key.reads).toEqual([SECRET_ID, SECRET_ID]);
  });

  it('stops at once when the home refuses the key, and reads the secret again the next minute', async () => {
    const vigil = await startVigilStandIn(TEST_LOCATION_KEY);
    cleanups.push(vigil.stop);
    const key = secret('vlk_Revoked0Key0Of0This0Region0000000000001');
    const { invoke } = regionLambda(vigil, key.read);

    const answer = await invoke();

    expect(answer).toMatchObject({ refused: true, leased: 0 });
    expect(vigil.state.unauthorized).toBeGreaterThan(0);

    key.value = TEST_LOCATION_KEY;
    const next = await invoke();

    expect(next).toMatchObject({ refused: false });
    expect(key.reads).toEqual([SECRET_ID, SECRET_ID]);
    expect(vigil.state.heartbeats.length).toBeGreaterThan(0);
  });
});

describe('the AWS region probe function against a real home (the local runtime’s agent routes)', () => {
  it('leases its location’s job, probes the target, and its result decides the slot', async () => {
    const api = await startLocalHarness({ scheduler: false });
    const target = await startHttpTarget();
    cleanups.push(() => api.close(), target.close);
    const created = await api.request('POST', '/v1/locations', {
      key: api.adminKey,
      body: { name: 'eu-west-1', kind: 'aws_region' },
    });
    expect(created.status, created.text).toBe(201);
    const checkId = await locatedHttpCheck(api, target.url('/ok'), ['eu-west-1'], { timeout_ms: 2000 });
    // The slot's job, as the check's probe job fans it out.
    const slotMs = Date.now() - 1000;
    await putLocationJob(api, { location: 'eu-west-1', checkId, slotMs, deadlineMs: slotMs + 60_000 });
    const key = secret(String(created.body.key));
    const { invoke } = regionLambda({ url: api.local.url }, key.read);

    const answer = await invoke();

    expect(answer).toMatchObject({ leased: 1, answered: 1, unsent: 0, refused: false });
    expect(target.hits('/ok')).toBe(1);
    const [stored] = await slotLocationResults(api.table, checkId, slotMs);
    expect(stored).toMatchObject({ location: 'eu-west-1', success: true, status_code: 200 });
    expect(await getLocationJob(api.table, api.tenantId, 'eu-west-1', checkId, slotMs)).toBeUndefined();
    // One location, quorum 1: its result decided the slot (the stored result names it).
    const [decided] = await latestResults(api.table, checkId, 1);
    expect(decided).toMatchObject({ success: true, checked_at: new Date(slotMs).toISOString() });
    expect(decided?.locations).toEqual([expect.objectContaining({ location: 'eu-west-1', outcome: 'up' })]);
    const locations = await api.request('GET', '/v1/locations', { key: api.adminKey });
    expect(locations.body.locations.find((l: { name: string }) => l.name === 'eu-west-1')).toMatchObject({
      state: 'online',
    });
  });
});
