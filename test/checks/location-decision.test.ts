import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCheckState } from '../../lib/checks/items/check-state-items.ts';
import { slotLocationResults } from '../../lib/checks/items/location-result-items.ts';
import { locationUptimeDays } from '../../lib/checks/items/location-uptime-items.ts';
import type { LocationProbeResult } from '../../lib/checks/probing.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { createEntity, storedResultsOf } from '../local/scheduler-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { createLocatedCheck, type LocatedDriver } from './located-checks.ts';

/**
 * The deciding side of a located check (lib/checks/results/location-decision.ts) on each engine
 * (SQLite locally, DynamoDB Local in the cloud): each location's result is stored once, the slot
 * is decided by quorum as soon as it can be, the decided result names each location's part, an
 * undecidable slot is stored inconclusive without moving anything, and each location's results
 * count in its uptime day.
 */
describe.each(runtimes)('deciding a located check’s slots ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let driver: LocatedDriver;
  let checkId: string;
  /** Slots in the coming minutes: before their deadlines, so only `final` or every report decides. */
  const base = Math.floor(Date.now() / 60_000) * 60_000 + 5 * 60_000;
  const slot = (n: number) => base + n * 60_000;

  const ok = (latency_ms = 120): LocationProbeResult => ({
    success: true,
    status_code: 200,
    latency_ms,
    error_message: '',
    checked_at: isoTime(base),
  });
  const failed = (error_message: string, status_code = 0): LocationProbeResult => ({
    success: false,
    status_code,
    latency_ms: 800,
    error_message,
    checked_at: isoTime(base),
  });
  const report = (slotMs: number, location: string, result: LocationProbeResult) =>
    api.app.jobRunner.decider.report({ tenantId: api.tenantId, checkId, slotMs, location, result });
  const decide = (slotMs: number, final: boolean) =>
    api.app.jobRunner.decider.decide(api.tenantId, checkId, slotMs, final);
  const resultAt = async (slotMs: number) =>
    (await storedResultsOf(api.table, checkId)).filter((r) => r.checked_at === isoTime(slotMs));
  const transitions = async (): Promise<unknown[]> => {
    const res = await driver.call('GET', `/v1/checks/${checkId}/transitions`);
    expect(res.status).toBe(200);
    return res.body.transitions;
  };

  beforeAll(async () => {
    api = await start({ scheduler: false });
    driver = {
      table: api.table,
      tenantId: api.tenantId,
      call: (method, path, body) => api.request(method, path, { key: api.adminKey, body }),
    };
    const entity = await createEntity(api);
    checkId = await createLocatedCheck(driver, entity.id, {
      target_url: 'http://127.0.0.1:9/health',
      locations: ['default', 'office', 'eu-west-1'],
      quorum: 2,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('stores a location’s result once: the same location again is a duplicate', async () => {
    expect(await report(slot(0), 'default', ok())).toBe('recorded');
    expect(await report(slot(0), 'default', failed('refused'))).toBe('duplicate');
    const stored = await slotLocationResults(api.table, checkId, slot(0));
    expect(stored.map((r) => [r.location, r.success])).toEqual([['default', true]]);
    // One location of three: nothing is decided yet.
    expect(await resultAt(slot(0))).toEqual([]);
  });

  it('answers gone for a location the check does not name', async () => {
    expect(await report(slot(0), 'us-east-1', ok())).toBe('gone');
  });

  it('decides a failure as soon as two of three failed, naming each location’s part', async () => {
    expect(await report(slot(1), 'office', failed('', 503))).toBe('recorded');
    expect(await resultAt(slot(1))).toEqual([]);
    expect(await report(slot(1), 'eu-west-1', failed('timeout'))).toBe('recorded');
    const [decided, ...more] = await resultAt(slot(1));
    expect(more).toEqual([]);
    expect(decided).toMatchObject({
      success: false,
      // The first failure in the reports' order (by location name): eu-west-1's.
      status_code: 0,
      error_message: 'down from 2 of 3 locations: office 503, eu-west-1 timeout; default no report',
      locations: [
        { location: 'default', outcome: 'unknown', status_code: null, latency_ms: null, error_message: '' },
        { location: 'office', outcome: 'down', status_code: 503, latency_ms: 800, error_message: '' },
        { location: 'eu-west-1', outcome: 'down', status_code: 0, latency_ms: 800, error_message: 'timeout' },
      ],
    });
    expect(decided?.inconclusive).toBeUndefined();
    const state = await readCheckState(api.table, api.tenantId, checkId);
    expect(state).toMatchObject({ state: 'down', consecutive_failures: 1 });
    expect(state?.last_locations?.map((l) => l.outcome)).toEqual(['unknown', 'down', 'down']);
    expect(await transitions()).toHaveLength(1);
  });

  it('answers duplicate to a second decision of a decided slot, and to a late location', async () => {
    expect(await decide(slot(1), true)).toEqual({ status: 'duplicate' });
    // The late location's own result is kept; the slot stays decided as it was.
    expect(await report(slot(1), 'default', ok())).toBe('recorded');
    expect(await resultAt(slot(1))).toHaveLength(1);
    expect((await resultAt(slot(1)))[0]?.success).toBe(false);
  });

  it('stores an undecidable slot as inconclusive at its deadline and moves no state', async () => {
    const before = await readCheckState(api.table, api.tenantId, checkId);
    expect(await report(slot(2), 'default', ok())).toBe('recorded');
    expect(await report(slot(2), 'office', failed('refused'))).toBe('recorded');
    expect(await decide(slot(2), false)).toEqual({ status: 'waiting' });
    expect(await decide(slot(2), true)).toMatchObject({ status: 'recorded' });
    const [inconclusive] = await resultAt(slot(2));
    expect(inconclusive).toMatchObject({
      success: false,
      inconclusive: true,
      error_message:
        'inconclusive: 2 of 3 locations reported: office refused; default ok, eu-west-1 no report',
    });
    expect(inconclusive?.locations?.map((l) => l.outcome)).toEqual(['up', 'down', 'unknown']);
    const after = await readCheckState(api.table, api.tenantId, checkId);
    expect(after).toEqual(before);
    expect(await transitions()).toHaveLength(1);
    expect(await decide(slot(2), true)).toEqual({ status: 'duplicate' });
  });

  it('decides a success once more than n − quorum succeeded, and the check recovers', async () => {
    expect(await report(slot(3), 'eu-west-1', failed('timeout'))).toBe('recorded');
    expect(await report(slot(3), 'default', ok(100))).toBe('recorded');
    expect(await resultAt(slot(3))).toEqual([]);
    expect(await report(slot(3), 'office', ok(300))).toBe('recorded');
    expect(await resultAt(slot(3))).toMatchObject([
      {
        success: true,
        latency_ms: 300,
        error_message: 'up from 2 of 3 locations: eu-west-1 timeout; default ok, office ok',
      },
    ]);
    expect(await readCheckState(api.table, api.tenantId, checkId)).toMatchObject({ state: 'up' });
    expect(await transitions()).toHaveLength(2);
  });

  it('counts each location’s results in its uptime day', async () => {
    const days = await locationUptimeDays(api.table, checkId, slot(0), slot(3));
    const counted = new Map<string, { up: number; total: number }>();
    for (const day of days) {
      const sum = counted.get(day.location) ?? { up: 0, total: 0 };
      counted.set(day.location, { up: sum.up + day.up, total: sum.total + day.total });
    }
    expect(Object.fromEntries(counted)).toEqual({
      default: { up: 4, total: 4 },
      office: { up: 1, total: 3 },
      'eu-west-1': { up: 0, total: 2 },
    });
  });

  it('carries the details of a leg that decided the slot: a failed one when down, default first when up', async () => {
    const steps = (outcome: string) => ({ steps: [{ action: 'goto', outcome, ms: 40 }] });
    const withSteps = (result: LocationProbeResult, by: string) => ({
      ...result,
      details: { ...steps(result.success ? 'passed' : 'failed'), by },
    });
    expect(await report(slot(4), 'default', withSteps(ok(), 'default'))).toBe('recorded');
    expect(await report(slot(4), 'eu-west-1', withSteps(failed('timeout'), 'eu-west-1'))).toBe('recorded');
    expect(await report(slot(4), 'office', withSteps(failed('refused'), 'office'))).toBe('recorded');
    // Down from office and eu-west-1: the first failed leg in the check's order, office.
    const [down] = await resultAt(slot(4));
    expect(down).toMatchObject({ success: false, details: { ...steps('failed'), by: 'office' } });

    expect(await report(slot(5), 'office', withSteps(ok(), 'office'))).toBe('recorded');
    expect(await report(slot(5), 'default', withSteps(ok(), 'default'))).toBe('recorded');
    // Up from default and office: default's, whose screenshots are the ones kept.
    const [up] = await resultAt(slot(5));
    expect(up).toMatchObject({ success: true, details: { ...steps('passed'), by: 'default' } });
    // A late leg joins the breakdown only: the details stay the deciding leg's.
    expect(await report(slot(5), 'eu-west-1', withSteps(failed('timeout'), 'eu-west-1'))).toBe('recorded');
    expect((await resultAt(slot(5)))[0]?.details).toEqual({ ...steps('passed'), by: 'default' });
  });
});
