import { type Clock, isoTime } from '../platform/clock.ts';
import type { PurgeRound, PurgeStep } from '../purge/purge-consumer.ts';
import type { EntityPurgeJob } from '../purge/purge-job-items.ts';
import type { Table } from '../store/table.ts';
import { affectedPointerDeleteOp } from './affected-items.ts';
import { readOpenIncidentRecord } from './incident-items.ts';
import { type RetentionDays, resolveExpiring } from './incident-retention.ts';
import { promoteAffected } from './root-cause.ts';

/**
 * The incidents' step of an entity purge (lib/purge): a deleted entity will never have the `up`
 * transition that resolves its open incident, so the purge resolves it (resolution
 * `entity_deleted`, no resolving transition; the incident itself is kept, as every incident is
 * until the tenant's retention after its resolution, with the entity's name it was opened with, so
 * GET /v1/incidents/{id} still answers).
 *
 * Why here and not in a change-feed consumer of the entity's removal: the entity delete already
 * writes its purge job in the delete's transaction, and the purge consumer runs in both runtimes
 * (the outbox pump locally, the stream function in the cloud) with a step per owner; entity items
 * are not on the change feed (STREAM_ENTITIES), and adding them would send every entity update
 * through it. The write goes through incident-items.ts, the incidents' one owner, like the
 * consumer's resolution on `up`.
 *
 * Idempotent: a later round or a redelivered job finds no open incident and does nothing. The
 * write is conditional (resolved once, pointer dropped only for this incident), so a resolution
 * by an `up` transition at the same moment wins or loses cleanly. The incident consumer opens no
 * incident for a transition read after the entity is gone (incident-consumer.ts).
 */
export function resolveDeletedEntityIncident(
  clock: Clock,
  retentionDays: RetentionDays,
): PurgeStep<EntityPurgeJob> {
  return async (table: Table, job: EntityPurgeJob): Promise<PurgeRound> => {
    const open = await readOpenIncidentRecord(table, job.tenant_id, job.entity_id);
    if (open) {
      const at = isoTime(clock.now());
      await resolveExpiring({ table, retentionDays }, open, {
        at,
        transitionId: null,
        cause: 'entity_deleted',
      });
      // Its dependents still down are their own root cause now: each opens its own incident.
      await promoteAffected({ table }, open, at);
    }
    // Affected in another's incident: its entry stays there (the incident's record), its pointer goes.
    return { ops: [affectedPointerDeleteOp(job.tenant_id, job.entity_id)], more: false };
  };
}
