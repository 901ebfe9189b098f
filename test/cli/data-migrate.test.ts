import { describe, expect, it } from 'vitest';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { runOperatorCommand } from '../../lib/cli/operator.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { loadPreviousLayout, previousLayout } from '../fixtures/previous-layout/load.ts';

describe('npm run vigil -- data migrate', () => {
  it('runs every migration in order on a store of the previous layout, and nothing on a second run', async () => {
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const dump = previousLayout();
    await loadPreviousLayout(table, dump);
    const run = (argv: string[]) => runOperatorCommand(argv, { table, clock: systemClock, dueShards: 2 });

    // The store was already in the two-item layout with its counters: its states and cells move.
    expect(JSON.parse(await run(['data', 'migrate']))).toEqual({
      checks_migrated: 0,
      // Its five checks' states were in the tenant's partition (issue 78 point 5 moves them).
      check_states_moved: 5,
      tenants_seeded: 0,
      checks_moved_to_cells: 3,
      // Its entity's id pointer predates the search indexes.
      entity_pointers_named: 1,
      incidents_moved_to_shards: 0,
      // Its entity (one check down, three up) was stored degraded: the worst check wins (issue 35).
      entity_aggregates_moved: 1,
      incidents_given_expiry: 0,
      // It sent no alert: its delivery log seeds no channel's last word.
      told_words_seeded: 0,
      builtin_skills_upgraded: 0,
    });
    const down = await getCheckDefinition(table, dump.tenant_id, dump.checks.down);
    expect(down?.cell?.shard).toBeLessThan(2);
    expect(JSON.parse(await run(['data', 'migrate']))).toEqual({
      checks_migrated: 0,
      check_states_moved: 0,
      tenants_seeded: 0,
      checks_moved_to_cells: 0,
      entity_pointers_named: 0,
      incidents_moved_to_shards: 0,
      entity_aggregates_moved: 0,
      incidents_given_expiry: 0,
      told_words_seeded: 0,
      builtin_skills_upgraded: 0,
    });
    // The single migrations still run on their own.
    expect(JSON.parse(await run(['checks', 'migrate']))).toEqual({ checks_migrated: 0 });
    expect(JSON.parse(await run(['status', 'migrate']))).toEqual({ tenants_seeded: 0 });
    await table.close();
  });
});
