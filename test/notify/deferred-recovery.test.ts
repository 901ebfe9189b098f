import { describe, expect, it } from 'vitest';
import { payloadKindOf } from '../../lib/notify/items/payload-kind.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { flowHarnessPerTest } from './support/flow-harness.ts';

/**
 * Resolved notices are never lost (issue 35, "Storm": 989 recoveries skipped `cooldown: 181 s
 * left`): a recovery inside the cooldown is deferred to the cooldown's end and sent then, on the
 * local runtime's real flow (SQLite table, change feed, durable notify queue, job runner) on fake
 * time. The cloud path: test/cloud/deferred-recovery-flow.test.ts.
 */

const h = flowHarnessPerTest();

const rows = (logs: { status: string; reason: string | null; kind: string; channel_id: string | null }[]) =>
  logs.map((l) => `${l.kind}:${l.status}${l.reason ? `:${l.reason}` : ''}`);

/** An entity with a push check, a channel and a 300 s cooldown, whose down alert was sent. */
async function downAlerted() {
  const fixture = await h.entityWithCheck('Web node 1');
  const channel = await h.channel(fixture.checkId);
  await h.policy(fixture.checkId, { cooldown_seconds: 300 });
  await h.result(fixture.checkId, false);
  expect(h.sent.map((s) => s.alert.event.to_state)).toEqual(['down']);
  const dueMs = (h.sent[0]?.atMs ?? 0) + 300_000;
  return { ...fixture, channel, dueMs };
}

describe('a recovery inside the cooldown', () => {
  it('is deferred (logged with its due time) and sent at the cooldown’s end as a recovery', async () => {
    const { checkId, dueMs } = await downAlerted();
    await h.time.advance(100_000, 5000);
    await h.result(checkId, true);
    expect(h.sent).toHaveLength(1);
    const deferred = `alert:deferred:deferred: cooldown, due ${isoTime(dueMs)}`;
    expect(rows(await h.logs(checkId))).toEqual([deferred, 'alert:sent']);

    await h.time.advance(dueMs - h.time.clock.now() - 2000, 1000);
    expect(h.sent).toHaveLength(1);
    await h.time.advance(5000, 1000);
    expect(h.sent.map((s) => `${s.alert.event.from_state}->${s.alert.event.to_state}`)).toEqual([
      'unknown->down',
      'down->up',
    ]);
    const recovery = h.sent[1];
    expect(recovery && payloadKindOf(recovery.alert.kind, recovery.alert.event)).toBe('recovery');
    expect(recovery?.atMs).toBeGreaterThanOrEqual(dueMs);
    // The log shows the deferral, then the send under a record of its own.
    expect(rows(await h.logs(checkId))).toEqual(['alert:sent', deferred, 'alert:sent']);
  });

  it('is cancelled by a down before it is due: nothing is sent and the deferred row says so', async () => {
    const { checkId, dueMs } = await downAlerted();
    await h.time.advance(100_000, 5000);
    await h.result(checkId, true);
    await h.time.advance(50_000, 5000);
    await h.result(checkId, false);
    await h.time.advance(dueMs - h.time.clock.now() + 10_000, 5000);
    expect(h.sent.map((s) => s.alert.event.to_state)).toEqual(['down']);
    const logs = rows(await h.logs(checkId));
    expect(logs[0]).toMatch(/^alert:skipped:cooldown: \d+ s left$/);
    expect(logs[1]).toBe(
      `alert:skipped:deferred: cooldown, due ${isoTime(dueMs)}; cancelled: Web node 1 changed again before it was due`,
    );
  });

  it('goes only to channels that were told of the down', async () => {
    const { checkId, channel, dueMs } = await downAlerted();
    const later = await h.channel(checkId);
    await h.time.advance(100_000, 5000);
    await h.result(checkId, true);
    await h.time.advance(dueMs - h.time.clock.now() + 5000, 1000);
    expect(h.sent.map((s) => `${s.channel.id}:${s.alert.event.to_state}`)).toEqual([
      `${channel.id}:down`,
      `${channel.id}:up`,
    ]);
    const toLater = (await h.logs(checkId)).filter((l) => l.channel_id === later.id);
    expect(rows(toLater)).toEqual([
      `alert:skipped:deferred: cooldown, due ${isoTime(dueMs)}; not sent: this channel was not told of the down`,
    ]);
  });

  it('sends nothing twice when its job is delivered again', async () => {
    const { checkId, dueMs } = await downAlerted();
    await h.time.advance(100_000, 5000);
    await h.result(checkId, true);
    await h.time.advance(dueMs - h.time.clock.now() + 5000, 1000);
    expect(h.sent).toHaveLength(2);
    const event = h.sent[1]?.alert.event;
    if (!event) throw new Error('no recovery');
    await h.notifier.handle({
      id: 'rcv:again',
      body: { kind: 'recovery_due', event, due_ms: dueMs },
      attempt: 1,
      receipt: 'r',
    });
    await h.settle();
    expect(h.sent).toHaveLength(2);
    expect(await h.logs(checkId)).toHaveLength(3);
  });

  it('is still dropped for good when recovery alerts are off', async () => {
    const { checkId } = await downAlerted();
    await h.policy(checkId, { notify_on_recovery: false });
    await h.time.advance(100_000, 5000);
    await h.result(checkId, true);
    await h.time.advance(400_000, 10_000);
    expect(h.sent).toHaveLength(1);
    expect(rows(await h.logs(checkId))[0]).toBe('alert:skipped:recovery alerts are off');
  });
});
