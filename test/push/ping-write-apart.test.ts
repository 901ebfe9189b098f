import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../lib/store/table.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * A ping's plain success is written apart, not in a transaction (issue 78 point 6,
 * docs/data-model.md "A ping's writes"): the check's state first (held on its version), then the
 * result, then its run of unknown duration. A crash between the state and the result loses only
 * the result's line: the state has moved (last push, deadline re-armed), the ping is not answered
 * OK, and the job's retry records once more without moving anything twice. The crash is a failure
 * injected into the runtime's own table (SQLite, DynamoDB Local) at the result's write.
 */

/** Makes the next single write of a result item throw, as a crash after the state's write would. */
function failNextResultWrite(table: Table): { injected: () => number } {
  let injected = 0;
  let armed = true;
  const transact = table.transact.bind(table);
  table.transact = async (ops: WriteOp[]) => {
    const [only] = ops;
    const isResult = only?.type === 'put' && String(only.item.sk).startsWith('RES#');
    if (armed && ops.length === 1 && isResult) {
      armed = false;
      injected += 1;
      throw new Error('injected: the process stopped before the result was written');
    }
    return transact(ops);
  };
  return { injected: () => injected };
}

/**
 * Before the next single update of a check's state that a result writes (`last_push_at` set), runs
 * `between` (another writer of the state), as a concurrent API write landing in between would.
 */
function writeBetweenReadAndState(table: Table, between: () => Promise<unknown>): { ran: () => number } {
  let ran = 0;
  let armed = true;
  const transact = table.transact.bind(table);
  table.transact = async (ops: WriteOp[]) => {
    const [only] = ops;
    const isStateOfResult = only?.type === 'update' && only.set?.last_push_at !== undefined;
    if (armed && ops.length === 1 && isStateOfResult) {
      armed = false;
      ran += 1;
      await between();
    }
    return transact(ops);
  };
  return { ran: () => ran };
}

/**
 * Makes the next single update of a check's state that a result writes land, then answer as a
 * write whose answer was lost and which was sent again: refused on the version it just moved.
 */
function loseNextStateAnswer(table: Table): { lost: () => number } {
  let lost = 0;
  let armed = true;
  const transact = table.transact.bind(table);
  table.transact = async (ops: WriteOp[]) => {
    const [only] = ops;
    const isStateOfResult = only?.type === 'update' && only.set?.last_push_at !== undefined;
    await transact(ops);
    if (armed && ops.length === 1 && isStateOfResult) {
      armed = false;
      lost += 1;
      throw new ConditionFailedError([0]);
    }
  };
  return { lost: () => lost };
}

describe.each(bothRuntimes)('a plain success written apart ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it('moves the state before its result: a failure between them loses only the result, and the retry records once', async () => {
    const { checkId, token } = await kit.pushCheck({ interval_seconds: 60, config: { grace_seconds: 60 } });
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    const up = await kit.state(checkId);
    expect(up.state).toBe('up');
    const transitions = async () =>
      (await kit.call('GET', `/v1/checks/${checkId}/transitions`)).body.transitions.length;
    const movedBefore = await transitions();

    clock.advance(60_000);
    const failedAt = new Date(clock.now()).toISOString();
    const fault = failNextResultWrite(api.table);
    const failed = await api.request('GET', `/ping/${token}`);
    expect(fault.injected()).toBe(1);
    expect(failed.status).toBe(500);
    // The state moved with the ping (its last push, the deadline re-armed after it); its result did not land.
    const moved = await kit.state(checkId);
    expect(moved).toMatchObject({ state: 'up', last_push_at: failedAt, version: up.version + 1 });
    expect(Date.parse(moved.next_run_at ?? '') - Date.parse(up.next_run_at ?? '')).toBe(60_000);
    expect((await kit.results(checkId)).map((r) => r.checked_at)).not.toContain(failedAt);

    // The job sends it again: recorded once, nothing moved twice.
    clock.advance(1_000);
    const retriedAt = new Date(clock.now()).toISOString();
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    const after = await kit.state(checkId);
    expect(after).toMatchObject({ state: 'up', consecutive_failures: 0, last_push_at: retriedAt });
    expect(after.version).toBe(moved.version + 1);
    const results = await kit.results(checkId);
    expect(results.filter((r) => r.checked_at === retriedAt)).toHaveLength(1);
    expect(results).toHaveLength(2);
    expect(await transitions()).toBe(movedBefore);
    const runs = (await kit.call('GET', `/v1/checks/${checkId}/runs`)).body.runs;
    expect(runs.map((r: { ended_at: string }) => r.ended_at)).toEqual([retriedAt, up.last_push_at]);
  });

  it('counts once when its state update landed but its answer was lost and the write, sent again, is refused', async () => {
    const { checkId, token } = await kit.pushCheck({ interval_seconds: 60, config: { grace_seconds: 60 } });
    // Both pings in one 5-minute bucket: the second's state update is a single write.
    clock.set(Math.ceil(clock.now() / 300_000) * 300_000 + 1_000);
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    const up = await kit.state(checkId);
    clock.advance(1_000);
    const at = new Date(clock.now()).toISOString();
    const lost = loseNextStateAnswer(api.table);
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    expect(lost.lost()).toBe(1);
    // One write of the state (not read as another writer's and applied again), its bucket counting two pings.
    const after = await kit.state(checkId);
    expect(after).toMatchObject({ last_push_at: at, version: up.version + 1 });
    expect(after.current_rollup?.bucket_start).toBe(up.current_rollup?.bucket_start);
    expect(after.current_rollup?.total).toBe((up.current_rollup?.total ?? 0) + 1);
    expect((await kit.results(checkId)).filter((r) => r.checked_at === at)).toHaveLength(1);
  });

  it('is read again and retried when its state update is refused on its version (an API write in between): recorded once', async () => {
    const { checkId, token } = await kit.pushCheck({ interval_seconds: 60, config: { grace_seconds: 60 } });
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    const up = await kit.state(checkId);
    clock.advance(60_000);
    const at = new Date(clock.now()).toISOString();
    const write = writeBetweenReadAndState(api.table, async () => {
      const changed = await kit.call('PUT', `/v1/checks/${checkId}`, { config: { grace_seconds: 180 } });
      expect(changed.status, changed.text).toBe(200);
    });
    expect((await api.request('GET', `/ping/${token}`)).status).toBe(200);
    expect(write.ran()).toBe(1);
    // Recorded against the check as the API left it (its deadline after the new grace), once.
    const after = await kit.state(checkId);
    expect(after).toMatchObject({ state: 'up', last_push_at: at, version: up.version + 2 });
    expect(Date.parse(after.next_run_at ?? '')).toBe(clock.now() + 180_000);
    expect((await kit.results(checkId)).filter((r) => r.checked_at === at)).toHaveLength(1);
    const runs = (await kit.call('GET', `/v1/checks/${checkId}/runs`)).body.runs;
    expect(runs.filter((r: { ended_at: string }) => r.ended_at === at)).toHaveLength(1);
  });
});
