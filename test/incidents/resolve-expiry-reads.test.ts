import { describe, expect, it } from 'vitest';
import type { TransitionRecord } from '../../lib/checks/items/transition-items.ts';
import { TRANSITION_ENTITY } from '../../lib/checks/results.ts';
import { addAlsoFailing } from '../../lib/incidents/also-failing-items.ts';
import {
  applyTransition,
  createIncidentConsumer,
  incidentOpenedBy,
} from '../../lib/incidents/incident-consumer.ts';
import {
  getIncident,
  incidentUnresolvedOp,
  noteCountedOp,
  openIncident,
} from '../../lib/incidents/incident-items.ts';
import { notePutOp } from '../../lib/incidents/incident-note-items.ts';
import { incidentExpiry } from '../../lib/incidents/incident-retention.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import { shardOf } from '../../lib/store/sharded-feed.ts';
import type { Table } from '../../lib/store/table.ts';
import { tableEngines } from '../support/table-engines.ts';

/**
 * Issue 76 point 3: an entity's recovery resolves its incident and gives the incident's parts (its
 * notes, the checks that joined it, its affected entries) their expiry reading each part's
 * partition once, after the resolution (it read them before and after: 6 queries). A delivery that
 * stops between the resolution and the parts' expiry is delivered again, and that gives them it.
 */

const engines = tableEngines();

const RETENTION_DAYS = 7;

describe.each(engines)("a recovery's incident expiry ($engine)", ({ make }) => {
  async function setup() {
    const base = make();
    const clock = createFakeClock(Date.parse('2026-03-01T00:00:00.000Z'));
    const tenantId = newId('tnt');
    const entityId = newId('ent');
    const transition = (toState: 'up' | 'down', fromState: 'up' | 'down'): TransitionRecord => ({
      id: newId('trn', clock.now()),
      tenant_id: tenantId,
      kind: 'entity',
      entity_id: entityId,
      entity_name: 'e',
      check_id: 'chk_main',
      from_state: fromState,
      to_state: toState,
      reason: 'test',
      created_at: isoTime(clock.now()),
    });
    const open = incidentOpenedBy(transition('down', 'up'), false);
    expect(await openIncident(base, open)).toBe(true);
    // Its parts: a note, a check that joined it.
    const noteAt = isoTime(clock.now());
    await base.transact([
      notePutOp(
        tenantId,
        { incident_id: open.id, text: 'x', created_by: 'usr_1', created_at: noteAt },
        `${noteAt}#a`,
        undefined,
      ),
      noteCountedOp({ tenantId, incidentId: open.id, atMs: clock.now() }, true),
    ]);
    expect(
      await addAlsoFailing(
        base,
        tenantId,
        { incident_id: open.id, check_id: 'chk_b', check_name: 'b', at: noteAt },
        [incidentUnresolvedOp(tenantId, open.id)],
      ),
    ).toBe(true);
    clock.advance(60_000);
    const up = transition('up', 'down');
    const parts = async () => {
      const notes = await base.query({ pk: `INC#${tenantId}#${open.id}`, consistent: true });
      const joined = await base.query({ pk: `ALSOFAIL#${tenantId}#${open.id}`, consistent: true });
      return [...notes.items, ...joined.items].map((item) => item.ttl);
    };
    return { base, tenantId, open, up, parts, ttl: incidentExpiry(up.created_at, RETENTION_DAYS) };
  }

  /** The table, counting the queries of each incident part's partition (by its pk's prefix). */
  function countingQueries(table: Table, incidentId: string, tenantId: string) {
    const queries: string[] = [];
    const partOf = (pk: string) =>
      pk === `INC#${tenantId}#${incidentId}`
        ? 'notes'
        : pk.startsWith('ALSOFAIL#')
          ? 'also-failing'
          : pk.startsWith('INCAFF#')
            ? 'affected'
            : undefined;
    const counted: Table = {
      ...table,
      query: (input) => {
        const part = partOf(input.pk);
        if (part) queries.push(part);
        return table.query(input);
      },
    };
    return { table: counted, queries };
  }

  it("reads each part's partition once and gives every part the incident's expiry", async () => {
    const { base, tenantId, open, up, parts, ttl } = await setup();
    const { table, queries } = countingQueries(base, open.id, tenantId);
    const deps = { table, logger: silentLogger, retentionDays: async () => RETENTION_DAYS };
    await applyTransition(deps, up);
    expect(queries.sort()).toEqual(['affected', 'also-failing', 'notes']);
    expect(await parts()).toEqual([ttl, ttl]);
  });

  it('gives the parts their expiry on the redelivery when the first delivery stopped after the resolution', async () => {
    const { base, open, up, parts, ttl } = await setup();
    let resolved = false;
    // The first delivery stops at its first write of a part (the resolution went through).
    const stopping: Table = {
      ...base,
      transact: async (ops) => {
        // A part's partition ends with the incident's id; the incident's own item is keyed by it.
        if (resolved && ops.some((op) => 'key' in op && op.key.pk.endsWith(`#${open.id}`)))
          throw new Error('stopped');
        const done = await base.transact(ops);
        if (ops.some((op) => 'key' in op && op.key.sk === open.id)) resolved = true;
        return done;
      },
    };
    const deps = { table: stopping, logger: silentLogger, retentionDays: async () => RETENTION_DAYS };
    await expect(applyTransition(deps, up)).rejects.toThrow('stopped');
    expect(resolved).toBe(true);
    expect(await parts()).toEqual([undefined, undefined]);
    await applyTransition({ ...deps, table: base }, up);
    expect(await parts()).toEqual([ttl, ttl]);
  });
});

describe.each(engines)("a batch of recoveries' retention ($engine)", ({ make }) => {
  it("reads each tenant's retention once per batch, and gives each incident its expiry", async () => {
    const table = make();
    const clock = createFakeClock(Date.parse('2026-03-01T00:00:00.000Z'));
    const tenantId = newId('tnt');
    const transition = (entityId: string, toState: 'up' | 'down'): TransitionRecord => ({
      id: newId('trn', clock.now()),
      tenant_id: tenantId,
      kind: 'entity',
      entity_id: entityId,
      entity_name: 'e',
      check_id: `chk_${entityId}`,
      from_state: toState === 'up' ? 'down' : 'up',
      to_state: toState,
      reason: 'test',
      created_at: isoTime(clock.now()),
    });
    const entities = [newId('ent'), newId('ent'), newId('ent')];
    const opened = entities.map((id) => incidentOpenedBy(transition(id, 'down'), false));
    for (const incident of opened) expect(await openIncident(table, incident)).toBe(true);
    clock.advance(60_000);
    const ups = entities.map((id) => transition(id, 'up'));
    const changes: Change[] = ups.map((t, n) => ({
      eventId: `e${n}`,
      eventName: 'INSERT',
      keys: { pk: `TRN#${tenantId}`, sk: t.id },
      newImage: { pk: `TRN#${tenantId}`, sk: t.id, entity: TRANSITION_ENTITY, ...t },
      oldImage: undefined,
      expired: false,
    }));
    let reads = 0;
    const consume = createIncidentConsumer({
      table,
      logger: silentLogger,
      retentionDays: async () => {
        reads += 1;
        return RETENTION_DAYS;
      },
    });
    await consume(changes);
    expect(reads).toBe(1);
    const ttl = incidentExpiry(isoTime(clock.now()), RETENTION_DAYS);
    for (const incident of opened) {
      const stored = await getIncident(table, tenantId, incident.id);
      expect(stored?.state).toBe('resolved');
    }
    const items = await Promise.all(
      opened.map((incident) => table.get({ pk: `INC#${tenantId}#${shardOf(incident.id)}`, sk: incident.id })),
    );
    expect(items.map((item) => item?.ttl)).toEqual([ttl, ttl, ttl]);
  });
});
