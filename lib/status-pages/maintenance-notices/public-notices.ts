import * as z from 'zod';
import { noticesFor } from '../../maintenance/notices.ts';
import type { Table } from '../../store/table.ts';

/**
 * The maintenance notices a public page lists (issue 54 item 2): the announced windows that cover
 * one of the page's entities, ahead of a run, during it and for 24 h after. Built field by field
 * from an allow-list as the rest of the public view is: the window's name, its run's times, the
 * page's own entities it covers by their names (never another entity of the catalog) and its
 * public note. Ids, cron, coverage rules and other windows stay out.
 */

const NOTICE_STATUSES = ['in_progress', 'scheduled', 'completed'] as const;

export const maintenanceNoticeSchema = z.strictObject({
  name: z.string(),
  status: z.enum(NOTICE_STATUSES).meta({
    description: 'scheduled: announced and ahead; in_progress: on now; completed: ended less than 24 h ago',
  }),
  starts_at: z.string(),
  ends_at: z.string(),
  components: z
    .array(z.string())
    .meta({ description: 'The page’s entities it covers, by name, in the page’s order' }),
  public_note: z
    .string()
    .nullable()
    .meta({ description: 'Markdown (the HTML page renders its safe subset); null: none' }),
});
export type PublicNotice = z.infer<typeof maintenanceNoticeSchema>;

const ORDER: Record<PublicNotice['status'], number> = { in_progress: 0, scheduled: 1, completed: 2 };

/** The page's notices at `nowMs`: in progress first, then scheduled (soonest first), then completed (latest first). */
export async function pageNotices(
  table: Table,
  tenantId: string,
  shown: { id: string; name: string; blueprint_slug: string }[],
  nowMs: number,
): Promise<PublicNotice[]> {
  const names = new Map(shown.map((entity) => [entity.id, entity.name]));
  const notices = await noticesFor(table, tenantId, shown, nowMs);
  return notices
    .map((notice) => ({
      name: notice.name,
      status: notice.run.phase,
      starts_at: new Date(notice.run.startMs).toISOString(),
      ends_at: new Date(notice.run.endMs).toISOString(),
      components: notice.entity_ids.flatMap((id) => names.get(id) ?? []),
      public_note: notice.public_note,
    }))
    .sort(
      (a, b) =>
        ORDER[a.status] - ORDER[b.status] ||
        (a.status === 'completed' ? b.ends_at.localeCompare(a.ends_at) : 0),
    );
}
