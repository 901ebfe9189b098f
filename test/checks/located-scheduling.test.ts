import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import type { CheckStore } from '../../lib/checks/definitions/check-store.ts';
import { slotLocationResults } from '../../lib/checks/items/location-result-items.ts';
import { type ProbeJob, probeJobId } from '../../lib/checks/probe-job.ts';
import type { LocationDecider, LocationProbeResult } from '../../lib/checks/probing.ts';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { readQueuedJobs } from '../../lib/local/job-queue-items.ts';
import { PROBE_QUEUE } from '../../lib/local/probe-queue.ts';
import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { getLocationJob, locationJobDeleteOp } from '../../lib/locations/location-job-items.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import {
  type CloudHarness,
  createEntity as createCloudEntity,
  probeMessageBody,
  sqsEvent,
  startCloudHarness,
} from '../cloud/support.ts';
import {
  createEntity,
  jobsInFlight,
  manualTime,
  startTarget,
  storedResultsOf,
  type Target,
} from '../local/scheduler-helpers.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { type FauxqsEngine, startFauxqsEngine } from '../support/fauxqs.ts';
import { createLocatedCheck, type LocatedDriver, locateCheck } from './located-checks.ts';

/**
 * A located check in each runtime's own scheduling (the local tick loop and probe queue on a fake
 * clock; the cloud's generator minute, the probe queue on fauxqs and the worker Lambda): it runs
 * outside cells, in the due index; each slot puts the other location's job, stores the default
 * location's result and queues the slot's decision at its deadline; a location's report (as the
 * agent routes make it) decides the slot, and without it the decision at the deadline names the
 * location `unknown`.
 */

interface Driver extends LocatedDriver {
  clock: { now(): number };
  decider: LocationDecider;
  checks: CheckStore;
  entityId(): Promise<string>;
  /** Lets the runtime's scheduling run (fake time passing) until `probe` holds; returns its value. */
  runUntil<T>(probe: () => Promise<T | undefined | false>, what: string, maxMs?: number): Promise<T>;
  /** The ids of the `decide` jobs queued so far. */
  decideJobs(): Promise<string[]>;
  /** Delivers `job` once more, as the runtime's queue would redeliver it. */
  redeliver(job: ProbeJob): Promise<void>;
}

const INTERVAL_S = 60;
const TIMEOUT_MS = 2000;
const DEADLINE_MS = INTERVAL_S * 1000 + TIMEOUT_MS;

const ok: LocationProbeResult = {
  success: true,
  status_code: 200,
  latency_ms: 40,
  error_message: '',
  checked_at: '2026-01-01T00:00:00.000Z',
};

function scenarios(d: () => Driver, targets: () => { up: Target; down: Target }) {
  const target = () => targets().up;
  const decidedAt = async (checkId: string, slotMs: number) =>
    (await storedResultsOf(d().table, checkId)).find((r) => r.checked_at === isoTime(slotMs));
  const nextSlot = async (checkId: string) => {
    const res = await d().call('GET', `/v1/checks/${checkId}`);
    expect(res.status).toBe(200);
    expect(res.body.next_run_at).toEqual(expect.any(String));
    return Date.parse(res.body.next_run_at);
  };
  const defaultReported = (checkId: string, slotMs: number) => async () =>
    (await slotLocationResults(d().table, checkId, slotMs)).find((r) => r.location === 'default');

  it('runs outside cells with a next run in the due index, and leaves or joins a cell as its locations change', async () => {
    const created = await d().call('POST', '/v1/checks', {
      entity_id: await d().entityId(),
      check_type: 'http',
      target_url: target().url,
      interval_seconds: INTERVAL_S,
      timeout_ms: TIMEOUT_MS,
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const from = (await getCheckDefinition(d().table, d().tenantId, id))?.cell;
    if (!from) throw new Error('an enabled default-only pull check runs in a cell');

    // Located: it leaves its cell (kept as a former cell, so its results there stay listed), and is due.
    await locateCheck(d(), id, ['default', 'office']);
    const out = await d().checks.get(d().tenantId, id);
    expect(out?.cell ?? null).toBeNull();
    expect(out?.former_cells?.map((f) => f.cell_id)).toContain(from.cell_id);
    await nextSlot(id);

    // Back to ["default"]: it joins a cell again.
    await locateCheck(d(), id, ['default']);
    expect((await getCheckDefinition(d().table, d().tenantId, id))?.cell).toMatchObject({
      cell_id: expect.any(String),
    });
    expect((await d().call('DELETE', `/v1/checks/${id}`)).status).toBe(204);
  });

  it('puts the office’s job, stores the default’s result, and decides the slot when office reports', async () => {
    // Quorum 2 of 2 (the default): the default's failure alone decides nothing.
    const id = await createLocatedCheck(d(), await d().entityId(), {
      target_url: targets().down.url,
      locations: ['default', 'office'],
      interval_seconds: INTERVAL_S,
      timeout_ms: TIMEOUT_MS,
    });
    expect((await getCheckDefinition(d().table, d().tenantId, id))?.cell ?? null).toBeNull();
    const slot = await nextSlot(id);

    const own = await d().runUntil(defaultReported(id, slot), 'the default location’s result');
    expect(own).toMatchObject({ success: false, status_code: 503 });
    expect(await getLocationJob(d().table, d().tenantId, 'office', id, slot)).toMatchObject({
      deadline_ms: slot + DEADLINE_MS,
      leased_until_ms: 0,
    });
    expect(await d().decideJobs()).toContain(`decide:${id}:${slot}`);
    expect(await decidedAt(id, slot)).toBeUndefined();

    // A redelivery of the slot's job probes nothing again and stores nothing twice.
    const hits = targets().down.hits;
    await d().redeliver({ tenant_id: d().tenantId, check_id: id, kind: 'probe', slot_ms: slot });
    expect(targets().down.hits).toBe(hits);
    expect((await slotLocationResults(d().table, id, slot)).map((r) => r.location)).toEqual(['default']);
    expect(await getLocationJob(d().table, d().tenantId, 'office', id, slot)).toMatchObject({
      leased_until_ms: 0,
    });
    expect(await decidedAt(id, slot)).toBeUndefined();

    // The office agent's result, as POST /v1/agent/results stores it (its job deleted with it).
    const reported = await d().decider.report({
      tenantId: d().tenantId,
      checkId: id,
      slotMs: slot,
      location: 'office',
      result: { ...ok, checked_at: isoTime(slot) },
      alsoCommit: [locationJobDeleteOp(d().tenantId, 'office', id, slot)],
    });
    expect(reported).toBe('recorded');
    expect(await getLocationJob(d().table, d().tenantId, 'office', id, slot)).toBeUndefined();
    const decided = await decidedAt(id, slot);
    expect(decided).toMatchObject({
      success: true,
      checked_at: isoTime(slot),
      error_message: 'up from 1 of 2 locations: default expected status 200, got 503; office ok',
    });
    expect(decided?.inconclusive).toBeUndefined();
    expect(decided?.locations?.map((l) => [l.location, l.outcome])).toEqual([
      ['default', 'down'],
      ['office', 'up'],
    ]);
    const shown = (await d().call('GET', `/v1/checks/${id}`)).body;
    expect(shown).toMatchObject({ state: 'up', locations: ['default', 'office'], quorum: 2 });
    expect(shown.last_locations.map((l: { outcome: string }) => l.outcome)).toEqual(['down', 'up']);

    // The next slot without office: at its deadline the decision records it inconclusive (quorum 2).
    const next = slot + INTERVAL_S * 1000;
    const inconclusive = await d().runUntil(
      () => decidedAt(id, next),
      'the next slot decided at its deadline',
      INTERVAL_S * 1000 + DEADLINE_MS + 30_000,
    );
    expect(d().clock.now()).toBeGreaterThanOrEqual(next + DEADLINE_MS);
    expect(inconclusive).toMatchObject({ success: false, inconclusive: true });
    expect(inconclusive.locations?.map((l) => [l.location, l.outcome])).toEqual([
      ['default', 'down'],
      ['office', 'unknown'],
    ]);
    // The decision of the first slot, at its deadline too, added nothing: one result per slot.
    const results = await storedResultsOf(d().table, id);
    expect(results.filter((r) => r.checked_at === isoTime(slot))).toHaveLength(1);
    expect((await d().call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
    expect((await d().call('PUT', `/v1/checks/${id}`, { enabled: false })).status).toBe(200);
  });

  it('with quorum 1, decides a slot from the default location’s failure alone, office unknown', async () => {
    const id = await createLocatedCheck(d(), await d().entityId(), {
      target_url: targets().down.url,
      locations: ['default', 'office'],
      quorum: 1,
      interval_seconds: INTERVAL_S,
      timeout_ms: TIMEOUT_MS,
    });
    const slot = await nextSlot(id);
    const decided = await d().runUntil(() => decidedAt(id, slot), 'the slot decided from default');
    expect(decided).toMatchObject({ success: false, status_code: 503 });
    expect(decided.inconclusive).toBeUndefined();
    expect(decided.error_message).toMatch(/^down from 1 of 2 locations: default .*; office no report$/);
    expect(decided.locations?.map((l) => [l.location, l.outcome])).toEqual([
      ['default', 'down'],
      ['office', 'unknown'],
    ]);
    expect((await d().call('GET', `/v1/checks/${id}`)).body.state).toBe('down');
    // Office's job stays leasable until the deadline; its late result is kept, the slot stays decided.
    expect(await getLocationJob(d().table, d().tenantId, 'office', id, slot)).toBeDefined();
    expect((await d().call('PUT', `/v1/checks/${id}`, { enabled: false })).status).toBe(200);
  });

  it('probes nothing itself for a check that does not name default: its locations decide', async () => {
    const hits = target().hits;
    const id = await createLocatedCheck(d(), await d().entityId(), {
      target_url: target().url,
      locations: ['office', 'eu-west-1'],
      interval_seconds: INTERVAL_S,
      timeout_ms: TIMEOUT_MS,
    });
    const slot = await nextSlot(id);
    const jobs = await d().runUntil(async () => {
      const found = await Promise.all(
        ['office', 'eu-west-1'].map((l) => getLocationJob(d().table, d().tenantId, l, id, slot)),
      );
      return found.every(Boolean) && found;
    }, 'both locations’ jobs');
    expect(jobs.map((j) => j?.deadline_ms)).toEqual([slot + DEADLINE_MS, slot + DEADLINE_MS]);
    expect(await d().decideJobs()).toContain(`decide:${id}:${slot}`);
    expect(await slotLocationResults(d().table, id, slot)).toEqual([]);
    expect(target().hits).toBe(hits);
    for (const location of ['office', 'eu-west-1']) {
      const stored = await d().decider.report({
        tenantId: d().tenantId,
        checkId: id,
        slotMs: slot,
        location,
        result: { ...ok, checked_at: isoTime(slot) },
        alsoCommit: [locationJobDeleteOp(d().tenantId, location, id, slot)],
      });
      expect(stored).toBe('recorded');
    }
    expect(await decidedAt(id, slot)).toMatchObject({ success: true });
    expect((await d().call('PUT', `/v1/checks/${id}`, { enabled: false })).status).toBe(200);
  });
}

describe('a located check on the local scheduler (tick loop and probe queue on fake time)', () => {
  let api: LocalHarness;
  let target: Target;
  let down: Target;
  let entity: string | undefined;
  const time = manualTime();
  const driver = (): Driver => ({
    table: api.table,
    tenantId: api.tenantId,
    call: (method, path, body) => api.request(method, path, { key: api.adminKey, body }),
    clock: time.clock,
    decider: api.app.jobRunner.decider,
    checks: api.app.checks,
    entityId: async () => {
      entity ??= (await createEntity(api)).id;
      return entity;
    },
    runUntil: (probe, what, maxMs = 70_000) => time.until(probe, what, maxMs),
    decideJobs: async () =>
      (await readQueuedJobs(api.table, PROBE_QUEUE, z.unknown()))
        .map((job) => job.id)
        .filter((id) => id.startsWith('decide:')),
    async redeliver(job) {
      const id = probeJobId(job);
      const body = { ...job, next_ms: job.slot_ms + INTERVAL_S * 1000 };
      expect(await api.local.scheduler.execute({ id, body, attempt: 2, receipt: id })).toBe('located');
    },
  });

  beforeAll(async () => {
    target = await startTarget();
    down = await startTarget(() => 503);
    api = await startLocalHarness({ clock: time.clock, scheduler: { timers: time.timers } });
    time.settleWhile(() => jobsInFlight(api.local.scheduler));
  });
  afterAll(async () => {
    await api?.close();
    await target?.close();
    await down?.close();
  });

  scenarios(driver, () => ({ up: target, down }));
});

describe('a located check in the cloud (generator minute, probe queue on fauxqs, worker)', () => {
  let engine: FauxqsEngine;
  let h: CloudHarness;
  let target: Target;
  let down: Target;
  let entity: string | undefined;
  let lastMinute = -1;
  const driver = (): Driver => ({
    table: h.table,
    tenantId: h.tenantId,
    call: (method, path, body) => h.api(method, path, body),
    clock: h.clock,
    decider: h.app.jobRunner.decider,
    checks: h.app.checks,
    entityId: async () => {
      entity ??= await createCloudEntity(h, 'located');
      return entity;
    },
    async runUntil(probe, what, maxMs = 70_000) {
      const { probeSource } = h;
      if (!probeSource) throw new Error('the harness has no SQS engine');
      const endMs = h.clock.now() + maxMs;
      for (;;) {
        const value = await probe();
        if (value !== undefined && value !== false) return value;
        if (h.clock.now() >= endMs) throw new Error(`no ${what} within ${maxMs} ms of fake time`);
        // The schedule fires the generator once a minute; the worker takes each job as it shows.
        const minute = Math.floor(h.clock.now() / 60_000) * 60_000;
        if (minute !== lastMinute) {
          lastMinute = minute;
          await h.runGenerator();
        }
        await probeSource.runVisible();
        expect(probeSource.invocations.flatMap((i) => i.failed)).toEqual([]);
        h.clock.advance(1000);
      }
    },
    decideJobs: async () => {
      const name = h.engineQueue?.name ?? '';
      return engine
        .sentBodies(name)
        .map((body) => jobEnvelopeSchema.parse(JSON.parse(body)).id)
        .filter((id) => id.startsWith('decide:'));
    },
    async redeliver(job) {
      const response = await h.runWorker(sqsEvent([{ messageId: 'again', body: probeMessageBody(job) }]));
      expect(response.batchItemFailures).toEqual([]);
    },
  });

  beforeAll(async () => {
    target = await startTarget();
    down = await startTarget(() => 503);
    engine = await startFauxqsEngine();
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' }, engine });
  });
  afterAll(async () => {
    await h?.close();
    await engine?.stop();
    await target?.close();
    await down?.close();
  });

  scenarios(driver, () => ({ up: target, down }));
});

describe('a located slot across a restart of the local runtime', () => {
  it('decides the slot after the restart from the decision queued before it', async () => {
    const time = manualTime();
    const api = await startLocalHarness({ clock: time.clock, scheduler: { timers: time.timers } });
    const down = await startTarget(() => 503);
    let second: Awaited<ReturnType<typeof startLocalRuntime>> | undefined;
    time.settleWhile(() => jobsInFlight(second?.scheduler ?? api.local.scheduler));
    try {
      const d: LocatedDriver = {
        table: api.table,
        tenantId: api.tenantId,
        call: (method, path, body) => api.request(method, path, { key: api.adminKey, body }),
      };
      // Quorum 2 of 2: the default's failure alone waits for office, which never reports.
      const id = await createLocatedCheck(d, (await createEntity(api)).id, {
        target_url: down.url,
        locations: ['default', 'office'],
        interval_seconds: INTERVAL_S,
        timeout_ms: TIMEOUT_MS,
      });
      const slot = Date.parse((await d.call('GET', `/v1/checks/${id}`)).body.next_run_at);
      await time.until(
        async () => (await slotLocationResults(api.table, id, slot)).length > 0,
        'the default location’s result',
        70_000,
      );
      await api.local.stop();
      // Down past the slot's deadline: its decision waits in the durable queue.
      time.clock.set(slot + DEADLINE_MS + 5000);
      second = await startLocalRuntime({
        config: { ...loadConfig('local', { VIGIL_LOG_LEVEL: 'silent' }), dataDir: api.dataDir, port: 0 },
        logger: silentLogger,
        host: '127.0.0.1',
        clock: time.clock,
        scheduler: { timers: time.timers },
      });
      const { table } = second;
      const decided = await time.until(
        async () => (await storedResultsOf(table, id)).find((r) => r.checked_at === isoTime(slot)),
        'the slot decided after the restart',
        10_000,
      );
      expect(decided).toMatchObject({ success: false, inconclusive: true });
      expect(decided.locations?.map((l) => [l.location, l.outcome])).toEqual([
        ['default', 'down'],
        ['office', 'unknown'],
      ]);
    } finally {
      await second?.stop();
      await down.close();
      await api.close();
    }
  });
});
