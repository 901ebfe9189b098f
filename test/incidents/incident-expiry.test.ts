import { describe, expect, it } from 'vitest';
import { getTenant } from '../../lib/auth/tenants/tenant-items.ts';
import type { TransitionRecord } from '../../lib/checks/items/transition-items.ts';
import { addAlsoFailing } from '../../lib/incidents/also-failing-items.ts';
import { incidentOpenedBy } from '../../lib/incidents/incident-consumer.ts';
import { incidentUnresolvedOp, openIncident } from '../../lib/incidents/incident-items.ts';
import { notePutOp } from '../../lib/incidents/incident-note-items.ts';
import { incidentExpiry, migrateIncidentExpiry } from '../../lib/incidents/incident-retention.ts';
import { sweepRetention } from '../../lib/local/retention-sweep.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { shardOf } from '../../lib/store/sharded-feed.ts';
import type { Item, Table } from '../../lib/store/table.ts';
import { bothRuntimes } from '../support/api-harness.ts';
import { tableEngines } from '../support/table-engines.ts';
import { useIncidentApi } from './use-incident-api.ts';

/**
 * Issue 36 item 6: incidents, their notes and also-failing items expire with the tenant's
 * retention after their resolution (DynamoDB TTL in the cloud, the retention sweep locally, both
 * by the `ttl` attribute), never while unresolved; incidents resolved before get their expiry from
 * a migration.
 */

const incidentItem = (table: Table, tenantId: string, id: string) =>
  table.get({ pk: `INC#${tenantId}#${shardOf(id)}`, sk: id });
const noteItems = async (table: Table, tenantId: string, id: string): Promise<Item[]> =>
  (await table.query({ pk: `INC#${tenantId}#${id}`, consistent: true })).items;

describe.each(bothRuntimes)('incident expiry ($runtime)', ({ start }) => {
  const { api, call, fx } = useIncidentApi(start);

  const incidentOf = async (entityId: string, state: string) => {
    await expect
      .poll(async () => (await call('GET', `/v1/incidents?entity_id=${entityId}&state=${state}`)).incidents)
      .toHaveLength(1);
    return (await call('GET', `/v1/incidents?entity_id=${entityId}&state=${state}`)).incidents[0];
  };

  it('sets no expiry while an incident is open, and the retention after its resolution on it and its notes', async () => {
    const { entityId, checkId } = await fx.entityWithCheck('Expiring');
    const { entityId: stillDown, checkId: stillDownCheck } = await fx.entityWithCheck('Still down');
    for (const [check, success] of [
      [checkId, true],
      [checkId, false],
      [stillDownCheck, true],
      [stillDownCheck, false],
    ] as const)
      await fx.result(check, success);
    const open = await incidentOf(entityId, 'open');
    const other = await incidentOf(stillDown, 'open');
    await call('POST', `/v1/incidents/${open.id}/notes`, { text: 'looking' }, 201);
    expect((await incidentItem(api().table, api().tenantId, open.id))?.ttl).toBeUndefined();
    expect((await noteItems(api().table, api().tenantId, open.id)).map((n) => n.ttl)).toEqual([undefined]);

    await fx.result(checkId, true);
    const resolved = await incidentOf(entityId, 'resolved');
    const retention = (await getTenant(api().table, api().tenantId))?.retention_days ?? 0;
    const ttl = incidentExpiry(resolved.resolved_at, retention);
    expect(retention).toBe(30);
    expect((await incidentItem(api().table, api().tenantId, open.id))?.ttl).toBe(ttl);
    // A note after the resolution carries the incident's expiry from its put.
    await call('POST', `/v1/incidents/${open.id}/notes`, { text: 'postmortem' }, 201);
    expect((await noteItems(api().table, api().tenantId, open.id)).map((n) => n.ttl)).toEqual([ttl, ttl]);
    expect((await incidentItem(api().table, api().tenantId, other.id))?.ttl).toBeUndefined();

    if (api().runtime === 'local') {
      // The local retention sweep deletes by the same ttl: the resolved incident and its notes go
      // once it passes, the open incident stays.
      const sqlite = api().table as SqliteTable;
      await sweepRetention(sqlite, (ttl - 1) * 1000);
      expect(await incidentItem(api().table, api().tenantId, open.id)).toBeDefined();
      expect((await sweepRetention(sqlite, ttl * 1000)).deleted).toBeGreaterThanOrEqual(3);
      // (The local table's read cache may answer a deleted item for up to a second.)
      await expect.poll(() => incidentItem(api().table, api().tenantId, open.id)).toBeUndefined();
      await expect.poll(() => noteItems(api().table, api().tenantId, open.id)).toEqual([]);
      expect(await incidentItem(api().table, api().tenantId, other.id)).toBeDefined();
      await call('GET', `/v1/incidents/${open.id}`, undefined, 404);
    }
  });
});

const engines = tableEngines();

describe.each(engines)('the incident expiry migration ($engine)', ({ make }) => {
  it('gives incidents resolved before their expiry from resolved_at, once, and leaves open ones', async () => {
    const table = make();
    const clock = createFakeClock(Date.parse('2026-03-01T00:00:00.000Z'));
    const tenantId = newId('tnt');
    const transition = (entityId: string): TransitionRecord => ({
      id: newId('trn', clock.now()),
      tenant_id: tenantId,
      kind: 'entity',
      entity_id: entityId,
      entity_name: 'e',
      check_id: newId('chk'),
      from_state: 'up',
      to_state: 'down',
      reason: 'test',
      created_at: isoTime(clock.now()),
    });
    const legacy = incidentOpenedBy(transition(newId('ent')), false);
    const joins = (checkId: string) =>
      addAlsoFailing(
        table,
        tenantId,
        { incident_id: legacy.id, check_id: checkId, check_name: checkId, at: isoTime(clock.now()) },
        [incidentUnresolvedOp(tenantId, legacy.id)],
      );
    const open = incidentOpenedBy(transition(newId('ent')), false);
    expect(await openIncident(table, open)).toBe(true);
    // As the version before stored a resolved incident and its note: no ttl on either.
    const resolvedAt = '2026-02-20T10:00:00.000Z';
    const stored = await (async () => {
      expect(await openIncident(table, legacy)).toBe(true);
      expect(await joins('chk_a')).toBe(true);
      const item = (await incidentItem(table, tenantId, legacy.id)) as Item;
      return { ...item, state: 'resolved', resolved_at: resolvedAt, schema_version: 1 };
    })();
    await table.transact([{ type: 'put', item: stored }]);
    // A resolved incident is joined by no check (it would carry no expiry).
    expect(await joins('chk_b')).toBe(false);
    const note = { incident_id: legacy.id, text: 'x', created_by: 'usr_1', created_at: resolvedAt };
    await table.transact([notePutOp(tenantId, note, `${resolvedAt}#abc`, undefined)]);
    const deps = {
      table,
      clock,
      logger: silentLogger,
      tenants: { listTenants: async () => [{ id: tenantId, retention_days: 7 }] },
    };

    expect(await migrateIncidentExpiry(deps)).toBe(1);
    const ttl = incidentExpiry(resolvedAt, 7);
    expect((await incidentItem(table, tenantId, legacy.id))?.ttl).toBe(ttl);
    expect((await noteItems(table, tenantId, legacy.id)).map((n) => n.ttl)).toEqual([ttl]);
    const joined = await table.query({ pk: `ALSOFAIL#${tenantId}#${legacy.id}`, consistent: true });
    expect(joined.items.map((i) => [i.sk, i.ttl])).toEqual([['CHK#chk_a', ttl]]);
    expect((await incidentItem(table, tenantId, open.id))?.ttl).toBeUndefined();
    // The marker: a second run reads only it.
    expect(await migrateIncidentExpiry(deps)).toBe(0);
    await table.close();
  });
});
