import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCell } from '../../lib/checks/cells/cell-items.ts';
import { getCellState } from '../../lib/checks/cells/cell-result-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { generateCellShard } from '../../lib/checks/runner/cell-generator.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/**
 * Deleting an entity purges its checks later (on the change feed); its pull checks leave their
 * cells then, so a cell never keeps members whose definitions are gone, and a cell left empty is
 * sent no slots.
 */
describe.each(runtimes)('the entity purge and cells ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Cellpurge');
  });
  afterAll(async () => {
    await api.close();
  });

  it('takes the entity’s pull checks out of their cell, leaves the others, and sends an empty cell nothing', async () => {
    const doomed = await newEntity(api, { key: tenant.key });
    const kept = await newEntity(api, { key: tenant.key });
    // One interval of one tenant: the three checks share a cell.
    const body = (entityId: string) => quietTcpCheck(entityId, { interval_seconds: 120 });
    const gone = [
      await newCheck(api, body(doomed), tenant.key),
      await newCheck(api, body(doomed), tenant.key),
    ];
    const stays = await newCheck(api, body(kept), tenant.key);
    const place = (await getCheckDefinition(api.table, tenant.tenantId, stays))?.cell;
    if (!place) throw new Error('an enabled pull check runs in a cell');
    const membersOf = async () =>
      Object.keys((await getCell(api.table, place.shard, place.cell_id))?.members ?? {});
    expect((await membersOf()).sort()).toEqual([...gone, stays].sort());

    const doomedCheck = await getCheckDefinition(api.table, tenant.tenantId, gone[0] as string);
    const path = `/v1/blueprints/${doomedCheck?.blueprint_slug}/entities/${doomedCheck?.entity_slug}`;
    expect((await api.request('DELETE', path, { key: tenant.key })).status).toBe(204);
    await api.drainChanges();

    expect(await membersOf()).toEqual([stays]);
    const state = await getCellState(api.table, place.cell_id);
    for (const id of gone) expect(state?.members).not.toHaveProperty(id);
    expect(state?.members[stays]).toMatchObject({ state: 'unknown' });

    // The last member leaves by its own delete: the cell stays, and the generator sends it nothing.
    expect((await api.request('DELETE', `/v1/checks/${stays}`, { key: tenant.key })).status).toBe(204);
    expect(await membersOf()).toEqual([]);
    const sent: unknown[] = [];
    await generateCellShard(place.shard, Date.now() + 600_000, {
      table: api.table,
      nowMs: Date.now(),
      dispatch: async (slots) => {
        sent.push(...slots.filter((s) => s.job.cell_id === place.cell_id));
        return 0;
      },
    });
    expect(sent).toEqual([]);
  });
});
