import { deterministicId } from '../../platform/ids.ts';
import type { PageIncidentRecord } from '../items/page-incident-items.ts';
import { refusedStep } from './status-flow.ts';

/**
 * What publishing changes (PATCH `draft: false`, or a page's auto-publish of drafts): a draft goes
 * public, and the all-clear's drafted `resolved` update, if one waits, is appended and ends the
 * incident. A drafted update the status flow refuses (a person resolved it already) is dropped.
 */
export function publishedFields(
  current: PageIncidentRecord,
): Pick<PageIncidentRecord, 'draft' | 'drafted_update'> &
  Partial<Pick<PageIncidentRecord, 'status' | 'updates' | 'resolved_at'>> {
  const pending = current.drafted_update;
  if (!pending || refusedStep(current.status, pending.status)) return { draft: false, drafted_update: null };
  const update = {
    // The same id on every publish of this drafted update: it is appended at most once anyway (version).
    id: deterministicId('piu', Date.parse(pending.at), `${current.id}|${pending.status}`),
    status: pending.status,
    body: pending.body,
    // A public notice: subscribers are told of it when it is published.
    notify: true,
    at: pending.at,
  };
  return {
    draft: false,
    drafted_update: null,
    status: pending.status,
    updates: [...current.updates, update],
    resolved_at: pending.at,
  };
}
