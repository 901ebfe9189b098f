import { shardOf } from '../../lib/store/sharded-feed.ts';

/**
 * Keys of stored items as docs/data-model.md gives them, for tests that read or damage items
 * directly. Lib keeps each item's keys private to its owner module; tests hold the documented
 * layout instead, so a change of layout shows up here and in the docs together.
 */
export const storedKeys = {
  check: (tenantId: string, checkId: string) => ({ pk: `TENANT#${tenantId}`, sk: `CHECK#${checkId}` }),
  /** In its check's partition (issue 78 point 5); `tenantId` kept for the callers' symmetry. */
  checkState: (_tenantId: string, checkId: string) => ({ pk: `CHECK#${checkId}`, sk: 'STATE' }),
  /** Where releases before issue 78 point 5 kept it: next to its definition (state-partition migration). */
  tenantCheckState: (tenantId: string, checkId: string) => ({
    pk: `TENANT#${tenantId}`,
    sk: `CHECK#${checkId}#STATE`,
  }),
  /** In the shard of its entity (`TRN#<tnt>#<shard>`, lib/store/sharded-feed.ts). */
  entityTransition: (tenantId: string, entityId: string, transitionId: string) => ({
    pk: `TRN#${tenantId}#${shardOf(entityId)}`,
    sk: transitionId,
  }),
};

/** The sort-key prefix of a check's results in its partition (`CHECK#<chk_id>`). */
export const RESULT_SK_PREFIX = 'RES#';
