import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { App } from '../../lib/app.ts';
import { type ProbeJob, probeJobId } from '../../lib/checks/probe-job.ts';
import { type CellJob, cellJobId, createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import type { DueClaim } from '../../lib/checks/services/generator.ts';
import { readQueuedJobs } from '../../lib/local/job-queue-items.ts';
import { commitClaims, createProbeQueue, PROBE_QUEUE } from '../../lib/local/probe-queue.ts';
import { createScheduler, type JobStart, type SchedulerDeps } from '../../lib/local/scheduler.ts';
import { createTimerHeap } from '../../lib/local/timer-heap.ts';
import { createWorkerPool } from '../../lib/local/worker-pool.ts';
import { isoTime, systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { queuelessApp } from '../support/queueless-app.ts';
import { WAIT } from '../support/wait.ts';
import { putQueuedProbe } from './scheduler-helpers.ts';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

/** The cell runner of an app (the local runtime builds its scheduler's the same way). */
const cellsOf = (app: App, table: SqliteTable) =>
  createCellRunner({ table, prober: app.jobRunner.prober, tenants: app.tenants, clock: systemClock });

/** Lets real I/O (sqlite commits) run without moving fake time, until `done` holds (bounded). */
async function settled(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await done()); i += 1) await new Promise((resolve) => setImmediate(resolve));
}

beforeEach(() => {
  // Fake time (Date and timeouts) only; sqlite and setImmediate stay real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('timer heap', () => {
  it('fires each item at its own due time, earliest first, including items added earlier than the armed one', async () => {
    const fired: { item: string; at: number }[] = [];
    const heap = createTimerHeap<string>({
      clock: systemClock,
      timers: { setTimeout: (cb, ms) => setTimeout(cb, ms), clearTimeout: (h) => clearTimeout(h) },
      onDue: (items) => {
        for (const item of items) fired.push({ item, at: Date.now() - T0 });
      },
    });
    heap.add(T0 + 300, 'c');
    heap.add(T0 + 100, 'a');
    heap.add(T0 + 100, 'a2');
    heap.add(T0 + 250, 'b');
    heap.add(T0 - 50, 'late');
    await vi.advanceTimersByTimeAsync(1000);
    expect(fired).toEqual([
      { item: 'late', at: 0 },
      { item: 'a', at: 100 },
      { item: 'a2', at: 100 },
      { item: 'b', at: 250 },
      { item: 'c', at: 300 },
    ]);
    heap.add(T0 + 2000, 'dropped');
    expect(heap.clear()).toEqual(['dropped']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fired).toHaveLength(5);
  });
});

describe('worker pool', () => {
  it('runs at most `concurrency` tasks at once, in order, and reports idle', async () => {
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const pool = createWorkerPool<number>({
      concurrency: 2,
      logger: silentLogger,
      run: (n) => {
        started.push(n);
        return new Promise<void>((resolve) => releases.push(resolve));
      },
    });
    for (const n of [1, 2, 3, 4]) pool.push(n);
    expect(started).toEqual([1, 2]);
    expect([pool.active, pool.queued]).toEqual([2, 2]);
    releases.shift()?.();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]), WAIT);
    expect(pool.clear()).toEqual([4]);
    let idle = false;
    void pool.idle().then(() => {
      idle = true;
    });
    for (const release of releases.splice(0)) release();
    await vi.waitFor(() => expect(idle).toBe(true), WAIT);
  });
});

describe('durable probe queue and scheduler', () => {
  let table: SqliteTable;
  /** The local app on this test's table, on the system clock, with in-memory notify and action queues. */
  const appOnTable = () => queuelessApp(table);
  /** A scheduler over this test's table and `app`'s job runner and cells, on the system clock. */
  const schedulerOf = (
    app: App,
    options: Pick<SchedulerDeps, 'dueShards' | 'concurrency' | 'onJobStart'> & {
      jobRunner?: SchedulerDeps['jobRunner'];
    },
  ) =>
    createScheduler({
      table,
      jobRunner: app.jobRunner,
      cells: cellsOf(app, table),
      clock: systemClock,
      logger: silentLogger,
      ...options,
    });
  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  });
  afterEach(async () => {
    await table.close();
  });

  const queuedItems = () => readQueuedJobs(table, PROBE_QUEUE, z.unknown());

  it('commits every winning claim with its queue item and skips the claims that lost their slot', async () => {
    // 60 "checks" (two chunks); every third was claimed meanwhile by someone else.
    const claims: DueClaim[] = [];
    for (let i = 0; i < 60; i += 1) {
      const key = { pk: 'TEST', sk: `C#${i}` };
      await table.transact([
        {
          type: 'put',
          item: { ...key, entity: 'x', schema_version: 1, next_run_at: i % 3 === 0 ? 'moved' : 'slot' },
        },
      ]);
      const job: ProbeJob = { tenant_id: 't', check_id: `chk_${i}`, kind: 'probe', slot_ms: T0 + i };
      claims.push({
        job,
        dueMs: T0 + i,
        claim: {
          type: 'update',
          key,
          set: { next_run_at: isoTime(T0 + 60_000 + i) },
          condition: { kind: 'compare', attr: 'next_run_at', op: '=', value: 'slot' },
        },
      });
    }
    const queue = createProbeQueue({ table, clock: systemClock, logger: silentLogger });
    const committed = await commitClaims(table, queue, claims);
    expect(committed).toBe(40);
    expect(await queuedItems()).toHaveLength(40);
    // Only the winners are timed, each at its slot.
    expect(queue.timed).toBe(40);
    await vi.advanceTimersByTimeAsync(60);
    const winners = await queue.receive({ max: 100 });
    expect(winners.map((w) => ('check_id' in w.body ? w.body.check_id : w.body.cell_id))).toEqual(
      claims.filter((_, i) => i % 3 !== 0).map((c) => c.job.check_id),
    );
    expect(winners[0]).toMatchObject({ id: `probe:chk_1:${T0 + 1}`, attempt: 1 });
    expect(winners[0]?.body.next_ms).toBe(T0 + 60_001);
    queue.close();
    expect((await table.get({ pk: 'TEST', sk: 'C#0' }))?.next_run_at).toBe('moved');
  });

  it('on start runs queued jobs (checks and cells) whose next slot is not due yet (late ones at once) and deletes the rest', async () => {
    const app = appOnTable();
    const put = async (name: string, dueMs: number, nextMs: number) => {
      const job: ProbeJob = { tenant_id: 't', check_id: `chk_${name}`, kind: 'probe', slot_ms: dueMs };
      await putQueuedProbe(table, job, dueMs, nextMs);
    };
    await put('ahead', T0 + 500, T0 + 1500);
    await put('late', T0 - 300, T0 + 700);
    await put('stale', T0 - 2000, T0 - 1000);
    const putCell = async (name: string, dueMs: number, nextMs: number) => {
      const job: CellJob = { kind: 'cell', tenant_id: 't', cell_id: `cel_${name}`, shard: 0, slot_ms: dueMs };
      const queue = createProbeQueue({ table, clock: systemClock, logger: silentLogger });
      const { ops } = queue.enqueueOps([
        { id: cellJobId(job), body: { ...job, next_ms: nextMs }, visibleAtMs: dueMs },
      ]);
      await table.transact(ops);
    };
    await putCell('ahead', T0 + 500, T0 + 1500);
    await putCell('stale', T0 - 2000, T0 - 1000);
    await table.transact([
      {
        type: 'put',
        // An unreadable job item as docs/data-model.md lays the queue out (`QUEUE#<name>`).
        item: { pk: `QUEUE#${PROBE_QUEUE}`, sk: 'garbage', entity: 'queue_job', schema_version: 1 },
      },
    ]);
    const starts: JobStart[] = [];
    const scheduler = schedulerOf(app, { dueShards: 1, concurrency: 4, onJobStart: (s) => starts.push(s) });

    await scheduler.start();
    expect((await queuedItems()).map((i) => i.id.split(':')[1])).toEqual([
      'cel_ahead',
      'chk_ahead',
      'chk_late',
    ]);
    // An unreadable item is kept as a dead letter, not run.
    expect((await scheduler.queue.deadLetters()).map((d) => d.id)).toEqual(['garbage']);
    await vi.advanceTimersByTimeAsync(0);
    expect(starts.map((s) => [s.job.check_id, s.startedMs - T0])).toEqual([['chk_late', 0]]);
    await vi.advanceTimersByTimeAsync(500);
    expect(starts.map((s) => [s.job.check_id, s.startedMs - s.dueMs])).toEqual([
      ['chk_late', 300],
      ['chk_ahead', 0],
    ]);
    // Neither check nor cell exists any more: the jobs end as "gone" and leave the queue.
    await vi.waitFor(async () => expect(await queuedItems()).toHaveLength(0), WAIT);
    await scheduler.stop();
  });

  it('retries a job that throws after 1 s, 2 s and 4 s, then dead-letters it', async () => {
    const app = appOnTable();
    const failing = {
      ...app.jobRunner,
      checks: {
        ...app.checks,
        run: async () => {
          throw new Error('store unavailable');
        },
      },
    };
    const starts: number[] = [];
    const scheduler = schedulerOf(app, {
      jobRunner: failing,
      dueShards: 1,
      concurrency: 1,
      onJobStart: (s) => starts.push(s.startedMs - T0),
    });
    const job: ProbeJob = { tenant_id: 't', check_id: 'chk_x', kind: 'probe', slot_ms: T0 + 1000 };
    const id = probeJobId(job);
    await scheduler.queue.enqueue([{ id, body: { ...job, next_ms: T0 + 61_000 } }], { delaySeconds: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toEqual([1000]);
    // Still queued while it is retried, with its attempts and next visible time stored (a restart resumes them).
    await settled(async () => {
      const [job] = await queuedItems();
      return job?.readable === true && job.attempts === 1;
    });
    expect((await queuedItems())[0]).toMatchObject({ attempts: 1, visibleMs: T0 + 2000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(starts).toEqual([1000, 2000]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(starts).toEqual([1000, 2000, 4000]);
    await vi.advanceTimersByTimeAsync(3999);
    expect(starts).toEqual([1000, 2000, 4000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([1000, 2000, 4000, 8000]);
    await vi.waitFor(async () => expect(await queuedItems()).toHaveLength(0), WAIT);
    expect(await scheduler.queue.deadLetters()).toEqual([
      expect.objectContaining({ id, attempts: 4, error: 'Error: store unavailable' }),
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(starts).toHaveLength(4);
    expect(scheduler.queue.holds(id)).toBe(false);
    await scheduler.stop();
  });

  it('sweeps expired items on the first tick and then every 60 s', async () => {
    const app = appOnTable();
    const scheduler = schedulerOf(app, { dueShards: 2, concurrency: 1 });
    const expired = async (sk: string) =>
      table.transact([
        {
          type: 'put',
          item: {
            pk: 'CHECK#x',
            sk,
            entity: 'result',
            schema_version: 1,
            ttl: Math.floor(Date.now() / 1000) - 1,
          },
        },
      ]);
    const exists = async (sk: string) => (await table.get({ pk: 'CHECK#x', sk })) !== undefined;
    await expired('RES#1');
    await scheduler.start();
    await vi.waitFor(async () => expect(await exists('RES#1')).toBe(false), WAIT);
    await expired('RES#2');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await exists('RES#2')).toBe(true);
    await vi.advanceTimersByTimeAsync(31_000);
    await vi.waitFor(async () => expect(await exists('RES#2')).toBe(false), WAIT);
    await scheduler.stop();
  });
});
