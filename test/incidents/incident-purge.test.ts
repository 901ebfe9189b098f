import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransitionRecord } from '../../lib/checks/items/transition-items.ts';
import { composeChangeConsumers } from '../../lib/events/consumers.ts';
import { applyTransition, incidentOpenedBy } from '../../lib/incidents/incident-consumer.ts';
import { getIncident, openIncident, readOpenIncidentRecord } from '../../lib/incidents/incident-items.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { entityPurgeJobOp } from '../../lib/purge/purge-job-items.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';

/**
 * The incidents' step of an entity purge, as the composed change consumers run it (both runtimes
 * register the same list, lib/events/consumers.ts): the deleted entity's open incident is resolved
 * once, with no transition, and nothing else changes; a redelivered job record changes nothing.
 */

const TENANT = 'tnt_01J00000000000000000000000';
const T0 = Date.parse('2026-03-02T09:00:00.000Z');

describe('the entity purge and incidents', () => {
  let table: SqliteTable;
  let clock = createFakeClock(T0);
  let purge: (changes: Change[]) => Promise<void>;

  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    clock = createFakeClock(T0);
    purge = composeChangeConsumers({
      table,
      clock,
      logger: silentLogger,
      notifyQueue: memoryJobQueue(),
      actionQueue: memoryJobQueue('action'),
    }).purge;
  });
  afterEach(async () => {
    await table.close();
  });

  const transition = (entityId: string, from: 'up' | 'down', to: 'up' | 'down'): TransitionRecord => ({
    id: newId('trn'),
    tenant_id: TENANT,
    kind: 'entity',
    entity_id: entityId,
    entity_name: `entity ${entityId.slice(-4)}`,
    check_id: newId('chk'),
    from_state: from,
    to_state: to,
    reason: 'test',
    created_at: isoTime(clock.now()),
  });

  /** An entity's open incident, stored as the incident consumer stores one. */
  async function opened(entityId: string) {
    const record = incidentOpenedBy(transition(entityId, 'up', 'down'), false);
    expect(await openIncident(table, record)).toBe(true);
    return record;
  }

  /** Writes the entity delete's purge job and feeds its INSERT to the purge consumer; answers the change. */
  async function deleteEntity(entityId: string): Promise<Change> {
    await table.transact([entityPurgeJobOp(TENANT, entityId)]);
    const image = await table.get({ pk: `PURGE#${TENANT}`, sk: `ENTITY#${entityId}` });
    if (!image) throw new Error('no purge job');
    const change: Change = {
      eventId: newId('req'),
      eventName: 'INSERT',
      keys: { pk: image.pk, sk: image.sk },
      newImage: image,
      oldImage: undefined,
      expired: false,
    };
    await purge([change]);
    return change;
  }

  it('resolves the deleted entity’s open incident once, without a transition, and leaves others open', async () => {
    const gone = newId('ent');
    const other = newId('ent');
    const incident = await opened(gone);
    const kept = await opened(other);
    clock.advance(90_000);

    const change = await deleteEntity(gone);

    const resolved = await getIncident(table, TENANT, incident.id);
    expect(resolved).toMatchObject({
      state: 'resolved',
      resolved_at: isoTime(T0 + 90_000),
      resolving_transition_id: null,
      resolution: 'entity_deleted',
      entity_name: incident.entity_name,
    });
    expect(await readOpenIncidentRecord(table, TENANT, gone)).toBeUndefined();
    expect((await readOpenIncidentRecord(table, TENANT, other))?.id).toBe(kept.id);

    // At-least-once delivery: the same record later changes nothing.
    clock.advance(60_000);
    await purge([change]);
    expect(await getIncident(table, TENANT, incident.id)).toEqual(resolved);
  });

  it('leaves an incident resolved by its entity’s recovery as it was', async () => {
    const entityId = newId('ent');
    const incident = await opened(entityId);
    clock.advance(1000);
    await applyTransition(
      { table, logger: silentLogger, retentionDays: async () => 30 },
      transition(entityId, 'down', 'up'),
    );
    const before = await getIncident(table, TENANT, incident.id);
    expect(before).toMatchObject({ state: 'resolved', resolution: 'up' });

    clock.advance(1000);
    await deleteEntity(entityId);

    expect(await getIncident(table, TENANT, incident.id)).toEqual(before);
  });
});
