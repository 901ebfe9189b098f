import { describe, expect, it } from 'vitest';
import { useManualTimeRuntime } from './manual-time-runtime.ts';
import {
  call,
  cellOf,
  createEntity,
  createHttpCheck,
  queuedFor,
  resultsOf,
  startTarget,
} from './scheduler-helpers.ts';

// On fake time: the scheduler's clock and timers move only when a test advances them, while the
// probes reach real loopback targets.
describe('local scheduler: checks run on their interval against real targets', () => {
  const { api, jobs, time } = useManualTimeRuntime();
  const check = (id: string) => call(api(), 'GET', `/v1/checks/${id}`, 200);

  it('runs a pull check every interval through its cell, its results readable through the API', async () => {
    const target = await startTarget();
    const entity = await createEntity(api());
    const created = await createHttpCheck(api(), entity.id, target.url);
    try {
      expect((await cellOf(api(), created.id)).cell_id).toMatch(/^cel_/);
      await time.until(async () => (await resultsOf(api(), created.id)).length >= 4, 'four results');
      // One job per slot of its cell (1 s apart), each a probe of the check at the target.
      const due = jobs.of(created.id).map((s) => s.dueMs);
      expect(due.slice(1).map((ms, i) => ms - (due[i] ?? 0))).toEqual(due.slice(1).map(() => 1000));
      expect(target.hits).toBeGreaterThanOrEqual(4);
      const results = await resultsOf(api(), created.id);
      expect(results.every((r) => r.success)).toBe(true);
      expect(new Set(results.map((r) => r.id)).size).toBe(results.length);
      // One result per slot: checked_at is the slot plus the probe's start offset (well under a second).
      const slots = results.map((r) => Math.floor(Date.parse(r.checked_at) / 1000));
      expect(new Set(slots).size).toBe(slots.length);
      const shown = await check(created.id);
      expect(shown).toMatchObject({ state: 'up' });
      expect(Date.parse(shown.last_result_at)).toBeGreaterThan(0);
    } finally {
      await call(api(), 'DELETE', `/v1/checks/${created.id}`, 204);
      await target.close();
    }
  });

  it('goes down exactly at the 3rd consecutive failure and up on the next success', async () => {
    // Prepare: request 1 succeeds, 2-4 fail, the rest succeed; holding requests makes each state observable.
    const target = await startTarget((n) => (n >= 2 && n <= 4 ? 500 : 200));
    target.holdFrom(4);
    const entity = await createEntity(api());
    const created = await createHttpCheck(api(), entity.id, target.url, { failure_threshold: 3 });
    try {
      // Assess: after one success and two failures (the 3rd failure is held) the check is still up.
      await time.until(() => target.hits >= 4, 'the 4th request');
      await time.until(async () => (await resultsOf(api(), created.id)).length === 3, '3 results');
      expect(await check(created.id)).toMatchObject({ state: 'up', consecutive_failures: 2 });

      // Act: answer the 3rd failure, hold the success after it.
      target.holdFrom(5);
      target.releaseThrough(4);
      await time.until(() => target.hits >= 5, 'the 5th request');
      await time.until(async () => (await resultsOf(api(), created.id)).length === 4, '4 results');
      expect(await check(created.id)).toMatchObject({ state: 'down', consecutive_failures: 3 });
      expect((await call(api(), 'GET', entity.path, 200)).state).toBe('down');
      const board = await call(api(), 'GET', '/v1/status', 200);
      expect(board.entities.find((e: { id: string }) => e.id === entity.id)?.state).toBe('down');

      // Act: let the success through.
      target.holdFrom(Number.POSITIVE_INFINITY);
      target.releaseThrough(Number.POSITIVE_INFINITY);
      await time.until(async () => (await check(created.id)).state === 'up', 'recovery');

      // Assess: the results, the check's transitions and the status board tell the same story.
      const results = await resultsOf(api(), created.id);
      expect(results.slice(0, 5).map((r) => r.success)).toEqual([true, false, false, false, true]);
      const { transitions } = await call(api(), 'GET', `/v1/checks/${created.id}/transitions`, 200);
      const changes = (kind: string) =>
        transitions
          .filter((t: { kind?: string }) => (t.kind ?? 'check') === kind)
          .map((t: { from_state: string; to_state: string }) => `${t.from_state}>${t.to_state}`)
          .reverse();
      expect(changes('check')).toEqual(['unknown>up', 'up>down', 'down>up']);
      const upEntity = await call(api(), 'GET', entity.path, 200);
      expect(upEntity.state).toBe('up');
      const status = await call(api(), 'GET', '/v1/status', 200);
      expect(status.entities.find((e: { id: string }) => e.id === entity.id)?.state).toBe('up');
      const feed = await call(api(), 'GET', '/v1/status/transitions', 200);
      const entityChanges = feed.transitions
        .filter((t: { entity_id: string }) => t.entity_id === entity.id)
        .map((t: { from_state: string; to_state: string }) => `${t.from_state}>${t.to_state}`)
        .reverse();
      expect(entityChanges).toEqual(['unknown>up', 'up>down', 'down>up']);
    } finally {
      await call(api(), 'DELETE', `/v1/checks/${created.id}`, 204);
      await target.close();
    }
  });

  it('stops probing a check once it is disabled (it leaves its cell)', async () => {
    const target = await startTarget();
    const entity = await createEntity(api());
    const created = await createHttpCheck(api(), entity.id, target.url);
    try {
      await time.until(() => target.hits >= 2, 'two probes');
      await call(api(), 'PUT', `/v1/checks/${created.id}`, 200, { enabled: false });
      const hitsAtDisable = target.hits;
      await time.advance(2500);
      // At most a probe that had already read the check before the update.
      expect(target.hits).toBeLessThanOrEqual(hitsAtDisable + 1);
      expect(await queuedFor(api().table, created.id)).toBe(0);
      expect((await check(created.id)).next_run_at).toBeNull();
      await time.advance(2000);
      expect(target.hits).toBeLessThanOrEqual(hitsAtDisable + 1);
    } finally {
      await target.close();
    }
  });

  it('stops probing a check once it is deleted (it leaves its cell)', async () => {
    const target = await startTarget();
    const entity = await createEntity(api());
    const created = await createHttpCheck(api(), entity.id, target.url);
    try {
      await time.until(() => target.hits >= 2, 'two probes');
      await call(api(), 'DELETE', `/v1/checks/${created.id}`, 204);
      const hitsAtDelete = target.hits;
      await time.advance(2500);
      expect(target.hits).toBeLessThanOrEqual(hitsAtDelete + 1);
      expect(await queuedFor(api().table, created.id)).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('applies an interval change from the first slot of its new cell, keeping the slot spacing exact', async () => {
    const target = await startTarget();
    const entity = await createEntity(api());
    const created = await createHttpCheck(api(), entity.id, target.url);
    try {
      await time.until(() => jobs.of(created.id).length >= 2, 'two runs');
      await call(api(), 'PUT', `/v1/checks/${created.id}`, 200, { interval_seconds: 2 });
      const changedAt = time.clock.now();
      const gaps = () => {
        const due = jobs.of(created.id).map((s) => s.dueMs);
        return due.slice(1).map((ms, i) => ({ gap: ms - (due[i] ?? 0), afterChange: ms > changedAt }));
      };
      await time.until(() => gaps().filter((g) => g.gap === 2000).length >= 2, 'two runs 2 s apart', 9000);

      const all = gaps();
      // The check moves to a cell of the new interval, on that cell's phase: one gap (the move);
      // before it the old spacing, after it the new one. The new cell's first slot is the first after
      // its shard's lease (sent through the tick window, 1 s + 0.5 s lookahead, past the change) and
      // the last old run at most one old interval before the change: the move is at most
      // 1 s + 1.5 s + 2 s.
      const move = all.findIndex((g) => g.gap !== 1000);
      expect(move).toBeGreaterThanOrEqual(0);
      expect(all[move]?.gap).toBeGreaterThan(0);
      expect(all[move]?.gap).toBeLessThanOrEqual(4500);
      expect(all.slice(move + 1).every((g) => g.gap === 2000)).toBe(true);
      // Only runs already queued when the change was made (at most the tick window) keep the old spacing.
      expect(all.filter((g) => g.afterChange && g.gap === 1000).length).toBeLessThanOrEqual(2);
      // The last job first: a slot generated between the two reads moves next_run_at on by one
      // interval (ahead 4 s), where the other order could read a next_run_at equal to that slot (0).
      // A tick still writing when the two reads happen can show one before the other: read both
      // again (bounded) until they are of one moment, as a user reloading would.
      const ahead = async () => {
        const lastDue = jobs.of(created.id).at(-1)?.dueMs ?? 0;
        const stored = await check(created.id);
        return Date.parse(stored.next_run_at) - lastDue;
      };
      // Fake time moves while it waits: a job whose start a loaded machine has not logged yet (or
      // a tick still writing) is seen at the next step, where stopped time could keep the two reads
      // apart for good.
      const seen: number[] = [];
      await time
        .until(
          async () => {
            const ms = await ahead();
            seen.push(ms);
            return ms > 0 && ms % 2000 === 0;
          },
          'next_run_at a whole number of new intervals after the last run',
          6000,
        )
        .catch((err: unknown) => {
          throw new Error(
            `${String(err)}; next_run_at minus the last run read ${seen.slice(-5).join(', ')} ms`,
          );
        });
    } finally {
      await call(api(), 'DELETE', `/v1/checks/${created.id}`, 204);
      await target.close();
    }
  });
});
