import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { notifyFlowRig } from './notify-flow.ts';

/**
 * Grouping and the storm fold through the cloud runtime's Lambda handlers (api, stream, notifier)
 * over DynamoDB Local and fauxqs, on a fake clock, to an HTTPS webhook receiver on 127.0.0.1: 12
 * entities of one blueprint go down through one route. With no grouping (and the tenant's fold
 * limit at 3) the receiver gets 3 alerts alone and one digest of the other 9; with group_by
 * blueprint and group_wait 10 s, one digest of all 12, and their recoveries in one more. The digest job's delay is real
 * time in fauxqs: once the fake clock has passed its due time the test sends it again undelayed
 * (what the queue does when the delay ends), as test/cloud/escalation-flow.test.ts does.
 */

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const clock = createFakeClock(T0);
const ENTITIES = 12;
/** The tenant's alert_fold_per_minute here: a storm of 12 folds as one of 50 does at the default 10. */
const FOLD_LIMIT = 3;
const flow = notifyFlowRig(clock);
const { call } = flow;

/** A blueprint of ENTITIES entities (a push check each, no cooldown, up), a route to a webhook at `path`. */
async function world(slug: string, path: string, route: Record<string, unknown>) {
  await call('POST', '/v1/blueprints', { slug, name: slug });
  const channel = await call('POST', '/v1/notify/channels', {
    name: path,
    channel_type: 'webhook',
    config: { url: `${flow.receiver.origin}${path}` },
  });
  await call('POST', '/v1/notify/routes', {
    match: { blueprint_slugs: [slug] },
    channel_ids: [channel.id],
    ...route,
  });
  const checks: string[] = [];
  for (let i = 1; i <= ENTITIES; i += 1) {
    const entity = await call('POST', `/v1/blueprints/${slug}/entities`, {
      slug: `n${i}`,
      name: `Web node ${i}`,
    });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
    await call('POST', `/v1/checks/${check.id}/results`, { success: true, latency_ms: 5 });
    checks.push(check.id);
  }
  await flow.h.drainChanges();
  return checks;
}

async function pushAll(checks: string[], success: boolean) {
  for (const id of checks) await call('POST', `/v1/checks/${id}/results`, { success, latency_ms: 5 });
  await flow.h.drainChanges();
}

/** What the receiver got at `path`: alerts alone and digests. */
function got(path: string) {
  const bodies = flow.receiver.received
    .filter((r) => r.path === path)
    .map((r) => JSON.parse(r.body.toString('utf8')));
  const digests = bodies.filter((b) => b.kind === 'digest');
  const alone = bodies.filter((b) => b.kind !== 'digest');
  const told = (to: string) =>
    new Set([
      ...alone.filter((b) => b.to_state === to).map((b) => b.entity_id),
      ...digests
        .flatMap((d) => d.events.filter((e: { to_state: string }) => e.to_state === to))
        .map((e) => e.entity_id),
    ]).size;
  return { alone, digests, told };
}

/** Sends every digest job queued so far again, undelayed, and runs the notifier on what is visible. */
async function flushDigests() {
  const jobs = flow.queued('digest');
  await flow.requeueNow(jobs.map((j, i) => ({ id: `${j.id}:now:${clock.now()}:${i}`, job: j.job })));
  await flow.h.runNotifyJobs();
  await flow.h.runNotifyJobs();
}

describe('grouping and the storm fold on the cloud runtime', () => {
  it('folds a storm with no route configuration: 3 alerts alone (the fold limit), the other 9 in one digest', async () => {
    await flow.call('PUT', '/v1/settings/alerting', { alert_fold_per_minute: FOLD_LIMIT });
    const checks = await world('fold', '/fold', {});
    clock.advance(1000);
    await pushAll(checks, false);
    expect(got('/fold').alone).toHaveLength(FOLD_LIMIT);
    expect(got('/fold').digests).toHaveLength(0);

    clock.advance(6000);
    await flushDigests();
    const { digests, told } = got('/fold');
    expect(digests).toHaveLength(1);
    expect(digests[0]).toMatchObject({
      group: { by: 'blueprint', key: 'fold' },
      counts: { down: ENTITIES - FOLD_LIMIT },
    });
    expect(told('down')).toBe(ENTITIES);
    // A redelivered flush (every digest job sent again) sends nothing twice.
    await flushDigests();
    expect(got('/fold').digests).toHaveLength(1);
  }, 180_000);

  it('group_by blueprint, group_wait 10 s: one notification of all 12; recoveries fold into one more', async () => {
    clock.advance(120_000);
    const checks = await world('grp', '/grp', {
      group_by: 'blueprint',
      group_wait_seconds: 10,
      group_interval_seconds: 60,
    });
    clock.advance(1000);
    await pushAll(checks, false);
    expect(flow.receiver.received.filter((r) => r.path === '/grp')).toHaveLength(0);
    clock.advance(11_000);
    await flushDigests();
    expect(got('/grp').alone).toHaveLength(0);
    expect(got('/grp').digests).toHaveLength(1);
    expect(got('/grp').told('down')).toBe(ENTITIES);

    clock.advance(120_000);
    await pushAll(checks, true);
    clock.advance(11_000);
    await flushDigests();
    const { alone, digests, told } = got('/grp');
    expect(alone).toHaveLength(0);
    expect(digests).toHaveLength(2);
    expect(digests[1]).toMatchObject({ counts: { down: 0, degraded: 0, up: ENTITIES } });
    expect(digests[1].events.every((e: { kind: string }) => e.kind === 'recovery')).toBe(true);
    expect(told('up')).toBe(ENTITIES);
  }, 180_000);
});
