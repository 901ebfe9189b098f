import { describe, expect, it } from 'vitest';
import { describeAlert } from '../../lib/notify/channels/message.ts';
import { eventPayload } from '../../lib/notify/channels/payload.ts';
import { getFlapState } from '../../lib/notify/pipeline/flap-state-items.ts';
import { flapOutcomeIfChanged } from '../../lib/notify/pipeline/flapping.ts';
import { flowHarnessPerTest } from './support/flow-harness.ts';

/** Issue 35 item 5: flap detection in the local flow (SQLite, change feed, notify queue, fake time). */

const h = flowHarnessPerTest();

const kinds = () => h.sent.map((s) => `${s.alert.kind}:${s.alert.event.to_state}`);
/** `n` changes: down, up, down, … (a push check of threshold 1: each result is a change). */
async function flap(checkId: string, n: number, startDown = true) {
  for (let i = 0; i < n; i += 1) {
    await h.result(checkId, (i % 2 === 0) !== startDown);
    await h.time.advance(10_000, 5000);
  }
}

describe('flapping', () => {
  it('sends one flapping notice past 6 changes in 30 minutes, holds the alerts, then sends the settled state', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { cooldown_seconds: 0 });
    // Six changes are alerts as usual (the defaults: more than 6 in 1,800 s is flapping).
    await flap(checkId, 6);
    expect(kinds()).toEqual(['alert:down', 'alert:up', 'alert:down', 'alert:up', 'alert:down', 'alert:up']);
    // The seventh is flapping: one notice instead of its alert.
    await flap(checkId, 1);
    expect(kinds().slice(6)).toEqual(['flapping:down']);
    const notice = h.sent[6]?.alert;
    if (!notice) throw new Error('no notice');
    expect(notice.flapping).toEqual({ changes: 7, window_seconds: 1800 });
    expect(describeAlert(notice, undefined).title).toBe(
      'API is flapping: 7 changes in 30 minutes; alerts held until stable',
    );
    expect(JSON.parse(eventPayload(notice).toString())).toMatchObject({
      kind: 'flapping',
      check_id: checkId,
      to_state: 'down',
      flapping: { changes: 7, window_seconds: 1800 },
    });
    // Two more changes are held (logged skipped: flapping), with no second notice.
    await flap(checkId, 2, false);
    expect(kinds()).toHaveLength(7);
    const logs = await h.logs(checkId);
    const held = logs.filter((l) => l.status === 'skipped');
    expect(held.map((l) => [l.kind, l.reason])).toEqual([
      ['alert', 'flapping'],
      ['alert', 'flapping'],
      ['alert', 'flapping'],
    ]);
    expect(logs.filter((l) => l.kind === 'flapping').map((l) => l.status)).toEqual(['sent']);
    // Stable (down) for the settle time (300 s by default): one alert with the state it settled in.
    await h.time.advance(250_000, 10_000);
    expect(kinds()).toHaveLength(7);
    await h.time.advance(60_000, 10_000);
    expect(kinds().slice(7)).toEqual(['alert:down']);
    // Still inside the window: a change is held, with no second notice, and settles the same way.
    await h.result(checkId, true);
    expect(kinds()).toHaveLength(8);
    await h.time.advance(310_000, 10_000);
    expect(kinds().slice(8)).toEqual(['alert:up']);
    // A whole window without a change ends flapping: nothing more is sent, then alerts flow again.
    await h.time.advance(3_600_000, 300_000);
    expect(kinds()).toHaveLength(9);
    expect(await getFlapState(h.table, checkId)).toMatchObject({ flapping_since_ms: null, notice: null });
    await h.result(checkId, false);
    expect(kinds().slice(9)).toEqual(['alert:down']);
  });

  it('tells a check that settles up at once its recovery after the settle time, not after the window', async () => {
    const { checkId, entityId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { cooldown_seconds: 0, flap_settle_seconds: 120 });
    await flap(checkId, 7);
    expect(kinds().slice(6)).toEqual(['flapping:down']);
    // It comes back up and stays up: held, then told once it has been up for 120 s.
    await h.result(checkId, true);
    const [heldUp] = (await h.logs(checkId)).filter((l) => l.reason === 'flapping');
    expect(heldUp?.event.to_state).toBe('up');
    const upMs = Date.parse(heldUp?.event.timestamp ?? '');
    await h.time.advance(110_000, 10_000);
    expect(kinds()).toHaveLength(7);
    await h.time.advance(20_000, 10_000);
    expect(kinds().slice(7)).toEqual(['alert:up']);
    const toldMs = h.sent.at(-1)?.atMs ?? 0;
    expect(toldMs - upMs).toBeGreaterThanOrEqual(120_000);
    expect(toldMs - upMs).toBeLessThan(1_800_000);
    // The channel's last word is up: nothing holds the truth back.
    const [truth] = (await h.call('POST', '/v1/notify/simulate', { entity_id: entityId }, 200)).channels as {
      last_told: { state: string } | null;
      held: unknown;
    }[];
    expect(truth).toMatchObject({ last_told: { state: 'up' }, held: null });
  });

  it('re-arms the settle look on each held change (stable means a whole settle time without one)', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, {
      cooldown_seconds: 0,
      flap_changes: 2,
      flap_window_seconds: 600,
      flap_settle_seconds: 600,
    });
    await flap(checkId, 3);
    expect(kinds()).toEqual(['alert:down', 'alert:up', 'flapping:down']);
    await h.time.advance(400_000, 20_000);
    await h.result(checkId, true);
    // The first look (600 s after the third change) finds a later change: nothing yet.
    await h.time.advance(300_000, 20_000);
    expect(kinds()).toHaveLength(3);
    await h.time.advance(400_000, 20_000);
    expect(kinds().slice(3)).toEqual(['alert:up']);
  });

  it('never holds an alert with flap_changes 0', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { cooldown_seconds: 0, flap_changes: 0 });
    await flap(checkId, 10);
    expect(kinds()).toHaveLength(10);
    expect(kinds().every((k) => k.startsWith('alert:'))).toBe(true);
    // Detection off stores no history at all.
    expect(await getFlapState(h.table, checkId)).toBeUndefined();
  });
});

describe('flap settings on the policy', () => {
  it('reads the defaults and refuses values out of bounds', async () => {
    const { checkId } = await h.entityWithCheck('API');
    expect(await h.call('GET', `/v1/checks/${checkId}/policy`, undefined, 200)).toMatchObject({
      flap_changes: 6,
      flap_window_seconds: 1800,
      flap_settle_seconds: 300,
    });
    for (const body of [
      { flap_changes: 1 },
      { flap_changes: 51 },
      { flap_window_seconds: 59 },
      { flap_window_seconds: 86_401 },
      { flap_settle_seconds: 59 },
      { flap_settle_seconds: 86_401 },
      { flap_settle_seconds: 90.5 },
    ]) {
      const res = await h.call('POST', `/v1/checks/${checkId}/policy`, body, 400);
      expect(res.code).toBe('VALIDATION_ERROR');
    }
    const set = await h.call('POST', `/v1/checks/${checkId}/policy`, {
      flap_changes: 0,
      flap_window_seconds: 60,
      flap_settle_seconds: 90,
    });
    expect(set).toMatchObject({ flap_changes: 0, flap_window_seconds: 60, flap_settle_seconds: 90 });
  });
});

describe('the flapping outlook (for simulate)', () => {
  it('says whether a change now would start or continue flapping, without counting it', async () => {
    const { checkId } = await h.entityWithCheck('API');
    await h.channel(checkId);
    await h.policy(checkId, { cooldown_seconds: 0, flap_changes: 2, flap_window_seconds: 600 });
    const policy = await h.app.policies.get(checkId);
    if (!policy) throw new Error('no policy stored');
    const outlook = () => flapOutcomeIfChanged({ table: h.table }, checkId, policy, h.time.clock.now());
    await h.result(checkId, false);
    expect(await outlook()).toBe('pass');
    await h.result(checkId, true);
    // A third change would be flapping; asking twice counts nothing.
    expect(await outlook()).toBe('start');
    expect(await outlook()).toBe('start');
    await h.result(checkId, false);
    expect(await outlook()).toBe('hold');
  });
});
