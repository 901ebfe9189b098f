import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleExecutionId } from '../../lib/actions/job-ids.ts';
import { claimDueActions, commitScheduleClaims, enqueueClaimed } from '../../lib/actions/schedule.ts';
import { shardOf } from '../../lib/domain/schedules/schedule.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';
import { type ActionHarness, startActionHarness } from './support/action-harness.ts';

const MINUTE = 60_000;

describe('schedule actions on the local flow (fake time)', () => {
  let h: ActionHarness;

  beforeEach(async () => {
    h = await startActionHarness();
  });

  afterEach(async () => {
    await h.close();
  });

  const scheduled = (extra: Record<string, unknown> = {}) =>
    h.action({
      trigger_type: 'schedule',
      interval_seconds: 60,
      url: `${h.receiverUrl}/tick?at={{timestamp}}`,
      method: 'POST',
      body_template: '{"action":"{{action_id}}","execution":"{{execution_id}}"}',
      ...extra,
    });

  /** Moves fake time on in one-second steps, running the schedule tick and the jobs it enqueues. */
  const advance = async (ms: number) => {
    await h.time.advance(ms, 1000);
    await h.runner.idle();
  };

  it('runs every interval, one execution per slot', async () => {
    const action = await scheduled();
    const firstSlotMs = Date.parse(action.next_run_at ?? '');
    expect(firstSlotMs - h.time.clock.now()).toBe(MINUTE);
    h.schedule.start();

    await advance(MINUTE - 2000);
    expect(h.received).toHaveLength(0);
    await advance(3 * MINUTE + 2000);

    expect(h.received).toHaveLength(4);
    const executions = await h.executions(action.id);
    expect(executions.map((e) => e.trigger)).toEqual(['schedule', 'schedule', 'schedule', 'schedule']);
    const slots = [0, 1, 2, 3].map((n) => firstSlotMs + n * MINUTE);
    expect(executions.map((e) => e.id).sort()).toEqual(
      slots.map((slot) => scheduleExecutionId(action.id, slot)).sort(),
    );
    // Each run started within a tick of its slot.
    for (const [i, got] of h.received.entries()) {
      expect(got.atMs - (slots[i] ?? 0)).toBeGreaterThanOrEqual(0);
      expect(got.atMs - (slots[i] ?? 0)).toBeLessThanOrEqual(1000);
      expect(JSON.parse(got.body)).toMatchObject({ action: action.id });
    }
  });

  it('runs once after a downtime of many intervals, not a burst, and keeps its interval after', async () => {
    const action = await scheduled();
    h.schedule.start();
    await advance(MINUTE + 1000);
    expect(h.received).toHaveLength(1);

    // Down for 30 minutes: nothing ticks meanwhile.
    await h.schedule.stop();
    h.time.clock.set(h.time.clock.now() + 30 * MINUTE);
    const restarted = h.restartSchedule();
    restarted.start();
    await advance(1000);

    expect(h.received).toHaveLength(2);
    const stored = await h.app.actions.get(h.tenantId, action.id);
    const nextMs = Date.parse(stored?.next_run_at ?? '');
    expect(nextMs).toBeGreaterThan(h.time.clock.now());
    expect(nextMs - h.time.clock.now()).toBeLessThanOrEqual(MINUTE);

    await advance(MINUTE);
    expect(h.received).toHaveLength(3);
    expect(await h.executions(action.id)).toHaveLength(3);
  });

  it('stops running once the action is deleted', async () => {
    const action = await scheduled();
    h.schedule.start();
    await advance(MINUTE + 1000);
    expect(h.received).toHaveLength(1);

    await h.call('DELETE', `/v1/actions/${action.id}`, undefined, 204);
    await advance(5 * MINUTE);

    expect(h.received).toHaveLength(1);
  });

  it('runs a slot once when two claimers race for it (the local tick and the cloud generator path)', async () => {
    const action = await scheduled();
    h.time.clock.set(Date.parse(action.next_run_at ?? '') + 10);
    const nowMs = h.time.clock.now();
    const shard = shardOf(action.id, h.app.config.dueShards);
    const deps = { table: h.table, logger: silentLogger, dueShards: h.app.config.dueShards };
    const cloudQueue = memoryJobQueue<Parameters<typeof enqueueClaimed>[1][number]['body']>('action');

    const [local, other, cloud] = await Promise.all([
      commitScheduleClaims({ ...deps, queue: h.queue }, nowMs, shard),
      commitScheduleClaims({ ...deps, queue: h.queue }, nowMs, shard),
      claimDueActions(deps, nowMs, shard),
    ]);
    const sent = await enqueueClaimed({ queue: cloudQueue, logger: silentLogger }, cloud);

    expect(local + other + sent).toBe(1);
    // Whoever won, the job runs once (the cloud's on this process's queue here).
    if (cloudQueue.enqueued.length > 0) await h.queue.enqueue(cloudQueue.enqueued);
    await advance(1000);
    expect(h.received).toHaveLength(1);
    expect(await h.executions(action.id)).toHaveLength(1);
    // The slot is gone from the index: another pass claims nothing.
    expect(await claimDueActions(deps, nowMs, shard)).toEqual([]);
  });

  it('runs a run job enqueued twice for the same slot once', async () => {
    const action = await scheduled();
    h.time.clock.set(Date.parse(action.next_run_at ?? '') + 10);
    const deps = { table: h.table, logger: silentLogger, dueShards: h.app.config.dueShards };
    const jobs = await claimDueActions(deps, h.time.clock.now(), shardOf(action.id, h.app.config.dueShards));
    expect(jobs).toHaveLength(1);

    await h.queue.enqueue(jobs);
    await advance(1000);
    await h.queue.enqueue(jobs);
    await advance(1000);

    expect(h.received).toHaveLength(1);
    expect(await h.executions(action.id)).toHaveLength(1);
  });
});
