import { describe, expect, it } from 'vitest';
import { createApp } from '../../lib/app.ts';
import { readEntityById } from '../../lib/catalog/entities/entity-items.ts';
import type { StateChangeEvent } from '../../lib/domain/states.ts';
import { statusPagesShowing } from '../../lib/features/list.ts';
import type { Alert } from '../../lib/notify/items/ports.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { createNotifier } from '../../lib/notify/pipeline/notifier.ts';
import { truthEvent } from '../../lib/notify/pipeline/rejudge.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { checkPartition, tenantPk } from '../../lib/store/partitions.ts';
import type { Key, Table } from '../../lib/store/table.ts';
import { routerCall } from '../support/local-flow.ts';
import { observedTable } from '../support/observed-table.ts';
import { tableEngines } from '../support/table-engines.ts';
import { outcomeResult } from './support/alert-truth-model.ts';
import { memoryJobQueue } from './support/memory-queue.ts';
import { recordingSenders } from './support/recording-senders.ts';

/**
 * The alert path reads its context once per job (issue 76 point 3): one `event` job reads the
 * entity it is about once, however many stages look at it (the routes' blueprint, maintenance, the
 * grouping keys, escalation and the policy climbs), and the tenant's routes once (the channels and
 * the grouping). Counted at the Table port, on both engines: every get, batch get and query that
 * reaches the entity's pointer, its item, or the route.
 */

const engines = tableEngines();

/** The table, counting the reads that reach each item of `watched` (by its pk and sk). */
function countingTable<N extends string>(table: Table, watched: Record<N, Key>) {
  const names = Object.keys(watched) as N[];
  const zero = () => Object.fromEntries(names.map((name) => [name, 0])) as Record<N, number>;
  let reads = zero();
  /** Every query made, as "<index or table> <pk>", and its limit. */
  let queries: string[] = [];
  let limits: (number | undefined)[] = [];
  const count = (key: Key) => {
    for (const name of names)
      if (key.pk === watched[name].pk && key.sk === watched[name].sk) reads[name] += 1;
  };
  const observed = observedTable(table, (call) => {
    if (call.kind === 'get') count(call.key);
    else if (call.kind === 'batchGet') for (const key of call.keys) count(key);
    else if (call.kind === 'query') {
      queries.push(`${call.input.index ?? 'table'} ${call.input.pk}`);
      limits.push(call.input.limit);
    }
  });
  const counted: Table = {
    ...observed,
    // A query's items are read too: each watched one it returns counts.
    query: async (input) => {
      const page = await observed.query(input);
      for (const item of page.items) count({ pk: String(item.pk), sk: String(item.sk) });
      return page;
    },
  };
  return {
    table: counted,
    reads: () => reads,
    queries: () => queries.map((query, i) => ({ query, limit: limits[i] })),
    reset: () => {
      reads = zero();
      queries = [];
      limits = [];
    },
  };
}

describe.each(engines)('one event job reads its entity once ($engine)', ({ make }) => {
  async function setup() {
    const clock = createFakeClock(Date.parse('2026-03-02T09:00:00.000Z'));
    const table = make();
    // Loopback allowed: the channels name 127.0.0.1 (never dialled: the senders below answer).
    const app = createApp({
      table,
      clock,
      logger: silentLogger,
      config: loadConfig('local', { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }),
      notifyQueue: memoryJobQueue(),
      actionQueue: memoryJobQueue('action'),
    });
    const { tenant, rawKey } = await app.tenants.createTenant({ name: 'T', email: 't@example.test' });
    const api = routerCall(app, rawKey);
    const call = (method: string, path: string, body?: unknown) => api(method, path, body, 'ok');
    const tag = Math.random().toString(36).slice(2, 8);
    await call('POST', '/v1/blueprints', { slug: `svc-${tag}`, name: 'Service' });
    const entity = await call('POST', `/v1/blueprints/svc-${tag}/entities`, { slug: 'api', name: 'API' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/policy`, {
      cooldown_seconds: 0,
      repeat_interval_seconds: 600,
    });
    await call('POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: 'http://127.0.0.1:9/own' },
    });
    // A route by blueprint (its match needs the entity's blueprint), grouped by entity, escalating.
    const shared = await call('POST', '/v1/notify/channels', {
      name: `ops-${tag}`,
      channel_type: 'webhook',
      config: { url: 'http://127.0.0.1:9/ops' },
    });
    const route = await call('POST', '/v1/notify/routes', {
      channel_ids: [shared.id],
      match: { blueprint_slugs: [`svc-${tag}`] },
      group_by: 'entity',
      group_wait_seconds: 30,
      escalate_after_seconds: 300,
      escalate_channel_ids: [shared.id],
    });
    // A maintenance window on the blueprint that does not cover now (read and passed).
    await call('POST', '/v1/maintenance', {
      name: 'Later',
      blueprint_slugs: [`svc-${tag}`],
      starts_at: '2026-03-03T09:00:00.000Z',
      ends_at: '2026-03-03T10:00:00.000Z',
    });
    const record = async (outcome: 'up' | 'down', checkId: string = check.id) => {
      clock.advance(1000);
      const recorded = await app.recorder.record(outcomeResult(tenant.id, checkId, outcome, clock.now()));
      expect(recorded.status).toBe('recorded');
    };
    // The entity is read by id: its pointer, then its item (catalog/entity-items.ts); the route
    // with the tenant's routes (items/route-items.ts).
    const counter = countingTable(table, {
      pointer: { pk: tenantPk(tenant.id), sk: `ENTID#${entity.id}` },
      item: { pk: tenantPk(tenant.id), sk: `ENT#svc-${tag}#api` },
      route: { pk: tenantPk(tenant.id), sk: `NROUTE#${route.id}` },
    });
    const queue = memoryJobQueue<NotifyJob>();
    const sent: Alert[] = [];
    const notifier = createNotifier({
      table: counter.table,
      statusPagesShowing: statusPagesShowing(counter.table),
      clock,
      logger: silentLogger,
      queue,
      senders: recordingSenders(sent),
      policies: app.policies,
      channels: app.channels,
      deliveries: app.deliveries,
      tenants: app.tenants,
    });
    /** The entity's last change as the event job carries it. */
    const lastChange = async (): Promise<StateChangeEvent> => {
      const state = await readEntityById(table, tenant.id, entity.id);
      const event = state && (await truthEvent({ table }, tenant.id, state));
      if (!event) throw new Error('the entity has no change');
      return event;
    };
    const handleEvent = async (event: StateChangeEvent) => {
      counter.reset();
      await notifier.handle({
        id: `evt-${event.transition_id}`,
        body: { kind: 'event', event },
        attempt: 1,
        receipt: 'r',
      });
      return { reads: { ...counter.reads() }, jobs: queue.enqueued.splice(0) };
    };
    /** Handles one job of the notify queue; answers the queries it made. */
    const handleJob = async (body: NotifyJob) => {
      counter.reset();
      await notifier.handle({ id: 'job', body, attempt: 1, receipt: 'r' });
      return counter.queries();
    };
    return { record, lastChange, handleEvent, handleJob, call, sent, tag, entity, check };
  }

  it('a down alert to an own channel and a grouped, escalating route: the entity and the routes read once', async () => {
    const rt = await setup();
    await rt.record('up');
    await rt.record('down');
    const event = { ...(await rt.lastChange()), from_state: 'up' };
    const { reads, jobs } = await rt.handleEvent(event);
    // The job did its work: a deliver job (own channel), the group's flush, the escalation and the repeat.
    expect(jobs.map((j) => j.body.kind).sort()).toEqual(['deliver', 'digest', 'escalate', 'repeat']);
    expect(reads).toEqual({ pointer: 1, item: 1, route: 1 });
  });

  it('a recovery (which releases what the entity held back): the entity and the routes read once', async () => {
    const rt = await setup();
    await rt.record('up');
    await rt.record('down');
    await rt.handleEvent({ ...(await rt.lastChange()), from_state: 'up' });
    await rt.record('up');
    const { reads, jobs } = await rt.handleEvent(await rt.lastChange());
    expect(jobs.map((j) => j.body.kind)).toContain('deliver');
    expect(reads).toEqual({ pointer: 1, item: 1, route: 1 });
  });

  it("a down alert's send: the check's results and the entity's dependents read once", async () => {
    const rt = await setup();
    // A dependent down before it (depends_on the alert's entity): the alert names it as held back.
    const web = await rt.call('POST', `/v1/blueprints/svc-${rt.tag}/entities`, { slug: 'web', name: 'Web' });
    await rt.call('POST', '/v1/relations', {
      from_entity_id: web.id,
      to_entity_id: rt.entity.id,
      relation_type: 'depends_on',
    });
    const webCheck = await rt.call('POST', '/v1/checks', {
      entity_id: web.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    await rt.record('down', webCheck.id);
    await rt.record('up');
    await rt.record('down');
    const { jobs } = await rt.handleEvent({ ...(await rt.lastChange()), from_state: 'up' });
    const deliver = jobs.find((job) => job.body.kind === 'deliver');
    if (!deliver) throw new Error('the alert has no deliver job');
    const queries = await rt.handleJob(deliver.body);
    // Sent as before: the failing result's error, the reason, the dependent it holds back.
    expect(rt.sent).toHaveLength(1);
    expect(rt.sent[0]).toMatchObject({ lastError: 'boom', reason: 'boom' });
    expect(rt.sent[0]?.holding?.dependents).toEqual([{ entity_id: web.id, name: 'Web', state: 'down' }]);
    // One read of the check's newest 3 results for the reason and the last error (was two, of 20
    // and 10), and one index read for the dependents (was two: only the to-entity index holds one).
    const results = queries.filter(({ query }) => query === `table ${checkPartition(rt.check.id)}`);
    expect(results.map(({ limit }) => limit)).toEqual([3]);
    const dependents = queries.filter(({ query }) => query.endsWith(`ENTREL#${rt.entity.id}`));
    expect(dependents.map(({ query }) => query)).toEqual([`gsi2 ENTREL#${rt.entity.id}`]);
  });
});
