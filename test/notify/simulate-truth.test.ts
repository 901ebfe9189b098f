import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { runtimes } from '../support/api-harness.ts';
import { enableToolsets } from '../support/toolsets.ts';
import { outcomeResult } from './support/alert-truth-model.ts';
import { tlsReceiverPerFile, useNotifyRuntime } from './support/notify-runtime.ts';

/**
 * Visible truth (DECISIONS.md "Alert truth (wave 5)") on both runtimes: POST /v1/notify/simulate
 * and the MCP tool explain_alerting answer each channel's last word about the entity and what holds
 * the state back (a down inside the cooldown of the degraded alert before it: held by the cooldown
 * until it ends), and GET /v1/status counts the entities with such a channel. On a fake clock; the
 * re-judge at the cooldown's end is the local flow's test (simulate-truth-flow.test.ts).
 */

const { receiver, ca } = tlsReceiverPerFile();

describe.each(runtimes)('what each channel was told ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock(Date.now());
  const { api, call } = useNotifyRuntime(start, () => ({
    clock,
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    egress: { ca: [ca()] },
  }));
  const result = async (checkId: string, outcome: 'up' | 'degraded' | 'down') => {
    clock.advance(1000);
    const recorded = await api().app.recorder.record(
      outcomeResult(api().tenantId, checkId, outcome, clock.now()),
    );
    expect(recorded.status).toBe('recorded');
    await api().drainChanges();
    await api().runNotifyJobs();
  };

  it('shows the last word, the cooldown holding the down back until it ends, and counts it on the board', async () => {
    const bp = await call('POST', '/v1/blueprints', { slug: `truth-${api().runtime}`, name: 'Truth' });
    const entity = await call('POST', `/v1/blueprints/${bp.slug}/entities`, {
      slug: 'checkout',
      name: 'Checkout',
    });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 300 });
    const own = await call('POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'slack',
      config: { url: `${receiver().origin}/truth-${api().runtime}` },
    });
    const truth = async (key = api().adminKey) =>
      call('POST', '/v1/notify/simulate', { entity_id: entity.id }, key);
    const untold = async () => (await call('GET', '/v1/status')).untold;

    await result(check.id, 'up');
    expect((await truth()).channels).toEqual([
      expect.objectContaining({ channel_id: own.id, channel_type: 'slack', last_told: null, held: null }),
    ]);
    await result(check.id, 'degraded');
    const degradedSentMs = clock.now();
    const told = await truth();
    expect(told).toMatchObject({ to_state: null, decisions: [] });
    expect(told.channels).toEqual([
      expect.objectContaining({
        channel_id: own.id,
        last_told: { state: 'degraded', at: isoTime(degradedSentMs), kind: 'alert' },
        held: null,
      }),
    ]);
    expect(await untold()).toBe(0);

    clock.advance(14_000);
    await result(check.id, 'down');
    const held = await truth();
    expect(held.entity.state).toBe('down');
    expect(held.channels).toEqual([
      expect.objectContaining({
        channel_id: own.id,
        last_told: { state: 'degraded', at: isoTime(degradedSentMs), kind: 'alert' },
        held: { by: 'cooldown', until: isoTime(degradedSentMs + 300_000) },
      }),
    ]);
    expect(await untold()).toBe(1);
    // With to_state, the decisions come beside the channels.
    const asked = await call('POST', '/v1/notify/simulate', { entity_id: entity.id, to_state: 'up' });
    expect(asked.to_state).toBe('up');
    expect(asked.channels).toEqual(held.channels);

    // The MCP tool answers the same, in words too, for a read-only caller.
    const viewer: Principal = {
      tenantId: api().tenantId,
      userId: 'usr_agent',
      keyId: 'key_viewer',
      role: 'admin',
      readOnly: true,
    };
    await enableToolsets(api(), api().adminKey);
    const tool = await api().app.tools.call(viewer, 'explain_alerting', {
      entity_id: entity.id,
      to_state: 'up',
    });
    expect(tool?.isError, JSON.stringify(tool)).toBeUndefined();
    // structuredContent is any JSON value since MCP 2026-07-28 (SDK v2 types it unknown).
    expect((tool?.structuredContent as { channels?: unknown } | undefined)?.channels).toEqual(held.channels);
    const words = (tool?.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(words).toContain(
      `told degraded (alert) at ${isoTime(degradedSentMs)}; held by cooldown until ${isoTime(degradedSentMs + 300_000)}`,
    );
  });
});
