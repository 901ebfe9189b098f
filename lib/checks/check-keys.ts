import { itemType } from '../store/item-type.ts';
import { checkPartition, tenantPk } from '../store/partitions.ts';

/** Keys of the checks engine's items; see docs/data-model.md. */

/** gsi1 partition of an entity's checks (sk CHECK#<chk_id>, gsi1sk <chk_id>). */
export const entityChecksPk = (entityId: string) => `ENT#${entityId}#CHECKS`;

export const checkKeys = {
  /** The check's definition, in its tenant's partition; gsi1 lists an entity's checks. */
  check: (tenantId: string, checkId: string) => ({ pk: tenantPk(tenantId), sk: `CHECK#${checkId}` }),
  /** The check's running state, next to its definition; gsi2 (the due index) while it is scheduled. */
  state: (tenantId: string, checkId: string) => ({ pk: tenantPk(tenantId), sk: `CHECK#${checkId}#STATE` }),
  result: (checkId: string, checkedAt: string, resultId: string) => ({
    pk: checkPartition(checkId),
    sk: `RES#${checkedAt}#${resultId}`,
  }),
  transition: (checkId: string, transitionId: string) => ({
    pk: checkPartition(checkId),
    sk: `TRN#${transitionId}`,
  }),
  /** Per-check rollup of results per 5-minute bucket (sparklines without reading raw results). */
  rollup: (checkId: string, bucketStart: string) => ({
    pk: checkPartition(checkId),
    sk: `ROLLUP#${bucketStart}`,
  }),
};

/** The checks engine's item types: each item's `entity` and the version of its stored shape. */
export const checkTypes = {
  check: itemType('check'),
  state: itemType('check_state'),
  result: itemType('result'),
  transition: itemType('transition'),
  rollup: itemType('rollup'),
  /** The marker written once the check layout migration has run. */
  migration: itemType('migration'),
};

export const CHECK_PREFIX = 'CHECK#';
export const RESULT_PREFIX = 'RES#';
export const TRANSITION_PREFIX = 'TRN#';
export const ROLLUP_PREFIX = 'ROLLUP#';

/** gsi1 of check records: the entity's checks. */
export const checkGsi1 = (entityId: string, checkId: string) => ({
  gsi1pk: entityChecksPk(entityId),
  gsi1sk: checkId,
});

/** The partition of a tenant's entity transitions (its incident feed); sort key is the transition id. */
export const tenantTransitionsPk = (tenantId: string) => `TRN#${tenantId}`;

/** gsi2 of scheduled checks: the due index, sharded; sort key is the due time then the id. */
export const duePk = (shard: number) => `DUE#${shard}`;
export const dueSk = (nextRunAt: string, checkId: string) => `${nextRunAt}#${checkId}`;
