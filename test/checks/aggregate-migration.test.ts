import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntityState } from '../../lib/catalog/entities/entity-items.ts';
import { readStatusCounters } from '../../lib/catalog/entities/entity-state-index-items.ts';
import { migrateEntityAggregates } from '../../lib/checks/migration/aggregate-migration.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import {
  forgetAggregatesMigration,
  loadPreviousLayout,
  moveCheckStates,
  type PreviousLayout,
  previousLayout,
} from '../fixtures/previous-layout/load.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * Issue 35's migration on a store written by the previous code (test/fixtures/previous-layout: its
 * entity has one check down and three up, stored `degraded` with the tenant's counters and state
 * index saying so): after it the entity is `down` (the worst check wins), with a transition
 * `state rule changed`, and the board's counters and index agree; a second run changes nothing.
 * Both engines: SQLite (local) and DynamoDB Local (lambda).
 */
describe.each(runtimes)('the entity aggregates migration ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let dump: PreviousLayout;
  const migrate = () =>
    migrateEntityAggregates({
      table: api.table,
      tenants: api.app.tenants,
      logger: silentLogger,
      clock: systemClock,
    });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const get = async (path: string): Promise<any> => {
    const res = await api.request('GET', path, { key: dump.api_key });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    api = await start({ scheduler: false });
    dump = previousLayout();
    // A local runtime migrated its (empty) store at start: this store is one the old code left.
    await forgetAggregatesMigration(api.table);
    await loadPreviousLayout(api.table, dump);
    await moveCheckStates(api.table, api.app.tenants);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('re-aggregates the stored entity (degraded → down) with its counters, once', async () => {
    const before = await readEntityState(api.table, dump.tenant_id, 'service', 'api');
    expect(before).toMatchObject({ state: 'degraded' });
    expect(before?.applied_state_rule).toBeUndefined();
    expect(await readStatusCounters(api.table, dump.tenant_id)).toMatchObject({ degraded: 1, down: 0 });
    const stored = (await get('/v1/status/transitions?limit=200')).transitions.length;

    expect(await migrate()).toBe(1);
    expect(await readEntityState(api.table, dump.tenant_id, 'service', 'api')).toMatchObject({
      state: 'down',
      applied_state_rule: 'worst',
    });
    expect(await readStatusCounters(api.table, dump.tenant_id)).toMatchObject({ degraded: 0, down: 1 });
    const board = await get('/v1/status');
    expect(board).toMatchObject({ degraded: 0, down: 1 });
    expect(board.entities).toEqual([expect.objectContaining({ id: dump.entity_id, state: 'down' })]);
    expect(await get('/v1/status?state=degraded')).toMatchObject({ entities: [] });
    const feed = (await get('/v1/status/transitions?limit=200')).transitions;
    expect(feed).toHaveLength(stored + 1);
    expect(feed[0]).toMatchObject({
      entity_id: dump.entity_id,
      from_state: 'degraded',
      to_state: 'down',
      reason: 'state rule changed',
      check_id: dump.checks.down,
    });

    // The marker: a second run reads only it; without it, nothing is left to move.
    expect(await migrate()).toBe(0);
    await forgetAggregatesMigration(api.table);
    expect(await migrate()).toBe(0);
    expect((await get('/v1/status/transitions?limit=200')).transitions).toHaveLength(stored + 1);
    expect(await readStatusCounters(api.table, dump.tenant_id)).toMatchObject({ degraded: 0, down: 1 });
  });
});
