import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { leaseAdvancedOp } from '../../lib/checks/cells/cell-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import type { ProbeJob } from '../../lib/checks/probe-job.ts';
import type { RecordOutcome } from '../../lib/checks/results/result-recorder.ts';
import { type CellJob, cellJobId, createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { createScheduler, type JobStart } from '../../lib/local/scheduler.ts';
import { createFakeClock, isoTime, systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Prober } from '../../lib/probes/types.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { queuelessApp } from '../support/queueless-app.ts';
import { storedKeys } from '../support/stored-keys.ts';
import { WAIT } from '../support/wait.ts';
import { putQueuedProbe } from './scheduler-helpers.ts';

// A worker slot bounds probes in flight, not the commits behind them: a job leaves its slot once
// its probe answers, and the results being recorded are bounded on their own (4x the concurrency).

let table: SqliteTable;
beforeEach(() => {
  table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
});
afterEach(() => table.close());

interface SetupOptions {
  /** Queue a per-check job for each check (default true). */
  queue?: boolean;
  /** Checks join cells as created today (default: pull checks stored before cells, per-check jobs). */
  inCells?: boolean;
  concurrency?: number;
  /** Probes wait for it before they answer. */
  probesHeld?: Promise<void>;
  onJobStart?: (start: JobStart) => void;
  onProbeStart?: (start: JobStart) => void;
}

async function setup(jobs: number, options: SetupOptions = {}) {
  // The checks' own schedule starts a day ahead (the app's clock), so the scheduler's first tick
  // claims none of them: the queue holds exactly the jobs put below.
  const appClock = createFakeClock(Date.now() + 86_400_000);
  const app = queuelessApp(table, appClock);
  const { rawKey } = await app.tenants.createTenant({ name: 'T', email: 't@example.test' });
  const call = async (path: string, body: unknown) => {
    const res = await app.router.handle({
      method: 'POST',
      path,
      query: {},
      headers: { authorization: `Bearer ${rawKey}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(body)),
      requestId: 'test',
    });
    expect(res.status).toBe(201);
    return JSON.parse(res.body) as { id: string; tenant_id?: string };
  };
  await call('/v1/blueprints', { slug: 'svc', name: 'Service' });
  const entity = await call('/v1/blueprints/svc/entities', { slug: 'a', name: 'A', fields: {} });
  const tenantId = (await app.tenants.listTenants())[0]?.id ?? '';
  const now = Date.now();
  const checkIds: string[] = [];
  for (let i = 0; i < jobs; i += 1) {
    // Per-check jobs need a pull check stored before cells (one in a cell refuses them: its cell
    // runs it): created disabled (no cell), then enabled in place. `inCells`: as created today.
    const check = await call('/v1/checks', {
      entity_id: entity.id,
      check_type: 'http',
      target_url: 'http://127.0.0.1:9/',
      interval_seconds: 3600,
      enabled: options.inCells === true,
    });
    if (!options.inCells) {
      await table.update({
        type: 'update',
        key: storedKeys.check(tenantId, check.id),
        set: { enabled: true },
      });
    }
    checkIds.push(check.id);
    const job: ProbeJob = { tenant_id: tenantId, check_id: check.id, kind: 'probe', slot_ms: now + i };
    if (options.queue !== false) await putQueuedProbe(table, job, now + i, now + 3_600_000);
  }
  // No cell job runs here: the shards' leases are moved past tomorrow.
  const config = loadConfig('local', {});
  for (let shard = 0; shard < config.dueShards; shard += 1) {
    await table.transact([leaseAdvancedOp(shard, undefined, isoTime(now + 86_400_000))]);
  }
  // Probes answer at once; recording waits until the test opens the gate.
  let probes = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const prober: Prober = async () => {
    probes += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await options.probesHeld;
    inFlight -= 1;
    return {
      outcome: { success: true, status_code: 200, latency_ms: 1, error_message: '' },
      startedMs: Date.now(),
    };
  };
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const record = app.recorder.record;
  const recorder = {
    record: async (input: Parameters<typeof record>[0]): Promise<RecordOutcome> => {
      await gate;
      return record(input);
    },
  };
  const scheduler = createScheduler({
    table,
    jobRunner: { ...app.jobRunner, prober, recorder },
    cells: createCellRunner({ table, prober, tenants: app.tenants, clock: systemClock }),
    clock: systemClock,
    logger: silentLogger,
    dueShards: 1,
    concurrency: options.concurrency ?? 1,
    tickMs: 60_000,
    ...(options.onJobStart ? { onJobStart: options.onJobStart } : {}),
    ...(options.onProbeStart ? { onProbeStart: options.onProbeStart } : {}),
  });
  return {
    scheduler,
    probes: () => probes,
    maxInFlight: () => maxInFlight,
    open,
    app,
    tenantId,
    checkIds,
  };
}

describe('local scheduler: worker slots', () => {
  it('releases a slot when the probe answers, up to 4x the concurrency of results being recorded', async () => {
    const { scheduler, probes, open } = await setup(7);
    await scheduler.start();
    // Concurrency 1, every recording held: five probes ran (the fifth waits with its slot, as
    // five recordings are more than four), the sixth and seventh wait for a slot.
    await vi.waitFor(() => expect(probes()).toBe(5), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(probes()).toBe(5);
    expect(scheduler.stats()).toMatchObject({ running: 1, waiting: 2, recording: 5 });

    open();
    await vi.waitFor(() => expect(probes()).toBe(7), WAIT);
    await vi.waitFor(
      async () => expect((await table.query({ pk: 'QUEUE#probe' })).items).toHaveLength(0),
      WAIT,
    );
    // The queue item goes in the result's own write; the count of recordings drops just after it.
    await vi.waitFor(
      () => expect(scheduler.stats()).toMatchObject({ running: 0, waiting: 0, recording: 0 }),
      WAIT,
    );
    await scheduler.stop();
  });

  it('waits at stop for results still being recorded', async () => {
    const { scheduler, probes, open } = await setup(2);
    await scheduler.start();
    await vi.waitFor(() => expect(probes()).toBe(2), WAIT);
    const stopped = scheduler.stop();
    let done = false;
    void stopped.then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    open();
    await stopped;
    expect((await table.query({ pk: 'QUEUE#probe' })).items).toHaveLength(0);
  });

  it('bounds a cell job by its probes: members take a probe slot each, and the hooks see each member at the slot', async () => {
    let release: () => void = () => undefined;
    const probesHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const starts: JobStart[] = [];
    const probeStarts: JobStart[] = [];
    const { scheduler, probes, maxInFlight, open, tenantId, checkIds } = await setup(5, {
      queue: false,
      inCells: true,
      concurrency: 2,
      probesHeld,
      onJobStart: (start) => starts.push(start),
      onProbeStart: (start) => probeStarts.push(start),
    });
    open();
    const cell = (await getCheckDefinition(table, tenantId, checkIds[0] ?? ''))?.cell;
    if (!cell) throw new Error('the checks run in a cell');
    const slotMs = Date.now() - 1000;
    const job: CellJob = { kind: 'cell', tenant_id: tenantId, ...cell, slot_ms: slotMs };
    await scheduler.start();
    expect(
      await scheduler.queue.enqueueAt([
        { id: cellJobId(job), body: { ...job, next_ms: slotMs + 3_600_000 }, visibleAtMs: slotMs },
      ]),
    ).toBe(1);

    // One job, five members, two probe slots: two probes run, three wait (counted as waiting).
    await vi.waitFor(() => expect(probes()).toBe(2), WAIT);
    expect(scheduler.stats()).toMatchObject({ running: 1, waiting: 3 });
    release();
    await vi.waitFor(() => expect(probes()).toBe(5), WAIT);
    await vi.waitFor(
      async () => expect((await table.query({ pk: 'QUEUE#probe' })).items).toHaveLength(0),
      WAIT,
    );
    expect(maxInFlight()).toBe(2);
    // Each member is reported as a job of its check at the cell's slot, once it starts and once it probes.
    expect(starts.map((s) => s.job.check_id).sort()).toEqual([...checkIds].sort());
    expect(probeStarts.map((s) => s.job.check_id).sort()).toEqual([...checkIds].sort());
    expect([...starts, ...probeStarts].every((s) => s.dueMs === slotMs && s.job.slot_ms === slotMs)).toBe(
      true,
    );
    await scheduler.stop();
  });
});
