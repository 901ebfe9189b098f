import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type TransitionRecord,
  tenantTransitionItems,
  tenantTransitionsPage,
  transitionRecordedOp,
} from '../../lib/checks/items/transition-items.ts';
import {
  getIncident,
  type IncidentRecord,
  incidentIdOf,
  moveLegacyIncidents,
  openIncident,
  readIncidents,
  readOpenIncidentRecord,
  readRecentIncidents,
  resolveIncident,
} from '../../lib/incidents/incident-items.ts';
import { newId } from '../../lib/platform/ids.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { FEED_SHARDS } from '../../lib/store/sharded-feed.ts';
import type { Item, Table } from '../../lib/store/table.ts';
import { tableEngines } from '../support/table-engines.ts';

/**
 * Issue 35: a tenant's entity transitions and incidents spread over FEED_SHARDS keys, every read
 * merging them in the order one partition gave (newest first, paged), items of the single-partition
 * layout of before still read (transitions) or moved by the migration (incidents).
 */

const engines = tableEngines();

const cursors = createCursorSeal(async () => randomBytes(32));
const T0 = Date.parse('2026-03-01T00:00:00.000Z');

function transition(tenantId: string, entityId: string, ms: number): TransitionRecord {
  return {
    id: newId('trn', ms),
    tenant_id: tenantId,
    kind: 'entity',
    entity_id: entityId,
    entity_name: entityId,
    check_id: 'chk_1',
    from_state: 'up',
    to_state: 'down',
    reason: 'r',
    created_at: new Date(ms).toISOString(),
  };
}

/** A transition as the previous layout stored it: the tenant's one partition. */
function legacyTransitionItem(t: TransitionRecord): Item {
  return { pk: `TRN#${t.tenant_id}`, sk: t.id, entity: 'transition', schema_version: 1, ...t };
}

function incidentOf(t: TransitionRecord): IncidentRecord {
  return {
    id: incidentIdOf(t.id),
    tenant_id: t.tenant_id,
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    state: 'open',
    opened_at: t.created_at,
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    in_maintenance: false,
    opening_transition_id: t.id,
    check_id: t.check_id,
    resolving_transition_id: null,
    note_count: 0,
  };
}

const putRaw = (table: Table, item: Item) =>
  table.transact([{ type: 'put', item: { ...item, schema_version: 1 } }]);

describe.each(engines)('sharded tenant feeds ($engine)', ({ make }) => {
  it('spreads a storm of entity transitions over the shards and reads them back merged, paged and in order', async () => {
    const table = make();
    const tenantId = newId('tnt');
    const fresh = Array.from({ length: 60 }, (_, i) => transition(tenantId, `ent_${i % 40}`, T0 + 1000 + i));
    // Five transitions stored by the previous layout, older and interleaved.
    const legacy = Array.from({ length: 5 }, (_, i) =>
      transition(tenantId, `ent_old${i}`, T0 + 1000 + i * 13),
    );
    for (const t of fresh) await table.transact([transitionRecordedOp(t, 30)]);
    for (const t of legacy) await putRaw(table, legacyTransitionItem(t));

    const partitions = new Set<string>();
    for (let s = 0; s < FEED_SHARDS; s += 1) {
      const page = await table.query({ pk: `TRN#${tenantId}#${String(s).padStart(2, '0')}` });
      for (const item of page.items) partitions.add(item.pk);
      expect(page.items.length).toBeLessThan(20);
    }
    expect(partitions.size).toBeGreaterThanOrEqual(8);

    const ids = [...fresh, ...legacy].map((t) => t.id).sort();
    const newestFirst: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await tenantTransitionsPage({ table, cursors }, tenantId, { limit: 7, cursor });
      expect(page.items.length).toBeLessThanOrEqual(7);
      newestFirst.push(...page.items.map((item) => item.sk));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(newestFirst).toEqual([...ids].reverse());

    const after = ids[9] as string;
    const oldestFirst: string[] = [];
    let next: string | undefined;
    do {
      const page = await tenantTransitionItems(table, tenantId, {
        range: { after },
        direction: 'asc',
        limit: 10,
        cursor: next,
      });
      oldestFirst.push(...page.items.map((item) => item.sk));
      next = page.cursor;
    } while (next);
    expect(oldestFirst).toEqual(ids.slice(10));

    const between = await tenantTransitionItems(table, tenantId, {
      range: { from: ids[3] as string, to: ids[20] as string },
      direction: 'desc',
      limit: 100,
    });
    expect(between.items.map((item) => item.sk)).toEqual(ids.slice(3, 21).reverse());
  });

  it('moves incidents and open pointers of the previous layout to the shards, once', async () => {
    const table = make();
    const tenantId = newId('tnt');
    const opened = Array.from({ length: 30 }, (_, i) => transition(tenantId, `ent_${i}`, T0 + i * 7));
    // Ten incidents of the previous layout: the incident and the open pointer in INC#<tnt>.
    const legacy = opened.slice(0, 10).map(incidentOf);
    for (const record of legacy) {
      const pk = `INC#${tenantId}`;
      await putRaw(table, {
        pk,
        sk: record.id,
        entity: 'incident',
        gsi1pk: `INCENT#${tenantId}#${record.entity_id}`,
        gsi1sk: record.id,
        ...record,
      });
      await putRaw(table, {
        pk,
        sk: `OPEN#${record.entity_id}`,
        entity: 'incident_open',
        incident_id: record.id,
      });
    }
    for (const t of opened.slice(10)) expect(await openIncident(table, incidentOf(t))).toBe(true);

    expect(await moveLegacyIncidents(table, tenantId)).toBe(20);
    expect(await moveLegacyIncidents(table, tenantId)).toBe(0);
    expect((await table.query({ pk: `INC#${tenantId}` })).items).toEqual([]);

    const newestFirst: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await readIncidents({ table, cursors }, tenantId, { limit: 4, cursor });
      newestFirst.push(...page.incidents.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(newestFirst).toEqual(opened.map((t) => incidentIdOf(t.id)).reverse());

    const moved = legacy[3] as IncidentRecord;
    expect(await getIncident(table, tenantId, moved.id)).toEqual(moved);
    expect(await readOpenIncidentRecord(table, tenantId, moved.entity_id)).toEqual(moved);
    const resolution = { at: new Date(T0 + 10_000).toISOString(), transitionId: null, cause: 'up' as const };
    expect(await resolveIncident(table, moved, resolution, T0 / 1000 + 86_400)).toBe(true);
    expect(await readOpenIncidentRecord(table, tenantId, moved.entity_id)).toBeUndefined();

    const resolvedOnly = await readIncidents({ table, cursors }, tenantId, { limit: 5, state: 'resolved' });
    expect(resolvedOnly.incidents.map((r) => r.id)).toEqual([moved.id]);
    expect(resolvedOnly.nextCursor).toBeNull();
    const recent = await readRecentIncidents(table, tenantId, { want: 3, scan: 100, keep: () => true });
    expect(recent.map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
  });
});
