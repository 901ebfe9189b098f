import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransitionRecord } from '../../lib/checks/items/transition-items.ts';
import { applyTransition, incidentOpenedBy, opensIncident } from '../../lib/incidents/incident-consumer.ts';
import { openIncident } from '../../lib/incidents/incident-items.ts';
import { incidentIdOfEvent } from '../../lib/incidents/incident-of-event.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';

/**
 * The incident a state change belongs to (PagerDuty's dedup_key, Opsgenie's alias): the one it
 * opens, before the incident consumer ran too; the open one for a change inside it; the one a
 * recovery resolved, after the consumer resolved it; the one a change into down opens when the
 * entity has none open; none for a change of no incident.
 */

const TENANT = 'tnt_01J00000000000000000000000';
const ENTITY = 'ent_01J00000000000000000000000';

const trn = (n: number) => `trn_01JA${String(n).padStart(22, '0')}`;
const inc = (n: number) => `inc_01JA${String(n).padStart(22, '0')}`;

function transition(n: number, from: string, to: string): TransitionRecord {
  return {
    id: trn(n),
    tenant_id: TENANT,
    kind: 'entity',
    entity_id: ENTITY,
    entity_name: 'Payments API',
    check_id: 'chk_01J00000000000000000000000',
    from_state: from,
    to_state: to,
    reason: 'test',
    created_at: `2026-03-02T09:00:${String(n).padStart(2, '0')}.000Z`,
  } as TransitionRecord;
}

const eventOf = (t: TransitionRecord) => ({
  entity_id: t.entity_id,
  entity_name: t.entity_name,
  check_id: t.check_id,
  tenant_id: t.tenant_id,
  from_state: t.from_state,
  to_state: t.to_state,
  transition_id: t.id,
  timestamp: t.created_at,
});

describe('the incident of a state change', () => {
  let table: SqliteTable;
  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  });
  afterEach(async () => {
    await table.close();
  });
  /** As the incident consumer applies it (opened directly: no entity item is stored here). */
  const apply = async (t: TransitionRecord) => {
    if (opensIncident(t)) expect(await openIncident(table, incidentOpenedBy(t, false))).toBe(true);
    else await applyTransition({ table, logger: silentLogger, retentionDays: async () => 30 }, t);
  };

  it('follows one incident from its opening through a worse state to its recovery, and not into the next', async () => {
    const opening = transition(1, 'up', 'degraded');
    // Before the incident consumer stored it: derived from the transition.
    expect(await incidentIdOfEvent(table, eventOf(opening))).toBe(inc(1));
    await apply(opening);
    const worse = transition(2, 'degraded', 'down');
    await apply(worse);
    expect(await incidentIdOfEvent(table, eventOf(worse))).toBe(inc(1));
    const recovery = transition(3, 'down', 'up');
    expect(await incidentIdOfEvent(table, eventOf(recovery))).toBe(inc(1));
    await apply(recovery);
    // After the consumer resolved it (a retried recovery, a late notify job).
    expect(await incidentIdOfEvent(table, eventOf(recovery))).toBe(inc(1));
    const next = transition(4, 'up', 'down');
    await apply(next);
    expect(await incidentIdOfEvent(table, eventOf(next))).toBe(inc(4));
    expect(await incidentIdOfEvent(table, eventOf(recovery))).toBe(inc(1));
  });

  it('names none for a change of no incident', async () => {
    await apply(transition(1, 'up', 'down'));
    await apply(transition(2, 'down', 'up'));
    // Degraded from its first results: an entity that was never up opens no incident for it.
    expect(await incidentIdOfEvent(table, eventOf(transition(5, 'unknown', 'degraded')))).toBeUndefined();
  });

  it('names the incident a change into down opens when none is open, after unknown or a degraded start (issue 51)', async () => {
    await apply(transition(1, 'up', 'down'));
    await apply(transition(2, 'down', 'up'));
    // Down from its first results, after the earlier incident closed: the one it opens.
    expect(await incidentIdOfEvent(table, eventOf(transition(5, 'unknown', 'down')))).toBe(inc(5));
    // Degraded from its first results, then down: the down opens it.
    expect(await incidentIdOfEvent(table, eventOf(transition(7, 'degraded', 'down')))).toBe(inc(7));
    await openIncident(table, incidentOpenedBy(transition(7, 'degraded', 'down'), false));
    expect(await incidentIdOfEvent(table, eventOf(transition(7, 'degraded', 'down')))).toBe(inc(7));
    expect(await incidentIdOfEvent(table, eventOf(transition(8, 'down', 'degraded')))).toBe(inc(7));
  });
});
