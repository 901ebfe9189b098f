import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotLocationResults } from '../../lib/checks/items/location-result-items.ts';
import { getLocationJob } from '../../lib/locations/location-job-items.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes, startLocalHarness } from '../support/api-harness.ts';
import { locatedHttpCheck, newLocation, putLocationJob, wireResult } from './agent-routes-fixtures.ts';

const START = Date.parse('2026-03-02T10:00:00.000Z');
const TIMEOUT_MS = 5000;
/** A job's lease: its check's timeout and 15 s (lib/locations/lease-service.ts). */
const LEASE_MS = TIMEOUT_MS + 15_000;
const DEADLINE_AFTER_MS = 10 * 60_000;

describe.each(bothRuntimes)('the agent protocol’s lease and results ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);
  let office: { id: string; key: string; keyId: string };
  let lab: { id: string; key: string; keyId: string };
  let checkId: string;
  let slot = START;

  const lease = (key: string, body: unknown = { max: 10, wait_seconds: 0 }) =>
    api.request('POST', '/v1/agent/lease', { key, body });
  const post = (key: string, body: unknown) => api.request('POST', '/v1/agent/results', { key, body });
  /** A new slot of the check, its office job put (each test its own slot). */
  const officeJob = async () => {
    slot += 60_000;
    clock.set(slot);
    await putLocationJob(api, {
      location: 'office',
      checkId,
      slotMs: slot,
      deadlineMs: slot + DEADLINE_AFTER_MS,
    });
    return slot;
  };

  beforeAll(async () => {
    api = await start({ clock });
    office = await newLocation(api, 'office');
    lab = await newLocation(api, 'lab');
    checkId = await locatedHttpCheck(api, 'https://intranet.example/health', ['office'], {
      timeout_ms: TIMEOUT_MS,
      headers: { authorization: 'Bearer s3cret' },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers no jobs when there are none, after the wait asked for', async () => {
    const now = await lease(office.key, { max: 5, wait_seconds: 0 });
    const waited = await lease(lab.key, { max: 5, wait_seconds: 1 });

    expect(now.status, now.text).toBe(200);
    expect(now.body).toEqual({ jobs: [] });
    expect(waited.status, waited.text).toBe(200);
    expect(waited.body).toEqual({ jobs: [] });
  });

  it('leases a job once, with its check’s probe config, until its lease runs out', async () => {
    const slotMs = await officeJob();

    const first = await lease(office.key);
    const second = await lease(office.key);
    clock.advance(LEASE_MS);
    const again = await lease(office.key);

    expect(first.status, first.text).toBe(200);
    expect(first.body.jobs).toEqual([
      {
        job_id: `${checkId}:${slotMs}`,
        slot: slotMs,
        check: expect.objectContaining({
          check_type: 'http',
          target_url: 'https://intranet.example/health',
          headers: { authorization: 'Bearer s3cret' },
          timeout_ms: TIMEOUT_MS,
        }),
      },
    ]);
    expect(second.body).toEqual({ jobs: [] });
    expect(again.body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([`${checkId}:${slotMs}`]);
    const done = await post(office.key, [
      { job_id: `${checkId}:${slotMs}`, slot: slotMs, result: wireResult(clock.now()) },
    ]);
    expect(done.body.results.map((r: { status: string }) => r.status)).toEqual(['recorded']);
  });

  it('never hands one location’s job to another location’s key', async () => {
    const slotMs = await officeJob();

    const other = await lease(lab.key, { max: 10, wait_seconds: 1 });
    const own = await lease(office.key);

    expect(other.body).toEqual({ jobs: [] });
    expect(own.body.jobs.map((j: { slot: number }) => j.slot)).toEqual([slotMs]);
    await post(office.key, [{ job_id: `${checkId}:${slotMs}`, slot: slotMs, result: wireResult(slotMs) }]);
  });

  it('records a result: the location’s result is stored, its job is gone; the same result again is a duplicate', async () => {
    const slotMs = await officeJob();
    const jobId = `${checkId}:${slotMs}`;
    await lease(office.key);
    const entry = { job_id: jobId, slot: slotMs, result: wireResult(slotMs + 5) };

    const recorded = await post(office.key, [entry]);
    const duplicate = await post(office.key, [entry]);

    expect(recorded.status, recorded.text).toBe(200);
    expect(recorded.body).toEqual({ results: [{ job_id: jobId, slot: slotMs, status: 'recorded' }] });
    expect(duplicate.body).toEqual({ results: [{ job_id: jobId, slot: slotMs, status: 'duplicate' }] });
    const stored = await slotLocationResults(api.table, checkId, slotMs);
    expect(stored).toEqual([
      expect.objectContaining({ location: 'office', success: true, status_code: 200, latency_ms: 12 }),
    ]);
    expect(await getLocationJob(api.table, api.tenantId, 'office', checkId, slotMs)).toBeUndefined();
    // One location, quorum 1: the slot is decided by office's report.
    const results = await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey });
    expect(results.status, results.text).toBe(200);
    const slotResult = results.body.results.find(
      (r: { checked_at: string }) => r.checked_at === new Date(slotMs).toISOString(),
    );
    expect(slotResult).toMatchObject({
      success: true,
      locations: [{ location: 'office', outcome: 'up', status_code: 200, latency_ms: 12, error_message: '' }],
    });
  });

  it('takes a job put again after its result (a lost delete, a racing fan-out) once more: duplicate, and gone', async () => {
    const slotMs = await officeJob();
    const jobId = `${checkId}:${slotMs}`;
    await lease(office.key);
    const recorded = await post(office.key, [{ job_id: jobId, slot: slotMs, result: wireResult(slotMs) }]);
    expect(recorded.body.results.map((r: { status: string }) => r.status)).toEqual(['recorded']);
    // The job is there again, as if its delete (no longer in the result's transaction) were lost.
    await putLocationJob(api, {
      location: 'office',
      checkId,
      slotMs,
      deadlineMs: slotMs + DEADLINE_AFTER_MS,
    });

    const again = await lease(office.key);
    const second = await post(office.key, [
      { job_id: jobId, slot: slotMs, result: wireResult(slotMs, false) },
    ]);

    expect(again.body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([jobId]);
    expect(second.body.results).toEqual([{ job_id: jobId, slot: slotMs, status: 'duplicate' }]);
    expect(await getLocationJob(api.table, api.tenantId, 'office', checkId, slotMs)).toBeUndefined();
    // The first result stays the location's only one for the slot.
    expect(await slotLocationResults(api.table, checkId, slotMs)).toEqual([
      expect.objectContaining({ location: 'office', success: true }),
    ]);
    expect(await lease(office.key)).toMatchObject({ body: { jobs: [] } });
  });

  it('answers expired for a job it does not know, one of another location, and one past its deadline', async () => {
    const slotMs = await officeJob();
    const late = await officeJob();
    clock.advance(DEADLINE_AFTER_MS);
    const entries = [
      { job_id: `${checkId}:${slotMs + 1}`, slot: slotMs + 1, result: wireResult(slotMs) },
      { job_id: 'probe:not-a-job', slot: slotMs, result: wireResult(slotMs) },
      { job_id: `${checkId}:${late}`, slot: late, result: wireResult(late) },
    ];

    const fromLab = await post(lab.key, [
      { job_id: `${checkId}:${slotMs}`, slot: slotMs, result: wireResult(slotMs) },
    ]);
    const answer = await post(office.key, entries);

    expect(fromLab.body.results.map((r: { status: string }) => r.status)).toEqual(['expired']);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.results.map((r: { status: string }) => r.status)).toEqual([
      'expired',
      'expired',
      'expired',
    ]);
    expect(await getLocationJob(api.table, api.tenantId, 'office', checkId, late)).toBeUndefined();
    expect(await slotLocationResults(api.table, checkId, late)).toEqual([]);
  });

  it('refuses a malformed batch with 400 and stores nothing of it', async () => {
    const slotMs = await officeJob();
    const good = { job_id: `${checkId}:${slotMs}`, slot: slotMs, result: wireResult(slotMs) };

    const empty = await post(office.key, []);
    const bad = await post(office.key, [good, { ...good, result: { success: 'yes' } }]);

    expect(empty.status).toBe(400);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(await slotLocationResults(api.table, checkId, slotMs)).toEqual([]);
  });

  it('drops, instead of leasing, the jobs of a deleted check and of one no longer probed from the location', async () => {
    const deleted = await locatedHttpCheck(api, 'https://gone.example/', ['office']);
    const elsewhere = await locatedHttpCheck(api, 'https://elsewhere.example/', ['lab']);
    const slotMs = await officeJob();
    for (const id of [deleted, elsewhere]) {
      await putLocationJob(api, {
        location: 'office',
        checkId: id,
        slotMs,
        deadlineMs: slotMs + DEADLINE_AFTER_MS,
      });
    }
    expect((await api.request('DELETE', `/v1/checks/${deleted}`, { key: api.adminKey })).status).toBe(204);

    const leased = await lease(office.key);

    // Earlier tests' unanswered jobs are leased too: only these two checks' jobs must not be.
    const ids: string[] = leased.body.jobs.map((j: { job_id: string }) => j.job_id);
    expect(ids).toContain(`${checkId}:${slotMs}`);
    expect(ids.filter((id) => id.startsWith(deleted) || id.startsWith(elsewhere))).toEqual([]);
    expect(await getLocationJob(api.table, api.tenantId, 'office', deleted, slotMs)).toBeUndefined();
    expect(await getLocationJob(api.table, api.tenantId, 'office', elsewhere, slotMs)).toBeUndefined();
  });

  it('refuses a revoked location key with 401 at once', async () => {
    const added = await api.request('POST', `/v1/locations/${office.id}/keys`, { key: api.adminKey });
    expect((await lease(added.body.key)).status).toBe(200);

    const revoked = await api.request('DELETE', `/v1/locations/${office.id}/keys/${added.body.key_id}`, {
      key: api.adminKey,
    });
    const leased = await lease(added.body.key);
    const posted = await post(added.body.key, [{ job_id: `${checkId}:1`, slot: 1, result: wireResult(1) }]);

    expect(revoked.status).toBe(204);
    expect(leased.status).toBe(401);
    expect(posted.status).toBe(401);
  });

  it('takes location keys only: API keys, read-only or admin, get 401', async () => {
    const readOnly = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'viewer', is_read_only: true },
    });
    const answers = await Promise.all(
      [readOnly.body.key, api.adminKey].flatMap((key: string) => [
        lease(key),
        post(key, [{ job_id: `${checkId}:1`, slot: 1, result: wireResult(1) }]),
      ]),
    );

    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401]);
  });

  it('leases over plain HTTP only to this host or behind TLS (the cloud is always https)', async () => {
    const send = (sourceIp: string, headers: Record<string, string> = {}) =>
      api.app.router.handle({
        method: 'POST',
        path: '/v1/agent/lease',
        query: {},
        headers: { authorization: `Bearer ${lab.key}`, 'content-type': 'application/json', ...headers },
        body: Buffer.from(JSON.stringify({ max: 1, wait_seconds: 0 })),
        requestId: 'transport-test',
        sourceIp,
      });

    const remote = await send('192.0.2.7');
    const proxied = await send('192.0.2.7', { 'x-forwarded-proto': 'https' });
    const local = await send('::ffff:127.0.0.1');

    expect(remote.status).toBe(api.runtime === 'local' ? 403 : 200);
    if (api.runtime === 'local') {
      expect(JSON.parse(remote.body)).toEqual({
        error: expect.stringContaining('over plain HTTP'),
        code: 'FORBIDDEN',
      });
    }
    expect(proxied.status).toBe(200);
    expect(local.status).toBe(200);
  });

  it('counts a lease as a sign of life: the location is listed online', async () => {
    const other = await newLocation(api, 'quiet');
    await lease(other.key);

    const list = await api.request('GET', '/v1/locations', { key: api.adminKey });

    const quiet = list.body.locations.find((l: { name: string }) => l.name === 'quiet');
    expect(quiet).toMatchObject({ state: 'online', last_seen_at: new Date(clock.now()).toISOString() });
  });
});

describe('VIGIL_AGENT_ALLOW_HTTP (local runtime)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startLocalHarness({ env: { VIGIL_AGENT_ALLOW_HTTP: 'true' } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lets agents lease over plain HTTP from another host when the server is told the network is trusted', async () => {
    const office = await newLocation(api, 'office');

    const remote = await api.app.router.handle({
      method: 'POST',
      path: '/v1/agent/lease',
      query: {},
      headers: { authorization: `Bearer ${office.key}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ max: 1, wait_seconds: 0 })),
      requestId: 'allow-http-test',
      sourceIp: '192.0.2.7',
    });

    expect(remote.status, remote.body).toBe(200);
    expect(JSON.parse(remote.body)).toEqual({ jobs: [] });
  });
});
