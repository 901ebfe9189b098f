import { getTenant } from '../auth/records.ts';
import { transactIf } from '../store/items.ts';
import { type MigrationDeps, runMarkedMigration } from '../store/marked-migration.ts';
import type { Table } from '../store/table.ts';
import { type AffectedRecord, expireAffected } from './affected-items.ts';
import { expireAlsoFailing } from './also-failing-items.ts';
import { incidentExpiryMarker } from './incident-expiry-items.ts';
import {
  forEachUnexpiredResolved,
  type IncidentRecord,
  incidentExpiryOp,
  type Resolution,
  resolveIncident,
} from './incident-items.ts';
import { expireNotes } from './incident-note-items.ts';

/**
 * Incidents expire with the tenant's retention (issue 36; before, they grew forever): an incident
 * and its notes, also-failing items and affected entries get a ttl (DynamoDB TTL in the cloud, the retention sweep
 * locally) of its resolution time plus the tenant's `retention_days`, set when it resolves. An
 * unresolved incident never expires, however long it stays open. Notes written after the
 * resolution carry the expiry from their put (incident-service.ts); a note or check joining an
 * unresolved incident carries none and is given it here.
 *
 * Incidents resolved before this version have no ttl: a migration (migrateIncidentExpiry, run
 * with the others at local start and by `data migrate`) gives each its expiry from its
 * `resolved_at`, once (marker), rather than a lazy rule on read, which would leave the incidents
 * nobody reads growing forever.
 */

/** A tenant's retention in days (its `retention_days`). */
export type RetentionDays = (tenantId: string) => Promise<number>;

/** A tenant's retention read from its record (resolved incidents expire with it); the default for one not found. */
export const tenantRetentionDays =
  (table: Table): RetentionDays =>
  async (tenantId) =>
    (await getTenant(table, tenantId))?.retention_days ?? 30;

/** When an incident resolved at `resolvedAt` expires (epoch seconds). */
export const incidentExpiry = (resolvedAt: string, retentionDays: number) =>
  Math.floor(Date.parse(resolvedAt) / 1000) + retentionDays * 86_400;

/** Gives the incident's parts the expiry `ttl`; answers its affected entries as read. */
async function expireParts(table: Table, record: IncidentRecord, ttl: number): Promise<AffectedRecord[]> {
  await expireNotes(table, record.tenant_id, record.id, ttl);
  await expireAlsoFailing(table, record.tenant_id, record.id, ttl);
  return expireAffected(table, record.tenant_id, record.id, ttl);
}

/**
 * Resolves an unresolved incident so that it and its parts expire with the tenant's retention;
 * false when it was resolved already. The parts get their expiry before the resolution (a crash
 * between leaves the incident unresolved: the retried purge round or request does it all again)
 * and after it (a note or check that joined meanwhile; later ones cannot join without an expiry,
 * see noteCountedOp and incidentUnresolvedOp).
 */
export async function resolveExpiring(
  deps: { table: Table; retentionDays: RetentionDays },
  record: IncidentRecord,
  resolution: Resolution,
): Promise<boolean> {
  const ttl = incidentExpiry(resolution.at, await deps.retentionDays(record.tenant_id));
  await expireParts(deps.table, record, ttl);
  if (!(await resolveIncident(deps.table, record, resolution, ttl))) return false;
  await expireParts(deps.table, record, ttl);
  return true;
}

/**
 * resolveExpiring for the change feed's recovery, which reads the parts once (3 queries, not 6):
 * after the resolution, when no part can join any more without its expiry. A crash between
 * leaves the incident resolved and parts without one; the feed delivers the transition again,
 * which finds the incident resolved by it and calls expireResolvedParts (incident-consumer.ts
 * resolvedAgain). Answers the incident's affected entries as read after the resolution (what its
 * promotion reads), or false when it was resolved already.
 */
export async function resolveThenExpire(
  deps: { table: Table; retentionDays: RetentionDays },
  record: IncidentRecord,
  resolution: Resolution,
): Promise<AffectedRecord[] | false> {
  const ttl = incidentExpiry(resolution.at, await deps.retentionDays(record.tenant_id));
  if (!(await resolveIncident(deps.table, record, resolution, ttl))) return false;
  return expireParts(deps.table, record, ttl);
}

/** Gives a resolved incident's parts its expiry (again): a redelivered resolution's; answers its affected entries. */
export async function expireResolvedParts(
  deps: { table: Table; retentionDays: RetentionDays },
  record: IncidentRecord & { resolved_at: string },
): Promise<AffectedRecord[]> {
  const ttl = incidentExpiry(record.resolved_at, await deps.retentionDays(record.tenant_id));
  return expireParts(deps.table, record, ttl);
}

/**
 * Gives every resolved incident stored without an expiry (before issue 36) and its parts the
 * expiry of its `resolved_at` plus its tenant's retention (one already past it goes at the next
 * sweep). Idempotent: an incident with a ttl is skipped, and the marker written at the end makes
 * later runs read only it. Answers how many incidents it gave an expiry.
 */
export function migrateIncidentExpiry(deps: MigrationDeps): Promise<number> {
  const { table } = deps;
  return runMarkedMigration(deps, {
    marker: incidentExpiryMarker,
    message: 'resolved incidents given their expiry',
    field: 'incidents',
    perTenant: async (tenant) => {
      let expiring = 0;
      await forEachUnexpiredResolved(table, tenant.id, async (record) => {
        const ttl = incidentExpiry(record.resolved_at ?? record.opened_at, tenant.retention_days);
        await expireParts(table, record, ttl);
        if (await transactIf(table, [incidentExpiryOp(tenant.id, record.id, ttl)])) expiring += 1;
      });
      return expiring;
    },
  });
}
