import { describe, expect, it } from 'vitest';
import { outcomeResult } from './support/alert-truth-model.ts';
import { flowHarnessPerTest } from './support/flow-harness.ts';

/**
 * Issue 51's cases, each a named regression test of DECISIONS.md "Alert truth (wave 5)" on the
 * local flow (SQLite table, change feed, durable notify queue, job runner, real notifier, fake
 * senders) on fake time: once every hold has run out, a channel's last word about an entity is the
 * entity's state; no change is told twice; a second check failing on an entity already down is
 * told as `also_failing`. They judge what the fake channels received, not the notifier's insides.
 */

type CheckOutcome = 'up' | 'degraded' | 'down';

describe('alert truth (issue 51 cases, local flow)', () => {
  const h = flowHarnessPerTest();

  /** One result of a push check through the result path (degraded: a slow success), then the flow. */
  const result = async (checkId: string, outcome: CheckOutcome) => {
    await h.time.advance(1000);
    const recorded = await h.app.recorder.record(
      outcomeResult(h.tenantId, checkId, outcome, h.time.clock.now()),
    );
    expect(recorded.status).toBe('recorded');
    await h.settle();
  };

  /** Moves fake time `ms` ahead, running every job due on the way. */
  const wait = async (ms: number) => {
    await h.time.advance(ms, ms);
    await h.settle();
  };

  /** A second push check on an entity (threshold 1). */
  const secondCheck = async (entityId: string, name: string): Promise<string> =>
    (
      await h.call(
        'POST',
        '/v1/checks',
        { entity_id: entityId, name, check_type: 'push', interval_seconds: 86_400, failure_threshold: 1 },
        201,
      )
    ).id;
  /**
   * An entity whose check (a cooldown of 20 s, its own channel) went down, recovered 25 s later and
   * failed again 5 s after that: inside the cooldown the recovery opened.
   */
  const refailedInCooldown = async (entity: string) => {
    const { entityId, checkId } = await h.entityWithCheck(entity);
    await h.policy(checkId, { cooldown_seconds: 20 });
    const channel = await h.channel(checkId);
    await result(checkId, 'up');
    await result(checkId, 'down');
    await wait(25_000);
    await result(checkId, 'up');
    await wait(5_000);
    await result(checkId, 'down');
    return { entityId, checkId, channel };
  };
  /** An entity with two checks (its own and a push check named `second`), neither with a cooldown. */
  const twoChecks = async (entity: string, second: string) => {
    const { entityId, checkId } = await h.entityWithCheck(entity);
    const other = await secondCheck(entityId, second);
    await h.policy(checkId, { cooldown_seconds: 0 });
    await h.policy(other, { cooldown_seconds: 0 });
    return { entityId, first: checkId, second: other };
  };

  /** What a channel was told about an entity, in order: `kind:to_state` (a digest's events each as `digest/kind:to_state`). */
  const told = (channelId: string, entityId: string): string[] => {
    const lines: { atMs: number; order: number; word: string }[] = [];
    h.sent.forEach((s, order) => {
      if (s.channel.id !== channelId || s.alert.event.entity_id !== entityId) return;
      const { event } = s.alert;
      const recovery =
        event.to_state === 'up' && (event.from_state === 'down' || event.from_state === 'degraded');
      const kind = s.alert.kind === 'alert' && recovery ? 'recovery' : String(s.alert.kind);
      lines.push({ atMs: s.atMs, order, word: `${kind}:${event.to_state}` });
    });
    h.digests.forEach((d, order) => {
      if (d.channel.id !== channelId) return;
      for (const e of d.digest.events)
        if (e.event.entity_id === entityId)
          lines.push({ atMs: d.atMs, order: order + 0.5, word: `digest/${e.kind}:${e.event.to_state}` });
    });
    return lines.sort((a, b) => a.atMs - b.atMs || a.order - b.order).map((l) => l.word);
  };
  /** The state a channel's last state-naming message gives the entity. */
  const lastWord = (channelId: string, entityId: string): string | undefined =>
    told(channelId, entityId)
      .filter((w) => !w.startsWith('test:') && !w.startsWith('acknowledge:'))
      .at(-1)
      ?.split(':')[1];

  it('tells a down that followed a degraded inside the cooldown once the cooldown ends', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Checkout');
    await h.policy(checkId, { cooldown_seconds: 300 });
    const channel = await h.channel(checkId);
    await result(checkId, 'up');
    await result(checkId, 'degraded');
    expect(told(channel.id, entityId)).toEqual(['alert:degraded']);

    await wait(14_000);
    await result(checkId, 'down');
    // Inside the cooldown nothing of the check is sent; when it ends the truth is.
    await wait(300_000 + 15_000);

    expect(lastWord(channel.id, entityId)).toBe('down');
    expect(told(channel.id, entityId)).toEqual(['alert:degraded', 'alert:down']);
  });

  it('carries the entity’s state at send time in an escalation, not the opening change’s', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Payments');
    await h.policy(checkId, { cooldown_seconds: 300 });
    const pager = await h.call(
      'POST',
      '/v1/notify/channels',
      { name: 'pager', channel_type: 'webhook', config: { url: 'https://127.0.0.1:9/pager' } },
      201,
    );
    await h.call(
      'POST',
      '/v1/notify/routes',
      {
        match: { entity_ids: [entityId] },
        channel_ids: [pager.id],
        escalate_after_seconds: 60,
        escalate_channel_ids: [pager.id],
      },
      201,
    );
    await result(checkId, 'up');
    await result(checkId, 'degraded');
    await wait(14_000);
    await result(checkId, 'down');
    await wait(90_000);

    const escalations = h.sent.filter((s) => s.channel.id === pager.id && s.alert.kind === 'escalation');
    expect(escalations.map((s) => s.alert.event.to_state)).toEqual(['down']);
    await wait(300_000);
    expect(lastWord(pager.id, entityId)).toBe('down');
  });

  it('tells a re-failure that came inside the cooldown after a recovery once the cooldown ends', async () => {
    const { entityId, channel } = await refailedInCooldown('Nightly backup');
    await wait(120_000);

    expect(told(channel.id, entityId)).toEqual(['alert:down', 'recovery:up', 'alert:down']);
  });

  it('never sends two recoveries in a row', async () => {
    // The second down is inside the cooldown: held; the next recovery comes after the cooldown's end.
    const { entityId, checkId, channel } = await refailedInCooldown('Queue');
    await wait(25_000);
    await result(checkId, 'up');
    await wait(120_000);

    const words = told(channel.id, entityId);
    const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`);
    expect(pairs.filter((p) => p === 'recovery:up recovery:up')).toEqual([]);
    expect(lastWord(channel.id, entityId)).toBe('up');
  });

  it('tells a channel that heard "degraded" from one check that the entity went down through another', async () => {
    const { entityId, first: a, second: b } = await twoChecks('Search', 'index job');
    const channel = await h.channel(a);
    await result(a, 'up');
    await result(b, 'up');
    await result(a, 'degraded');
    expect(told(channel.id, entityId)).toEqual(['alert:degraded']);

    await result(b, 'down');
    await wait(90_000);

    expect(lastWord(channel.id, entityId)).toBe('down');
  });

  it('blames the check whose first result set the state, so its own down is not held by another check’s cooldown', async () => {
    const { entityId, checkId: slow } = await h.entityWithCheck('API');
    const other = await secondCheck(entityId, 'health');
    const channel = await h.channel(slow);
    // Created together; the slow check's first result is degraded, the other's up, in the same second.
    const recordAt = async (checkId: string, outcome: 'up' | 'degraded', atMs: number) => {
      const recorded = await h.app.recorder.record(outcomeResult(h.tenantId, checkId, outcome, atMs));
      expect(recorded.status).toBe('recorded');
    };
    const at = h.time.clock.now();
    await recordAt(slow, 'degraded', at);
    await recordAt(other, 'up', at);
    await h.settle();

    const first = h.sent.filter((s) => s.alert.event.entity_id === entityId);
    expect(first.map((s) => [s.channel.id, s.alert.event.to_state, s.alert.event.check_id])).toEqual([
      [channel.id, 'degraded', slow],
    ]);
    await wait(120_000);
    await result(slow, 'down');
    await wait(300_000 + 15_000);

    expect(lastWord(channel.id, entityId)).toBe('down');
  });

  it('tells a second check starting to fail on an entity already down as also_failing to its channels', async () => {
    const { entityId, first: web, second: cron } = await twoChecks('Shop', 'nightly export');
    const webChannel = await h.channel(web);
    const cronChannel = await h.channel(cron);
    await result(web, 'up');
    await result(cron, 'up');
    await result(web, 'down');
    expect(told(webChannel.id, entityId)).toEqual(['alert:down']);

    await result(cron, 'down');
    await wait(90_000);

    const toCron = h.sent.filter((s) => s.channel.id === cronChannel.id);
    expect(toCron.map((s) => [String(s.alert.kind), s.alert.event.check_id])).toEqual([
      ['also_failing', cron],
    ]);
    // The channel already told down is not told it again.
    expect(told(webChannel.id, entityId)).toEqual(['alert:down']);
  });
  // Shrunk counterexamples of the model (test/notify/alert-truth-model.test.ts), kept as named tests.

  /** A webhook tenant channel (its URL is never dialled: the senders are fake). */
  const tenantChannel = async (name: string): Promise<string> =>
    (
      await h.call(
        'POST',
        '/v1/notify/channels',
        { name, channel_type: 'webhook', config: { url: `https://127.0.0.1:9/${name}` } },
        201,
      )
    ).id;

  it('tells a down skipped while silenced once the silence is lifted with the entity still down (model seed 338029611)', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Billing');
    const channel = await h.channel(checkId);
    await h.policy(checkId, { cooldown_seconds: 0 });
    await result(checkId, 'up');
    await h.policy(checkId, { silenced: true });
    await result(checkId, 'down');
    expect(told(channel.id, entityId)).toEqual([]);

    await h.policy(checkId, { silenced: false });
    await wait(5000);
    expect(told(channel.id, entityId)).toEqual(['alert:down']);
  });

  it('does not let a digest flushed later undo a newer state the channel was told alone (model seed 101)', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Edge');
    await h.policy(checkId, { cooldown_seconds: 0 });
    const channel = await tenantChannel('ops');
    await h.call(
      'POST',
      '/v1/notify/routes',
      {
        match: { entity_ids: [entityId], to_states: ['down', 'up'] },
        channel_ids: [channel],
        group_by: 'tenant',
        group_wait_seconds: 0,
        group_interval_seconds: 60,
      },
      201,
    );
    await result(checkId, 'up');
    await result(checkId, 'down');
    await result(checkId, 'up');
    await result(checkId, 'degraded');
    await wait(180_000);

    expect(lastWord(channel, entityId)).toBe('degraded');
  });

  it('tells a channel that heard also_failing the entity’s next change (model seeds 102, 104)', async () => {
    const { entityId, checkId: a } = await h.entityWithCheck('Billing');
    const b = await secondCheck(entityId, 'ledger');
    await h.policy(a, { cooldown_seconds: 0 });
    await h.policy(b, { cooldown_seconds: 0 });
    const channel = await tenantChannel('billing');
    await h.call('POST', `/v1/checks/${a}/policy/channels`, { channel_id: channel }, 201);
    await result(a, 'up');
    await result(b, 'down');
    // a turns degraded on the down entity: today told as also_failing (naming down).
    await result(a, 'degraded');
    await result(b, 'degraded');
    await result(a, 'up');
    await wait(120_000);

    // b's changes reach no channel of their own; the entity is degraded now. A channel told anything
    // about it must end on degraded (one never told may stay so: the entity's changes never reached it).
    const words = told(channel, entityId);
    expect(words.length === 0 ? 'never told' : lastWord(channel, entityId), words.join(', ')).toMatch(
      /^(never told|degraded)$/,
    );
  });
  it('tells a flip inside a group’s wait in order, never the same word twice (model seed 355798764)', async () => {
    const { entityId, checkId } = await h.entityWithCheck('Shop');
    await h.policy(checkId, { cooldown_seconds: 0 });
    const channel = await tenantChannel('ops');
    await h.call('POST', `/v1/checks/${checkId}/policy/channels`, { channel_id: channel }, 201);
    // Recoveries (and downs) wait 2 s in the route's group; a degraded goes alone through the check's channel.
    await h.call(
      'POST',
      '/v1/notify/routes',
      {
        match: { to_states: ['down', 'up'] },
        channel_ids: [channel],
        group_by: 'entity',
        group_wait_seconds: 2,
        group_interval_seconds: 60,
      },
      201,
    );
    await result(checkId, 'degraded');
    await result(checkId, 'up');
    await result(checkId, 'degraded');
    await result(checkId, 'up');
    await wait(180_000);

    const states = told(channel, entityId).map((w) => w.split(':')[1]);
    expect(
      states.filter((s, i) => s === states[i - 1]),
      states.join(', '),
    ).toEqual([]);
    expect(states.at(-1)).toBe('up');
  });
});
