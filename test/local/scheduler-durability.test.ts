import { describe, expect, it } from 'vitest';
import { type CellJob, cellJobId } from '../../lib/checks/runner/cell-runner.ts';
import { phaseOffsetMs } from '../../lib/domain/schedules/schedule.ts';
import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { createScheduler } from '../../lib/local/scheduler.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { startOnManualTime, useManualTimeRuntime } from './manual-time-runtime.ts';
import {
  call,
  cellOf,
  createEntity,
  createHttpCheck,
  jobLog,
  jobsInFlight,
  manualTime,
  queuedForCell,
  resultsOf,
  startTarget,
  storedResultsOf,
} from './scheduler-helpers.ts';

// On fake time: clocks and scheduler timers move only when a test advances them, while the probes
// reach real loopback targets.
describe('local scheduler: durability and exactly-once per slot', () => {
  const { api, jobs, time } = useManualTimeRuntime();

  it('runs each slot once when ticks overlap, in one scheduler and across two', async () => {
    const target = await startTarget();
    const entity = await createEntity(api());
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await createHttpCheck(api(), entity.id, target.url)).id);
    const otherJobs = jobLog();
    // A second scheduler on the same store, as a second process would be.
    const other = createScheduler({
      table: api().local.table,
      jobRunner: api().app.jobRunner,
      cells: api().local.cells,
      clock: time.clock,
      timers: time.timers,
      logger: silentLogger,
      dueShards: loadConfig('local', {}).dueShards,
      concurrency: 8,
      onJobStart: otherJobs.onJobStart,
    });
    try {
      const own = api().local.scheduler;
      expect(own.tick()).toBe(own.tick());
      const deadline = time.clock.now() + 3500;
      for (let round = 0; time.clock.now() < deadline; round += 1) {
        // Both read the same due items before either commits; alternate who commits first.
        const pair = round % 2 === 0 ? [own, other] : [other, own];
        await Promise.all(pair.flatMap((s) => [s.tick(), s.tick()]));
        await time.advance(100);
      }
      await other.stop();
      await time.advance(1200);

      const starts = [...jobs.starts, ...otherJobs.starts].filter((s) => ids.includes(s.job.check_id));
      const slots = starts.map((s) => `${s.job.check_id}:${s.job.slot_ms}`);
      expect(slots.length).toBeGreaterThanOrEqual(6);
      expect(new Set(slots).size).toBe(slots.length);
      for (const id of ids) {
        const results = await resultsOf(api(), id);
        expect(new Set(results.map((r) => r.id)).size).toBe(results.length);
        expect(results.length).toBeLessThanOrEqual(starts.filter((s) => s.job.check_id === id).length);
      }
    } finally {
      await other.stop();
      for (const id of ids) await call(api(), 'DELETE', `/v1/checks/${id}`, 204);
      await target.close();
    }
  });

  it('runs a cell job redelivered after a crash between its results and its ack as a harmless duplicate', async () => {
    const target = await startTarget();
    const entity = await createEntity(api());
    const created = await createHttpCheck(api(), entity.id, target.url, { interval_seconds: 3600 });
    try {
      const cell = await cellOf(api(), created.id);
      const slot = time.clock.now() - 5000;
      const job: CellJob = { kind: 'cell', tenant_id: api().tenantId, ...cell, slot_ms: slot };
      const scheduler = api().local.scheduler;
      const id = cellJobId(job);
      const body = { ...job, next_ms: slot + 3_600_000 };
      // Queued 10 minutes ahead, so the timer does not run it meanwhile; the test delivers it by hand.
      expect(await scheduler.queue.enqueueAt([{ id, body, visibleAtMs: time.clock.now() + 600_000 }])).toBe(
        1,
      );
      // The same id again adds nothing: one stored item, held once.
      expect(await scheduler.queue.enqueueAt([{ id, body, visibleAtMs: slot }])).toBe(0);
      expect(await queuedForCell(api().table, cell.cell_id)).toBe(1);
      expect(scheduler.queue.holds(id)).toBe(true);

      // The first delivery stored the slot (results, the check's first state), then the process died before its ack.
      expect((await api().local.cells.run(job)).status).toBe('recorded');
      const hits = target.hits;
      const delivery = { id, body, attempt: 2, receipt: id };
      const again = await Promise.all([scheduler.execute(delivery), scheduler.execute(delivery)]);
      expect(again).toEqual(['duplicate', 'duplicate']);

      // Probed again, but stored once: one result for the slot, one transition, and the job is gone.
      expect(target.hits).toBe(hits + 2);
      const results = await resultsOf(api(), created.id);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ success: true });
      const { transitions } = await call(api(), 'GET', `/v1/checks/${created.id}/transitions`, 200);
      expect(transitions.map((t: { to_state: string }) => t.to_state)).toEqual(['up']);
      expect(await queuedForCell(api().table, cell.cell_id)).toBe(0);
      expect(scheduler.queue.holds(id)).toBe(false);
    } finally {
      await call(api(), 'DELETE', `/v1/checks/${created.id}`, 204);
      await target.close();
    }
  });

  it('runs the checks of one cell together, every slot of the cell, on its stable phase', async () => {
    const target = await startTarget();
    const entity = await createEntity(api());
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await createHttpCheck(api(), entity.id, target.url, { interval_seconds: 2 })).id);
    }
    try {
      // One tenant, one interval, created one after another: one cell holds them all.
      const cells = new Set(await Promise.all(ids.map(async (id) => (await cellOf(api(), id)).cell_id)));
      expect(cells.size).toBe(1);
      const [cellId] = [...cells] as [string];
      await time.until(() => ids.every((id) => jobs.of(id).length >= 2), 'two runs of each check', 9000);
      await time.until(
        async () => (await Promise.all(ids.map((id) => resultsOf(api(), id)))).every((r) => r.length >= 2),
        'two results of each check',
      );
      const slotsOf = (id: string) => jobs.of(id).map((s) => s.dueMs);
      for (const id of ids) {
        const due = slotsOf(id);
        expect(due.every((ms) => ms % 2000 === phaseOffsetMs(cellId, 2))).toBe(true);
        expect(due.slice(1).map((ms, i) => ms - (due[i] ?? 0))).toEqual(due.slice(1).map(() => 2000));
      }
      // Every member ran at the cell's first two slots.
      const first = slotsOf(ids[0] as string).slice(0, 2);
      for (const id of ids) expect(slotsOf(id).slice(0, 2)).toEqual(first);
    } finally {
      for (const id of ids) await call(api(), 'DELETE', `/v1/checks/${id}`, 204);
      await target.close();
    }
  });

  it('deletes expired results and rollups in the retention sweep, keeping fresh ones', async () => {
    const entity = await createEntity(api());
    // A push check: its results are per-check items (a pull check's are its cell's).
    const res = await api().request('POST', '/v1/checks', {
      key: api().adminKey,
      body: { entity_id: entity.id, check_type: 'push', interval_seconds: 3600 },
    });
    expect(res.status, res.text).toBe(201);
    const created = res.body as { id: string };
    const base = {
      tenantId: api().tenantId,
      checkId: created.id,
      status_code: 200,
      latency_ms: 1,
      error_message: '',
    };
    const oldMs = time.clock.now() - 40 * 86_400_000; // past the default 30-day retention
    const freshMs = time.clock.now();
    await api().app.recorder.record({ ...base, success: true, checkedAtMs: oldMs });
    await api().app.recorder.record({ ...base, success: true, checkedAtMs: freshMs });
    const at = async (ms: number) =>
      (await storedResultsOf(api().table, created.id)).filter((r) => Date.parse(r.checked_at) === ms).length;
    expect([await at(oldMs), await at(freshMs)]).toEqual([1, 1]);

    const deleted = await api().local.scheduler.sweep();

    expect(deleted).toBeGreaterThanOrEqual(2); // the old result and its rollup bucket
    expect([await at(oldMs), await at(freshMs)]).toEqual([0, 1]);
    await call(api(), 'DELETE', `/v1/checks/${created.id}`, 204);
  });
});

describe('local scheduler: overload', () => {
  it('defers claims while due jobs wait for a worker, then runs each late check once, skipping missed slots', async () => {
    const jobs = jobLog();
    const time = manualTime();
    const api = await startOnManualTime(time, jobs, { env: { VIGIL_WORKER_CONCURRENCY: '1' } });
    const target = await startTarget();
    try {
      target.holdFrom(1); // the single worker hangs on the first probe
      const entity = await createEntity(api);
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) ids.push((await createHttpCheck(api, entity.id, target.url)).id);
      await time.until(() => api.logs.some((l) => l.includes('workers saturated')), 'a deferred tick');
      await time.advance(2000);
      target.holdFrom(Number.POSITIVE_INFINITY);
      target.releaseThrough(Number.POSITIVE_INFINITY);
      await time.until(() => ids.every((id) => jobs.of(id).length >= 3), 'three runs of each check', 8000);

      const slots = jobs.starts.map((s) => `${s.job.check_id}:${s.job.slot_ms}`);
      expect(new Set(slots).size).toBe(slots.length);
      const gaps = ids.flatMap((id) => {
        const due = jobs.of(id).map((s) => s.dueMs);
        return due.slice(1).map((ms, i) => ms - (due[i] ?? 0));
      });
      expect(gaps.every((gap) => gap > 0 && gap % 1000 === 0)).toBe(true);
      expect(gaps.some((gap) => gap >= 2000)).toBe(true);
    } finally {
      await target.close();
      await api.close();
    }
  });
});

describe('local scheduler: restart', () => {
  // On fake time shared by both runtimes; the burst check counts runs by their due time. A 2 s
  // interval, twice the tick: from its second run on, each job is claimed ahead and waits queued.
  // (A 1 s check whose first slot fell before the next tick is claimed on each tick as it falls due.)
  it('resumes the schedule after a restart on the same data dir without a burst of missed runs', async () => {
    const before = jobLog();
    const time = manualTime();
    const api = await startOnManualTime(time, before);
    const target = await startTarget();
    const after = jobLog();
    let second: Awaited<ReturnType<typeof startLocalRuntime>> | undefined;
    time.settleWhile(() => jobsInFlight(second?.scheduler ?? api.local.scheduler));
    try {
      const entity = await createEntity(api);
      const created = await createHttpCheck(api, entity.id, target.url, { interval_seconds: 2 });
      await time.until(() => target.hits >= 2, 'two probes');
      // Stop while a claimed-ahead job waits in the durable queue: it must not run late after the restart.
      const cell = await cellOf(api, created.id);
      await time.until(async () => (await queuedForCell(api.table, cell.cell_id)) > 0, 'a queued job');
      await api.local.stop();
      await time.advance(6000); // down for three intervals

      const restartedAt = time.clock.now();
      const hitsAtRestart = target.hits;
      second = await startLocalRuntime({
        config: { ...loadConfig('local', { VIGIL_LOG_LEVEL: 'silent' }), dataDir: api.dataDir, port: 0 },
        logger: silentLogger,
        host: '127.0.0.1',
        clock: time.clock,
        scheduler: { onJobStart: after.onJobStart, timers: time.timers },
      });
      await time.until(() => after.of(created.id).length >= 3, 'three runs after the restart');

      const runs = after.of(created.id);
      // At most one run for the time it was down (the realigning catch-up), then the normal cadence.
      expect(runs.filter((r) => r.dueMs < restartedAt).length).toBeLessThanOrEqual(1);
      // The normal cadence: one run per interval (2 s) after the restart.
      const later = runs.filter((r) => r.dueMs >= restartedAt).map((r) => r.dueMs);
      for (let i = 1; i < later.length; i += 1) {
        expect((later[i] ?? 0) - (later[i - 1] ?? 0)).toBeGreaterThanOrEqual(2000);
      }
      // A run is counted when it starts; its request reaches the target a moment later.
      await time.until(() => target.hits - hitsAtRestart >= 2, 'two probes after the restart');
      const slots = [...before.of(created.id), ...runs].map((r) => r.job.slot_ms);
      expect(new Set(slots).size).toBe(slots.length);
    } finally {
      await second?.stop();
      await target.close();
      await api.close();
    }
  });
});
