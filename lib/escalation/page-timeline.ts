import type { TimelineEntry } from '../incidents/timeline.ts';
import type { Table } from '../store/table.ts';
import { readPages } from './page-items.ts';

/** The incident's page log as timeline entries (the app hands it to lib/incidents as the `pages` source). */
export function pageTimeline(table: Table) {
  return async (tenantId: string, incidentId: string): Promise<TimelineEntry[]> =>
    (await readPages(table, tenantId, incidentId)).map((p) => ({
      type: 'page',
      at: p.at,
      user_id: p.user_id,
      channel_id: p.channel_id,
      contact_kind: p.contact_kind,
      policy_id: p.policy_id,
      round: p.round,
      step: p.step,
      target: { type: p.target.type, id: p.target.id },
      outcome: p.outcome,
      error: p.error,
    }));
}
