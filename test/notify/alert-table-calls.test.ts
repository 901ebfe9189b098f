import { describe, expect, it } from 'vitest';
import type { ActionJob } from '../../lib/actions/jobs.ts';
import { createApp } from '../../lib/app.ts';
import { statusPagesShowing } from '../../lib/features/list.ts';
import { createChangePump } from '../../lib/local/change-pump.ts';
import type { Alert } from '../../lib/notify/items/ports.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { createNotifier } from '../../lib/notify/pipeline/notifier.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import type { Table } from '../../lib/store/table.ts';
import { routerCall } from '../support/local-flow.ts';
import { observedTable, type TableCall } from '../support/observed-table.ts';
import { outcomeResult } from './support/alert-truth-model.ts';
import { memoryJobQueue } from './support/memory-queue.ts';
import { recordingSenders } from './support/recording-senders.ts';

/**
 * Issue 76 point 3: what one alert costs at the Table port, from the crossing result's record
 * through the change feed's consumers and the alert's jobs (event, deliver) to the send, counted
 * per call kind, so a repeated call cannot creep back in unseen. A check without actions runs no
 * action job; a recovery resolves its incident reading each of its parts once.
 */

type Kind = TableCall['kind'];

/** The table, counting each call by kind and by the partition key's prefix (up to its first '#'). */
function countingTable(table: Table) {
  let calls: { kind: Kind; pk: string }[] = [];
  const pkOf = (call: TableCall): string => {
    switch (call.kind) {
      case 'get':
        return call.key.pk;
      case 'batchGet':
        return call.keys[0]?.pk ?? '';
      case 'query':
        return call.input.pk;
      case 'transact': {
        const first = call.ops[0];
        return first && 'key' in first ? first.key.pk : String(first?.item.pk);
      }
      case 'update':
        return call.op.key.pk;
    }
  };
  const counted = observedTable(table, (call) => {
    const pk = pkOf(call);
    calls.push({ kind: call.kind, pk: pk.split('#')[0] ?? pk });
  });
  return {
    table: counted,
    /** The calls since the last reset, by kind. */
    byKind: () => {
      const counts: Partial<Record<Kind, number>> = {};
      for (const { kind } of calls) counts[kind] = (counts[kind] ?? 0) + 1;
      return counts;
    },
    /** The calls since the last reset, as "<kind> <pk prefix>" with their counts. */
    census: () => {
      const counts: Record<string, number> = {};
      for (const { kind, pk } of calls) counts[`${kind} ${pk}`] = (counts[`${kind} ${pk}`] ?? 0) + 1;
      return counts;
    },
    reset: () => {
      calls = [];
    },
  };
}

describe('the table calls of one alert (local runtime)', () => {
  async function setup() {
    const clock = createFakeClock(Date.parse('2026-03-02T09:00:00.000Z'));
    const sqlite = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const counter = countingTable(sqlite);
    const notifyQueue = memoryJobQueue<NotifyJob>();
    const actionQueue = memoryJobQueue<ActionJob>('action');
    const app = createApp({
      table: counter.table,
      clock,
      logger: silentLogger,
      config: loadConfig('local', { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }),
      notifyQueue,
      actionQueue,
    });
    const pump = createChangePump({ table: sqlite, consumers: app.consumers, logger: silentLogger });
    const sent: Alert[] = [];
    const notifier = createNotifier({
      table: counter.table,
      statusPagesShowing: statusPagesShowing(counter.table),
      clock,
      logger: silentLogger,
      queue: notifyQueue,
      senders: recordingSenders(sent),
      policies: app.policies,
      channels: app.channels,
      deliveries: app.deliveries,
      tenants: app.tenants,
    });
    const { tenant, rawKey } = await app.tenants.createTenant({ name: 'T', email: 't@example.test' });
    const api = routerCall(app, rawKey);
    const call = (method: string, path: string, body?: unknown) => api(method, path, body, 'ok');
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'api', name: 'API' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    await call('POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
    await call('POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'webhook',
      config: { url: 'http://127.0.0.1:9/own' },
    });
    /** Records one result and runs what follows: the change feed, then the alert's jobs until none is left. */
    const alert = async (outcome: 'up' | 'down') => {
      clock.advance(1000);
      const recorded = await app.recorder.record(outcomeResult(tenant.id, check.id, outcome, clock.now()));
      expect(recorded.status).toBe('recorded');
      await pump.drain();
      const kinds: string[] = [];
      for (let jobs = await notifyQueue.receive(); jobs.length > 0; jobs = await notifyQueue.receive())
        for (const job of jobs) {
          kinds.push(job.body.kind);
          await notifier.handle(job);
        }
      for (const job of await actionQueue.receive()) kinds.push(`action:${job.body.kind}`);
      return kinds;
    };
    return { alert, counter, sent };
  }

  it('a down alert and its recovery: each sent once, no action job, the calls counted by kind', async () => {
    const { alert, counter, sent } = await setup();
    await alert('up');
    counter.reset();
    expect(await alert('down')).toEqual(['event', 'deliver']);
    const down = { calls: counter.byKind(), census: counter.census() };
    counter.reset();
    expect(await alert('up')).toEqual(['event', 'deliver']);
    const up = { calls: counter.byKind(), census: counter.census() };
    expect(sent.map((a) => a.event.to_state)).toEqual(['down', 'up']);
    // The down: its record (2 transactions, the state's update), the consumers (the incident's
    // opening, its upstreams, the windows; the status pages' drafts read only the entity's
    // dependents when it has none), the event and the deliver jobs. Was 39 calls and an action job.
    expect(down.calls).toEqual({ get: 15, query: 12, transact: 4, update: 4 });
    // The recovery: its incident resolved and its parts (notes, also failing, affected) each read
    // once (were read before and after the resolution, the affected a third time: 48 calls).
    expect(up.calls).toEqual({ get: 20, query: 14, transact: 4, update: 4 });
    expect(up.census).toMatchObject({ 'query INC': 1, 'query ALSOFAIL': 1, 'query INCAFF': 1 });
  });
});
