import { describe, expect, it } from 'vitest';
import { createActionStore } from '../../lib/actions/items/action-store.ts';
import { ACTION_INDEX_CACHE_MS } from '../../lib/actions/items/trigger-index.ts';
import type { ActionJob } from '../../lib/actions/jobs.ts';
import { createActionTriggerConsumer } from '../../lib/actions/trigger-consumer.ts';
import { TRANSITION_ENTITY } from '../../lib/checks/results.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import type { Table } from '../../lib/store/table.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';
import { tableEngines } from '../support/table-engines.ts';
import { stateChangeAction } from './support/action-record.ts';

/**
 * Issue 76 point 3: an entity transition that no state_change action of its tenant could match
 * costs no action job (the trigger consumer asks a per-process index of the tenant's actions). An
 * action written in this process counts at once; one written by another process (the cloud's API
 * function beside the stream function) within ACTION_INDEX_CACHE_MS, never later.
 */

const engines = tableEngines();

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

describe.each(engines)('the action trigger index ($engine)', ({ make }) => {
  function setup() {
    const table = make();
    const clock = createFakeClock(T0);
    const queue = memoryJobQueue<ActionJob>('action');
    const consume = createActionTriggerConsumer({ table, clock, queue, logger: silentLogger });
    const tenantId = newId('tnt', T0);
    let n = 0;
    /** Feeds one new entity transition of `checkId` to the consumer; answers the jobs it enqueued. */
    const transition = async (checkId: string, toState: 'up' | 'down') => {
      n += 1;
      const id = newId('trn', clock.now());
      const item = {
        pk: `TRN#${tenantId}`,
        sk: id,
        entity: TRANSITION_ENTITY,
        id,
        tenant_id: tenantId,
        kind: 'entity',
        entity_id: 'ent_1',
        entity_name: 'svc',
        check_id: checkId,
        from_state: toState === 'down' ? 'up' : 'down',
        to_state: toState,
        reason: 'test',
        created_at: isoTime(clock.now()),
      };
      const change: Change = {
        eventId: `e${n}`,
        eventName: 'INSERT',
        keys: { pk: item.pk, sk: item.sk },
        newImage: item,
        oldImage: undefined,
        expired: false,
      };
      const before = queue.enqueued.length;
      await consume([change]);
      return queue.enqueued.slice(before).map((job) => job.body.kind);
    };
    const action = (checkId: string, toState: 'up' | 'down' | null) =>
      stateChangeAction(tenantId, checkId, toState, clock.now());
    return { table, clock, transition, action };
  }

  it('enqueues a state_change job only for a transition an action of the tenant could match', async () => {
    const { table, transition, action } = setup();
    const store = createActionStore(table, { dueShards: 4 });
    expect(await transition('chk_a', 'down')).toEqual([]);
    await store.create(action('chk_a', 'down'));
    await store.create(action('chk_b', null));
    expect(await transition('chk_a', 'down')).toEqual(['state_change']);
    expect(await transition('chk_a', 'up')).toEqual([]);
    expect(await transition('chk_b', 'up')).toEqual(['state_change']);
    expect(await transition('chk_c', 'down')).toEqual([]);
  });

  it("counts this process's action writes at once: a new, a changed and a removed action", async () => {
    const { table, transition, action } = setup();
    const store = createActionStore(table, { dueShards: 4 });
    // The index now holds the tenant without actions.
    expect(await transition('chk_a', 'down')).toEqual([]);
    const created = action('chk_a', 'up');
    await store.create(created);
    expect(await transition('chk_a', 'up')).toEqual(['state_change']);
    expect(await transition('chk_a', 'down')).toEqual([]);
    await store.update({ ...created, trigger_to_state: 'down', version: 2 }, 1);
    expect(await transition('chk_a', 'down')).toEqual(['state_change']);
    await store.remove(created.tenant_id, created.id);
    expect(await transition('chk_a', 'down')).toEqual([]);
  });

  it("sees another process's new action within ACTION_INDEX_CACHE_MS", async () => {
    const { table, clock, transition, action } = setup();
    // Another process: its own Table over the same data, so its store forgets nothing here.
    const elsewhere: Table = { ...table };
    const store = createActionStore(elsewhere, { dueShards: 4 });
    expect(await transition('chk_a', 'down')).toEqual([]);
    await store.create(action('chk_a', 'down'));
    clock.advance(ACTION_INDEX_CACHE_MS - 1);
    // Still within the bound the tenant's actions were read at.
    expect(await transition('chk_a', 'down')).toEqual([]);
    clock.advance(1);
    expect(await transition('chk_a', 'down')).toEqual(['state_change']);
  });
});
