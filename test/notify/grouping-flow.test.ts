import { describe, expect, it } from 'vitest';
import { flowHarnessPerTest, routedWebhook } from './support/flow-harness.ts';

/**
 * Grouping and the storm fold on the local flow (SQLite, the change feed, the durable notify
 * queue, fake time; fake channel senders recording alerts and digests): 50 entities of one
 * blueprint go down through one route with a webhook. With no grouping the channel is sent 10
 * alerts alone, the other 40 fold into one digest (their records `folded`, naming it); with
 * group_by blueprint and group_wait 10 s it is sent one digest of all 50 after 10 s. Recoveries
 * fold the same way ("recovered").
 */

const h = flowHarnessPerTest();

const ENTITIES = 50;

async function storm(route: Record<string, unknown>) {
  const channel = await routedWebhook(h, 'storm', route);
  const checks: string[] = [];
  for (let i = 1; i <= ENTITIES; i += 1) {
    const { checkId } = await h.entityWithCheck(`Web node ${i}`);
    await h.policy(checkId, { cooldown_seconds: 0 });
    await h.result(checkId, true);
    checks.push(checkId);
  }
  for (const checkId of checks) await h.result(checkId, false);
  return { checks, channelId: String(channel.id) };
}

const allLogs = async () => (await h.app.deliveries.list(h.tenantId, { limit: 500 })).deliveries;

/** Distinct entities the channel was told about, alone or in a digest, changing to `to`. */
function told(to: string): Set<string> {
  const alone = h.sent.filter((s) => s.alert.event.to_state === to).map((s) => s.alert.event.entity_id);
  const folded = h.digests.flatMap((d) =>
    d.digest.events.filter((e) => e.event.to_state === to).map((e) => e.event.entity_id),
  );
  return new Set([...alone, ...folded]);
}

describe('the storm fold (no configuration)', () => {
  it('sends 10 alerts alone, then one digest of the other 40; recoveries fold the same way', async () => {
    const { checks } = await storm({});
    expect(h.sent).toHaveLength(10);
    expect(h.digests).toHaveLength(0);

    await h.time.advance(6000, 500);
    expect(h.digests).toHaveLength(1);
    const [first] = h.digests;
    expect(first?.digest.group).toEqual({ by: 'blueprint', key: 'svc', name: 'svc' });
    expect(first?.digest.counts).toEqual({ down: 40, degraded: 0, up: 0 });
    expect(first?.digest.events).toHaveLength(40);
    expect(first?.digest.events[0]?.kind).toBe('alert');
    expect(told('down').size).toBe(ENTITIES);
    // Each folded alert's record names the digest it went out in; the digest record is sent.
    const lastLog = (await h.logs(checks[ENTITIES - 1] ?? ''))[0];
    expect(lastLog?.status).toBe('folded');
    expect(lastLog?.reason).toMatch(/^in digest dig_/);
    const digestLogs = (await allLogs()).filter((l) => l.kind === 'digest');
    expect(digestLogs.map((l) => `${l.kind}:${l.status}:${l.digest?.events}`)).toEqual(['digest:sent:40']);
    expect(digestLogs[0]?.reason).toContain(lastLog?.reason?.slice('in digest '.length));
    // The API shows the digest as one: its group and how many alerts it carries (its entity and
    // check are only its first alert's), and each folded alert names the same batch.
    const shown = (await h.call('GET', '/v1/notify/logs')).logs as {
      kind: string;
      status: string;
      check_id: string;
      digest: Record<string, unknown> | null;
    }[];
    const batch = digestLogs[0]?.digest?.batch_id;
    expect(shown.find((l) => l.kind === 'digest')?.digest).toEqual({
      batch_id: batch,
      group_by: 'blueprint',
      group: 'svc',
      events: 40,
      part: 1,
      parts: 1,
    });
    expect(
      shown.find((l) => l.check_id === checks[ENTITIES - 1] && l.status === 'folded')?.digest,
    ).toMatchObject({
      batch_id: batch,
      events: null,
    });
    expect(shown.find((l) => l.status === 'sent' && l.kind === 'alert')?.digest).toBeNull();

    // Two minutes later everything recovers: 10 recoveries alone again, 40 in one digest.
    await h.time.advance(120_000, 5000);
    for (const checkId of checks) await h.result(checkId, true);
    await h.time.advance(6000, 500);
    expect(h.sent.filter((s) => s.alert.event.to_state === 'up')).toHaveLength(10);
    expect(h.digests).toHaveLength(2);
    expect(h.digests[1]?.digest.counts).toEqual({ down: 0, degraded: 0, up: 40 });
    expect(h.digests[1]?.digest.events.every((e) => e.kind === 'recovery')).toBe(true);
    expect(told('up').size).toBe(ENTITIES);
  });

  it('folds the repeats of a storm as well: still 10 alone, the rest in a digest of repeats', async () => {
    await routedWebhook(h, 'storm');
    const checks: string[] = [];
    for (let i = 1; i <= 20; i += 1) {
      const { checkId } = await h.entityWithCheck(`Web node ${i}`);
      await h.policy(checkId, { cooldown_seconds: 0, repeat_interval_seconds: 600 });
      await h.result(checkId, true);
      checks.push(checkId);
    }
    for (const checkId of checks) await h.result(checkId, false);
    await h.time.advance(6000, 500);
    expect(h.sent).toHaveLength(10);
    expect(h.digests).toHaveLength(1);

    // Ten minutes on, all 20 repeat at once: the channel is again sent 10 alone and one digest.
    await h.time.advance(600_000, 10_000);
    await h.time.advance(6000, 500);
    expect(h.sent.filter((s) => s.alert.kind === 'repeat')).toHaveLength(10);
    const repeats = h.digests.at(-1)?.digest.events ?? [];
    expect(repeats).toHaveLength(10);
    expect(repeats.every((e) => e.kind === 'repeat')).toBe(true);
  });

  it('honours the tenant setting alert_fold_per_minute', async () => {
    await h.call('PUT', '/v1/settings/alerting', { alert_fold_per_minute: 3 }, 200);
    expect(await h.call('GET', '/v1/settings/alerting', undefined, 200)).toEqual({
      alert_fold_per_minute: 3,
    });
    await storm({});
    expect(h.sent).toHaveLength(3);
    await h.time.advance(6000, 500);
    expect(h.digests.map((d) => d.digest.events.length)).toEqual([47]);
  });
});

describe('route grouping', () => {
  it('group_by blueprint with group_wait 10 s: one notification of all 50, recoveries in one more', async () => {
    const { checks } = await storm({
      group_by: 'blueprint',
      group_wait_seconds: 10,
      group_interval_seconds: 60,
    });
    expect(h.sent).toHaveLength(0);
    await h.time.advance(8000, 500);
    expect(h.digests).toHaveLength(0);
    await h.time.advance(3000, 500);
    expect(h.digests).toHaveLength(1);
    expect(h.digests[0]?.digest.counts).toEqual({ down: 50, degraded: 0, up: 0 });
    expect(told('down').size).toBe(ENTITIES);

    await h.time.advance(120_000, 5000);
    for (const checkId of checks) await h.result(checkId, true);
    await h.time.advance(11_000, 500);
    expect(h.sent).toHaveLength(0);
    expect(h.digests).toHaveLength(2);
    expect(h.digests[1]?.digest.counts).toEqual({ down: 0, degraded: 0, up: 50 });
    expect(told('up').size).toBe(ENTITIES);
  });

  it('a redelivered flush sends nothing twice', async () => {
    await storm({ group_by: 'tenant', group_wait_seconds: 10 });
    await h.time.advance(11_000, 500);
    expect(h.digests).toHaveLength(1);
    const batch = h.digests[0]?.digest.deliveryId;
    const record = (await allLogs()).find((l) => l.id === batch);
    expect(record?.status).toBe('sent');
    const digestJob = (await h.app.deliveries.get(h.tenantId, batch ?? ''))?.digest;
    expect(digestJob).toBeDefined();
    await h.queue.enqueue([
      {
        id: 'again',
        body: {
          kind: 'digest',
          tenant_id: h.tenantId,
          channel_id: h.digests[0]?.channel.id ?? '',
          group_id: digestJob?.group_id ?? '',
          batch_id: digestJob?.batch_id ?? '',
          due_ms: digestJob?.due_ms ?? 0,
        },
      },
    ]);
    await h.time.advance(2000, 500);
    expect(h.digests).toHaveLength(1);
  });

  it('tries a refused digest part again, and a flush back after a crash sends no part twice', async () => {
    h.digestAnswerWith((n) =>
      n === 1 ? { ok: false, status_code: 503, error: null } : { ok: true, status_code: 200, error: null },
    );
    await storm({ group_by: 'tenant', group_wait_seconds: 10 });
    // Up to the flush in steps shorter than the queue's first retry delay (1 s).
    for (let step = 0; step < 60 && h.digests.length === 0; step += 1) await h.time.advance(250, 250);
    expect(h.digests).toHaveLength(1);
    const batch = h.digests[0]?.digest.deliveryId ?? '';
    const refused = await h.app.deliveries.get(h.tenantId, batch);
    expect(refused).toMatchObject({ status: 'retrying', attempts: 1, error: 'answered 503' });

    // The first attempt's flush again, as when a crash came after the part was claimed: the part's
    // attempt was made, so only its outcome is left; it counts as failed again and nothing is sent.
    const { group_id, batch_id, due_ms } = refused?.digest ?? { group_id: '', batch_id: '', due_ms: 0 };
    const body = {
      kind: 'digest' as const,
      tenant_id: h.tenantId,
      channel_id: h.digests[0]?.channel.id ?? '',
      group_id,
      batch_id,
      due_ms,
    };
    await expect(h.notifier.handle({ id: 'after-a-crash', body, attempt: 1, receipt: 'r' })).rejects.toThrow(
      `digest ${batch_id}: 1 part(s) failed attempt 1`,
    );
    expect(h.digests).toHaveLength(1);

    // The queue's retry sends the part again, the same part of the same batch, and it is sent.
    await h.time.advance(600_000, 5000);
    expect(h.digests).toHaveLength(2);
    expect(h.digests[1]?.digest.deliveryId).toBe(batch);
    expect(h.digests[1]?.digest.counts).toEqual({ down: 50, degraded: 0, up: 0 });
    expect(await h.app.deliveries.get(h.tenantId, batch)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
