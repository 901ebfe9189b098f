import type { Key } from './table.ts';

/**
 * The tenant partition: most items a tenant owns (its catalog, checks, keys, skills, actions) live
 * under `TENANT#<tnt>`, each owner module prefixing its own sort keys, so a tenant id from the API
 * key is part of every lookup. The one partition several owners share; each builds only its items.
 */
export const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;

/**
 * The key of an item of the tenant partition known by its id (`TENANT#<tnt>`, `<prefix><id>`), and
 * its pattern in docs/data-model.md, with `idPlaceholder` (`'<usr>'`) for the id.
 */
export const tenantItemKeys = (prefix: string, idPlaceholder: string) => ({
  key: (k: { tenant_id: string; id: string }): Key => ({ pk: tenantPk(k.tenant_id), sk: `${prefix}${k.id}` }),
  docKey: { tenant_id: '<tnt>', id: idPlaceholder },
});

/**
 * A check's partition: what grows with the check or hangs off it (its results, rollups and check
 * transitions; its notification policy, channels and state; its ping URLs). Several owners keep
 * items here, each with its own sort-key prefix, and the check's partition purge removes them all.
 */
export const checkPartition = (checkId: string) => `CHECK#${checkId}`;

/**
 * A cell's partition (issue 26's layout): what a cell of pull checks leaves behind, its slots'
 * results, its members' state and its 5-minute rollups, each owner with its own sort keys.
 */
export const cellPartition = (cellId: string) => `CELLRES#${cellId}`;
