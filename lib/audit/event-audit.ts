import type { AuditEvent } from '../domain/principal.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { type AuditEntry, appendAuditEntry } from './audit-items.ts';

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
    const entry: AuditEntry = {
      id: newId('aud', now),
      tenant_id: event.tenantId,
      at: isoTime(now),
      actor: event.actor,
      via: 'api',
      action: event.action,
      target: event.target,
      summary: event.summary,
      source_ip: event.sourceIp ?? null,
    };
    try {
      await appendAuditEntry(deps.table, entry, await deps.retentionDays(event.tenantId));
    } catch (err) {
      deps.logger.error('audit entry not written', { tenant_id: event.tenantId, action: event.action, err });
    }
  };
}
