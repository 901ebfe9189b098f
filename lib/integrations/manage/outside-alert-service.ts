import type { PageDeps } from '../../store/paging.ts';
import { type OutsideAlertRecord, pageOutsideAlerts } from '../items/outside-alert-items.ts';

/** Reads of outside alerts (GET /v1/outside-alerts). */

export interface OutsideAlertQuery {
  limit: number;
  cursor?: string | undefined;
  entity_id?: string | undefined;
  status?: 'open' | 'triggered' | 'acknowledged' | 'resolved' | undefined;
}

export function createOutsideAlertService(deps: PageDeps) {
  return {
    /** One page, newest heard first, of the tenant's alerts or one entity's, by status (`open`: not resolved). */
    list(tenantId: string, query: OutsideAlertQuery) {
      const { status } = query;
      const keep = (a: OutsideAlertRecord) =>
        status === undefined || (status === 'open' ? a.status !== 'resolved' : a.status === status);
      return pageOutsideAlerts(
        deps,
        { tenantId, entityId: query.entity_id },
        { limit: query.limit, cursor: query.cursor },
        keep,
      );
    },
  };
}

export type OutsideAlertService = ReturnType<typeof createOutsideAlertService>;
