import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { z } from 'zod';
import type { CreateCheckBody } from '../../lib/checks/check-input.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { type ProbeJob, probeJobId } from '../../lib/checks/probe-job.ts';
import { type ResultRecord, resultSchema } from '../../lib/checks/records.ts';
import { readQueuedJobs } from '../../lib/local/job-queue-items.ts';
import { createProbeQueue, PROBE_QUEUE } from '../../lib/local/probe-queue.ts';
import type { JobStart, Scheduler } from '../../lib/local/scheduler.ts';
import type { Timers } from '../../lib/local/timer-heap.ts';
import { createFakeClock, systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { queryAll } from '../../lib/store/items.ts';
import type { Table } from '../../lib/store/table.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { RESULT_SK_PREFIX } from '../support/stored-keys.ts';

/** A loopback HTTP target: answers request n (1-based) with `statusFor(n)`; can hold requests from n on. */
export interface Target {
  url: string;
  /** Requests received so far (held ones included). */
  readonly hits: number;
  statusFor: (n: number) => number;
  /** Requests numbered >= n wait (until released) before they are answered. */
  holdFrom(n: number): void;
  /** Answers held requests numbered <= n. */
  releaseThrough(n: number): void;
  close(): Promise<void>;
}

export async function startTarget(statusFor: (n: number) => number = () => 200): Promise<Target> {
  let hits = 0;
  let holdFrom = Number.POSITIVE_INFINITY;
  const held: { n: number; answer: () => void }[] = [];
  const target = {
    url: '',
    get hits() {
      return hits;
    },
    statusFor,
    holdFrom(n: number) {
      holdFrom = n;
    },
    releaseThrough(n: number) {
      for (const h of held.filter((x) => x.n <= n)) {
        held.splice(held.indexOf(h), 1);
        h.answer();
      }
    },
    close: async () => {
      holdFrom = Number.POSITIVE_INFINITY;
      target.releaseThrough(Number.POSITIVE_INFINITY);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    hits += 1;
    const n = hits;
    const answer = () => {
      res.writeHead(target.statusFor(n), { 'content-type': 'text/plain' });
      res.end('ok');
    };
    if (n >= holdFrom) held.push({ n, answer });
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  target.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
  return target;
}

/** Polls `probe` until it returns a value other than undefined/false (or the deadline passes: 10 s by default, for a loaded CI machine). */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Fake time for a runtime: a manual clock and the scheduler timers it drives. `advance` moves the
 * clock in small steps, firing each timer at its due time in order and letting the real I/O it
 * starts (loopback probes, sqlite commits) settle before the next step: a few ms, longer (up to
 * 50 ms) while `settleWhile`'s condition says jobs are still running. The default start is off
 * the whole second, so ticks fall between slots as they do on a real clock (jobs wait claimed ahead).
 */
export function manualTime(startMs = Date.parse('2026-03-02T09:00:00.300Z')) {
  const clock = createFakeClock(startMs);
  let seq = 0;
  const pending = new Map<number, { dueMs: number; seq: number; callback: () => void }>();
  const handles = new WeakMap<object, number>();
  const timers: Timers = {
    setTimeout(callback, ms) {
      seq += 1;
      pending.set(seq, { dueMs: clock.now() + Math.max(0, ms), seq, callback });
      // An opaque handle, as the port's callers only hand it back to clearTimeout.
      const handle = {};
      handles.set(handle, seq);
      return handle as NodeJS.Timeout;
    },
    clearTimeout(handle) {
      const id = handles.get(handle);
      if (id !== undefined) pending.delete(id);
    },
  };
  let busy: () => boolean = () => false;
  let busyWaitMs = 50;
  let turn = () => sleep(2);
  const settle = async () => {
    await turn();
    const endMs = Date.now() + busyWaitMs;
    while (busy() && Date.now() < endMs) await sleep(2);
  };
  const nextDue = (limitMs: number) => {
    let next: { dueMs: number; seq: number; callback: () => void } | undefined;
    for (const entry of pending.values()) {
      if (entry.dueMs > limitMs) continue;
      if (!next || entry.dueMs < next.dueMs || (entry.dueMs === next.dueMs && entry.seq < next.seq))
        next = entry;
    }
    return next;
  };

  /** Moves the clock `ms` ahead in steps of at most `stepMs`, firing timers as they fall due. */
  async function advance(ms: number, stepMs = 50): Promise<void> {
    const endMs = clock.now() + ms;
    while (clock.now() < endMs) {
      const stepEnd = Math.min(endMs, clock.now() + stepMs);
      for (let due = nextDue(stepEnd); due; due = nextDue(stepEnd)) {
        pending.delete(due.seq);
        if (due.dueMs > clock.now()) clock.set(due.dueMs);
        due.callback();
        await settle();
      }
      clock.set(stepEnd);
      await settle();
    }
  }

  /** Advances fake time until `probe` holds (at most `maxMs` of fake time); returns its value. */
  async function until<T>(
    probe: () => Promise<T | undefined | false> | T | undefined | false,
    what: string,
    maxMs = 10_000,
  ): Promise<T> {
    const endMs = clock.now() + maxMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      if (clock.now() >= endMs) throw new Error(`no ${what} within ${maxMs} ms of fake time`);
      await advance(50);
    }
  }

  /**
   * Steps wait while `condition` holds, e.g. while a scheduler has jobs running: at most `maxWaitMs`
   * of real time a step (50 ms: a scheduler's probe may wait on a fake timer, which only the next
   * step fires). Where no job waits on fake time, a longer bound keeps a loaded machine's slow job
   * from seeing the clock move under it. `inProcess`: what a timer starts shows in `condition`
   * without real I/O first (SQLite, in-memory senders), so a step yields one event-loop turn
   * instead of 2 ms of real time (the notify flow's model plays hundreds of thousands of steps).
   */
  function settleWhile(
    condition: () => boolean,
    maxWaitMs = 50,
    options: { inProcess?: boolean } = {},
  ): void {
    busy = condition;
    busyWaitMs = maxWaitMs;
    turn = options.inProcess ? () => new Promise<void>((resolve) => setImmediate(resolve)) : () => sleep(2);
  }

  return { clock, timers, advance, until, settleWhile };
}

let entityCounter = 0;

/** A blueprint (once) and a fresh entity through the HTTP API; returns the entity's id and path. */
export async function createEntity(api: ApiHarness): Promise<{ id: string; path: string }> {
  const bp = await api.request('POST', '/v1/blueprints', {
    key: api.adminKey,
    body: { slug: 'svc', name: 'Service' },
  });
  expect([201, 409]).toContain(bp.status);
  entityCounter += 1;
  const slug = `svc-${entityCounter}`;
  const res = await api.request('POST', '/v1/blueprints/svc/entities', {
    key: api.adminKey,
    body: { slug, name: `Service ${entityCounter}` },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id, path: `/v1/blueprints/svc/entities/${slug}` };
}

/** An http check on `url` through POST /v1/checks (interval 1 s unless overridden). */
export async function createHttpCheck(
  api: ApiHarness,
  entityId: string,
  url: string,
  overrides: Partial<CreateCheckBody> = {},
): Promise<{ id: string }> {
  const res = await api.request('POST', '/v1/checks', {
    key: api.adminKey,
    body: {
      entity_id: entityId,
      check_type: 'http',
      target_url: url,
      interval_seconds: 1,
      timeout_ms: 5000,
      ...overrides,
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Calls the API with the admin key and expects `status`; returns the body. */
export async function call(
  api: ApiHarness,
  method: string,
  path: string,
  status: number,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
): Promise<any> {
  const res = await api.request(method, path, { key: api.adminKey, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  return res.body;
}

/** A check's results through the API (GET /v1/checks/:id/results, every page), oldest first. */
export async function resultsOf(
  api: ApiHarness,
  checkId: string,
): Promise<{ id: string; success: boolean; checked_at: string }[]> {
  const all: { id: string; success: boolean; checked_at: string }[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await call(api, 'GET', `/v1/checks/${checkId}/results?limit=500${after}`, 200);
    all.push(...page.results);
    cursor = page.next_cursor;
  } while (cursor);
  return all.reverse();
}

/** The per-check result items of a check (the push layout's), oldest first. */
export async function storedResultsOf(table: Table, checkId: string): Promise<ResultRecord[]> {
  const items = await queryAll((cursor) =>
    table.query({ pk: `CHECK#${checkId}`, sk: { op: 'beginsWith', prefix: RESULT_SK_PREFIX }, cursor }),
  );
  return items.map((item) => resultSchema.parse(item));
}

/** The cell an enabled pull check runs in (its definition names it). */
export async function cellOf(api: ApiHarness, checkId: string): Promise<{ cell_id: string; shard: number }> {
  const cell = (await getCheckDefinition(api.table, api.tenantId, checkId))?.cell;
  if (!cell) throw new Error(`check ${checkId} is in no cell`);
  return cell;
}

/** Queued cell jobs (durable local probe queue) of one cell. */
export async function queuedForCell(table: Table, cellId: string): Promise<number> {
  const jobs = await readQueuedJobs(table, PROBE_QUEUE, z.unknown());
  return jobs.filter((job) => job.id.startsWith(`cell:${cellId}:`)).length;
}

/** Per-check queue items (durable local probe queue) of one check. */
export async function queuedFor(table: Table, checkId: string): Promise<number> {
  const jobs = await readQueuedJobs(table, PROBE_QUEUE, z.unknown());
  return jobs.filter((job) => job.id.includes(`:${checkId}:`)).length;
}

/** True while a scheduler has jobs waiting for a worker, running, or being recorded. */
export function jobsInFlight(scheduler: Scheduler): boolean {
  const { waiting, running, recording } = scheduler.stats();
  return waiting + running + recording > 0;
}

/** Collects job starts, per check id. */
export function jobLog() {
  const starts: JobStart[] = [];
  return {
    starts,
    onJobStart: (start: JobStart) => {
      starts.push(start);
    },
    of: (checkId: string) => starts.filter((s) => s.job.check_id === checkId),
  };
}

/** Stores a probe job in the durable queue as a tick would have (due at `dueMs`), without timing it. */
export async function putQueuedProbe(
  table: Table,
  job: ProbeJob,
  dueMs: number,
  nextMs: number,
): Promise<void> {
  const queue = createProbeQueue({ table, clock: systemClock, logger: silentLogger });
  const { ops } = queue.enqueueOps([
    { id: probeJobId(job), body: { ...job, next_ms: nextMs }, visibleAtMs: dueMs },
  ]);
  await table.transact(ops);
}
