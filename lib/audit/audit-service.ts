import type { Clock } from '../platform/clock.ts';
import { ValidationError } from '../platform/errors.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { type AuditEntry, readAuditLog } from './audit-items.ts';

/** The largest page of GET /v1/audit and get_audit_log. */
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;

/** A list request as callers give it: `since` an ISO time. */
export interface AuditQuery {
  actor?: string | undefined;
  target?: string | undefined;
  since?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** An entry as GET /v1/audit answers it (no tenant id: the caller's own). */
export type AuditView = Omit<AuditEntry, 'tenant_id'>;

const view = ({ tenant_id: _tenant, ...entry }: AuditEntry): AuditView => entry;

/** Reads of the audit log (GET /v1/audit, get_audit_log): newest first, filtered, paged. */
export function createAuditService(deps: { table: Table; clock: Clock; cursors: CursorSeal }) {
  return {
    async list(
      tenantId: string,
      query: AuditQuery,
    ): Promise<{ entries: AuditView[]; next_cursor: string | null }> {
      const sinceMs = query.since === undefined ? undefined : Date.parse(query.since);
      if (sinceMs !== undefined && Number.isNaN(sinceMs))
        throw ValidationError.field('since', 'must be an ISO 8601 time');
      const limit = Math.min(Math.max(1, query.limit ?? AUDIT_PAGE_DEFAULT), AUDIT_PAGE_MAX);
      const page = await readAuditLog(
        deps,
        tenantId,
        { actor: query.actor, target: query.target, sinceMs, limit, cursor: query.cursor },
        deps.clock.now(),
      );
      return { entries: page.entries.map(view), next_cursor: page.nextCursor };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
