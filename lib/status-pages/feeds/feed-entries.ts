import { historyWindow } from '../incidents/public-incidents.ts';
import {
  type PageIncidentRecord,
  readOpenPageIncidents,
  readPageHistory,
} from '../items/page-incident-items.ts';

/**
 * The incidents a page's feeds carry: its published written incidents (never drafts) that are
 * open or started in the last 90 days, one entry per incident with all its updates, as
 * Statuspage's history feeds do (an entry's `updated` moves with each update, so readers show the
 * incident again rather than one entry per update scattered among others). Newest update first,
 * at most FEED_ENTRIES.
 */

/** Entries in one feed: enough for a reader that polls daily, small enough to render per request miss. */
const FEED_ENTRIES = 25;

/** When an incident last changed for its readers: its newest update (else its start). */
export const lastUpdateAt = (r: PageIncidentRecord) => r.updates.at(-1)?.at ?? r.started_at;

/** The page's feed incidents, newest update first; drafts never. */
export async function readFeedIncidents(
  table: Parameters<typeof readPageHistory>[0],
  page: { tenantId: string; slug: string },
  nowMs: number,
): Promise<PageIncidentRecord[]> {
  const [open, recent] = await Promise.all([
    readOpenPageIncidents(table, page.tenantId, page.slug),
    readPageHistory(table, page.tenantId, page.slug, {
      ...historyWindow(nowMs),
      limit: FEED_ENTRIES * 2,
    }),
  ]);
  const byId = new Map<string, PageIncidentRecord>();
  for (const record of [...open, ...recent.items]) if (!record.draft) byId.set(record.id, record);
  return [...byId.values()]
    .sort((a, b) => lastUpdateAt(b).localeCompare(lastUpdateAt(a)) || b.id.localeCompare(a.id))
    .slice(0, FEED_ENTRIES);
}
