import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../lib/app.ts';
import { recordPushStart } from '../../lib/checks/probing.ts';
import type { Table } from '../../lib/store/table.ts';
import {
  type CloudHarness,
  createEntity as createCloudEntity,
  runGeneratorMinute,
  startCloudHarness,
} from '../cloud/support.ts';
import { createEntity, eventually, jobsInFlight, manualTime } from '../local/scheduler-helpers.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';

/**
 * The dead man's switch on cron schedules across DST changes, driven by each runtime's own
 * scheduler on a fake clock (the local tick loop and timer heap; the cloud's generator minute,
 * probe queue and worker): `30 2 * * *` in Europe/Berlin over the last Sundays of March and
 * October 2026 and in America/New_York over 8 March; a run started and never finished over New
 * York's 1 November. One synthetic failure per missed expected run, at expected time + grace,
 * saying what was missed; the next deadline is the schedule's next time in its zone.
 */

interface Driver {
  // biome-ignore lint/suspicious/noExplicitAny: API answers are inspected freely
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  clock: { now(): number; set(ms: number): void };
  entityId(): Promise<string>;
  /** Lets the runtime's scheduler run everything due up to `ms`; the clock ends at or just past it. */
  runTo(ms: number): Promise<void>;
  app(): { app: App; table: Table; tenantId: string };
}

const at = (iso: string) => Date.parse(iso);
const nightly = (timezone: string) => ({ schedule: { cron: '30 2 * * *', timezone } });

interface Nights {
  timezone: string;
  heartbeatAt: string;
  deadline: string;
  message: string;
  next: string;
  nextMessage: string;
}

const nights: Record<string, Nights> = {
  'New York, 8 March (02:30 skipped: 03:00 EDT)': {
    timezone: 'America/New_York',
    heartbeatAt: '2026-03-07T07:31:00.000Z',
    deadline: '2026-03-08T08:00:00.000Z',
    message: 'expected at 2026-03-08 03:00 America/New_York (+1 h grace): no success received',
    next: '2026-03-09T07:30:00.000Z',
    nextMessage: 'expected at 2026-03-09 02:30 America/New_York (+1 h grace): no success received',
  },
  'Berlin, 29 March (02:30 skipped: 03:00 CEST)': {
    timezone: 'Europe/Berlin',
    heartbeatAt: '2026-03-28T01:31:00.000Z',
    deadline: '2026-03-29T02:00:00.000Z',
    message: 'expected at 2026-03-29 03:00 Europe/Berlin (+1 h grace): no success received',
    next: '2026-03-30T01:30:00.000Z',
    nextMessage: 'expected at 2026-03-30 02:30 Europe/Berlin (+1 h grace): no success received',
  },
  'Berlin, 25 October (02:30 twice: the first, CEST)': {
    timezone: 'Europe/Berlin',
    heartbeatAt: '2026-10-24T00:31:00.000Z',
    deadline: '2026-10-25T01:30:00.000Z',
    message: 'expected at 2026-10-25 02:30 Europe/Berlin (+1 h grace): no success received',
    next: '2026-10-26T02:30:00.000Z',
    nextMessage: 'expected at 2026-10-26 02:30 Europe/Berlin (+1 h grace): no success received',
  },
};

/** The results of a check, newest first. */
const resultsOf = async (d: Driver, id: string) =>
  (await d.call('GET', `/v1/checks/${id}/results`)).body.results as {
    success: boolean;
    synthetic?: boolean;
    checked_at: string;
    error_message: string;
  }[];

/** Waits (bounded) until the check has `count` results; returns them. */
const resultsCount = (d: Driver, id: string, count: number) =>
  eventually(async () => {
    const results = await resultsOf(d, id);
    return results.length >= count && results;
  }, `${count} results`);

async function pushCheck(d: Driver, config: Record<string, unknown>): Promise<string> {
  const created = await d.call('POST', '/v1/checks', {
    entity_id: await d.entityId(),
    check_type: 'push',
    failure_threshold: 1,
    config,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function missedNights(d: Driver, n: Nights) {
  d.clock.set(at(n.heartbeatAt) - 60_000);
  const id = await pushCheck(d, nightly(n.timezone));
  d.clock.set(at(n.heartbeatAt));
  expect((await d.call('POST', `/v1/checks/${id}/heartbeat`)).status).toBe(201);
  expect((await d.call('GET', `/v1/checks/${id}`)).body.next_run_at).toBe(n.deadline);

  // Two minutes before expected time + grace: nothing yet.
  await d.runTo(at(n.deadline) - 120_000);
  expect((await d.call('GET', `/v1/checks/${id}`)).body.state).toBe('up');
  expect(await resultsOf(d, id)).toHaveLength(1);

  await d.runTo(at(n.deadline));
  const [missed] = await resultsCount(d, id, 2);
  expect(missed).toMatchObject({
    success: false,
    synthetic: true,
    checked_at: n.deadline,
    error_message: n.message,
  });
  const down = (await d.call('GET', `/v1/checks/${id}`)).body;
  expect(down).toMatchObject({ state: 'down', next_run_at: n.next });

  // Silent on: the next night's run is missed once, at its own expected time + grace.
  await d.runTo(at(n.next) - 120_000);
  expect(await resultsOf(d, id)).toHaveLength(2);
  await d.runTo(at(n.next));
  const [again] = await resultsCount(d, id, 3);
  expect(again).toMatchObject({ synthetic: true, checked_at: n.next, error_message: n.nextMessage });
  expect((await d.call('PUT', `/v1/checks/${id}`, { enabled: false })).status).toBe(200);
}

/** New York, 1 November: a run started at 02:29:30 EST (just before its 02:30) never ends: it fails at its start + 1 h. */
async function unfinishedRun(d: Driver) {
  d.clock.set(at('2026-10-31T06:30:00.000Z'));
  const id = await pushCheck(d, nightly('America/New_York'));
  d.clock.set(at('2026-10-31T06:31:00.000Z'));
  expect((await d.call('POST', `/v1/checks/${id}/heartbeat`)).status).toBe(201);
  const startedAtMs = at('2026-11-01T07:29:30.000Z');
  await d.runTo(startedAtMs - 60_000);
  d.clock.set(startedAtMs);
  const { app, table, tenantId } = d.app();
  const started = await recordPushStart(
    { table, checks: app.jobRunner.checks, dueShards: app.config.dueShards },
    {
      tenantId,
      checkId: id,
      startedAtMs,
    },
  );
  expect(started).toEqual({ status: 'started', nextRunAt: '2026-11-01T08:29:30.000Z' });

  await d.runTo(at('2026-11-01T08:29:30.000Z'));
  const [unfinished] = await resultsCount(d, id, 2);
  expect(unfinished).toMatchObject({
    synthetic: true,
    checked_at: '2026-11-01T08:29:30.000Z',
    error_message: 'started at 2026-11-01 02:29:30 America/New_York but did not finish within 3600 s',
  });
  // The run ended with its failure: the next deadline is the schedule's (2 November 02:30 EST + 1 h).
  expect((await d.call('GET', `/v1/checks/${id}`)).body).toMatchObject({
    state: 'down',
    next_run_at: '2026-11-02T08:30:00.000Z',
  });
  await d.runTo(at('2026-11-02T08:30:00.000Z'));
  const [late] = await resultsCount(d, id, 3);
  expect(late?.error_message).toBe(
    'expected at 2026-11-02 02:30 America/New_York (+1 h grace): no success received',
  );
  expect((await d.call('PUT', `/v1/checks/${id}`, { enabled: false })).status).toBe(200);
}

describe('push schedules across DST on the local scheduler (tick loop and timer heap on fake time)', () => {
  let api: LocalHarness;
  const time = manualTime(at('2026-03-01T00:00:00.300Z'));
  let entity: string | undefined;
  const driver: Driver = {
    call: (method, path, body) => api.request(method, path, { key: api.adminKey, body }),
    clock: time.clock,
    entityId: async () => {
      entity ??= (await createEntity(api)).id;
      return entity;
    },
    async runTo(ms) {
      if (time.clock.now() < ms - 1000) time.clock.set(ms - 1000);
      await time.advance(2500);
    },
    app: () => ({ app: api.app, table: api.table, tenantId: api.tenantId }),
  };

  beforeAll(async () => {
    api = await startLocalHarness({ clock: time.clock, scheduler: { timers: time.timers } });
    time.settleWhile(() => jobsInFlight(api.local.scheduler));
  });
  afterAll(async () => {
    await api.close();
  });

  for (const [name, n] of Object.entries(nights)) {
    it(`misses each night once: ${name}`, () => missedNights(driver, n));
  }
  it('fails a run started and not finished within the grace, then expects the schedule again', () =>
    unfinishedRun(driver));
});

describe('push schedules across DST in the cloud runtime (generator minute, probe queue, worker)', () => {
  let h: CloudHarness;
  let entity: string | undefined;
  const driver: Driver = {
    async call(method, path, body) {
      return h.api(method, path, body);
    },
    clock: { now: () => h.clock.now(), set: (ms) => h.clock.set(ms) },
    entityId: async () => {
      entity ??= await createCloudEntity(h, 'nightly');
      return entity;
    },
    async runTo(ms) {
      h.clock.set(Math.max(h.clock.now(), Math.floor(ms / 60_000) * 60_000));
      await runGeneratorMinute(h);
      if (h.clock.now() < ms) h.clock.set(ms);
    },
    app: () => ({ app: h.app, table: h.table, tenantId: h.tenantId }),
  };

  beforeAll(async () => {
    h = await startCloudHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  for (const [name, n] of Object.entries(nights)) {
    it(`misses each night once: ${name}`, () => missedNights(driver, n));
  }
  it('fails a run started and not finished within the grace, then expects the schedule again', () =>
    unfinishedRun(driver));
});
