import { describe, expect, it } from 'vitest';
import { createTenantStore } from '../../lib/auth/tenants.ts';
import { createBlueprintStore } from '../../lib/catalog/blueprints/blueprint-store.ts';
import { catalogServices } from '../../lib/catalog/compose.ts';
import { createEntityStore } from '../../lib/catalog/entities/entity-store.ts';
import { catalogOwnEntities } from '../../lib/integrations/manage/own-entities.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';

/** Integrations' own entities, in the real catalog over SQLite: the blueprint made once, entities made and removed. */

describe("integrations' own entities", () => {
  it('makes the integration blueprint once, an entity per integration, and removes it (twice is harmless)', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const clock = createFakeClock();
    const { tenant } = await createTenantStore(table, clock).createTenant({
      name: 'A',
      email: 'a@example.com',
    });
    const entities = createEntityStore(table);
    const catalog = catalogServices({
      table,
      clock,
      blueprints: createBlueprintStore(table),
      entities,
      cursors: createCursorSeal(async () => Buffer.alloc(32, 3)),
    });
    const own = catalogOwnEntities({ blueprints: catalog.blueprintService, entities: catalog.entityService });
    const [first, second] = await Promise.all([
      own.createOwnEntity(tenant.id, 'int-01abc', 'Prometheus'),
      own.createOwnEntity(tenant.id, 'int-01abd', 'Grafana'),
    ]);
    expect(await catalog.blueprintService.get(tenant.id, 'integration')).toMatchObject({
      slug: 'integration',
      fields: [],
    });
    expect(await entities.get(tenant.id, 'integration', 'int-01abc')).toMatchObject({
      id: first,
      name: 'Prometheus',
    });
    expect(await entities.get(tenant.id, 'integration', 'int-01abd')).toMatchObject({ id: second });
    await own.removeOwnEntity(tenant.id, 'int-01abc');
    await own.removeOwnEntity(tenant.id, 'int-01abc');
    expect(await entities.get(tenant.id, 'integration', 'int-01abc')).toBeUndefined();
  });
});
