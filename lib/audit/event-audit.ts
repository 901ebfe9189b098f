import type { AuditEvent } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { appendAuditEntry } from './audit-items.ts';

/** Records an AuditEvent; never throws (a failing write is logged, as the router's sink does). */
export type RecordAuditEvent = (event: AuditEvent) => Promise<void>;

/**
 * The audit log's recorder of events no route reply names (lib/oauth's replay detection, lib/people's
 * failed sign-ins): via `api`, the actor the caller names.
 */
export function createEventAudit(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  retentionDays(tenantId: string): Promise<number>;
}): RecordAuditEvent {
  return async (event) => {
    const now = deps.clock.now();
    const entry = {
      tenant_id: event.tenantId,
      actor: event.actor,
      via: 'api' as const,
      action: event.action,
      target: event.target,
      summary: event.summary,
      source_ip: event.sourceIp ?? null,
    };
    try {
      await appendAuditEntry(deps.table, now, entry, await deps.retentionDays(event.tenantId));
    } catch (err) {
      deps.logger.error('audit entry not written', { tenant_id: event.tenantId, action: event.action, err });
    }
  };
}
