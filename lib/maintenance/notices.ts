import type { Table } from '../store/table.ts';
import { type MaintenanceSubject, windowCoverage } from './evaluate.ts';
import { getWindow, listWindows, type WindowRecord, windowOfImage } from './maintenance-items.ts';
import { type NoticeMoment, type NoticeRun, noticeMoments, shownRuns } from './notice-times.ts';

/**
 * The face of maintenance notices for the status pages: which announced windows a page lists
 * now, for the entities it shows (notice-times.ts says when a run is shown; evaluate.ts what a
 * window covers, dependents included). Subscriber notices read the moments of a window through
 * `noticeMoments`.
 */

export { getWindow, type NoticeMoment, noticeMoments, type WindowRecord, windowOfImage };

/** The maintenance_window item type (subscriber notices follow its changes on the feed). */
export const MAINTENANCE_WINDOW_ENTITY = 'maintenance_window';

/** How far ahead the next moment of a window is looked for (a yearly window's next run). */
const NEXT_MOMENT_HORIZON_MS = 400 * 86_400_000;

/** The window's first notice moment at or after `fromMs` (within 400 days), or undefined. */
export function nextNoticeMoment(window: WindowRecord, fromMs: number): NoticeMoment | undefined {
  return noticeMoments(window, fromMs, fromMs + NEXT_MOMENT_HORIZON_MS)[0];
}

/** Whether `moment` (its kind, time and run) is still one of the window's, as it stands now. */
export function momentHolds(
  window: WindowRecord,
  moment: { kind: NoticeMoment['kind']; atMs: number; startMs: number },
): boolean {
  return noticeMoments(window, moment.atMs, moment.atMs + 1).some(
    (m) => m.kind === moment.kind && m.startMs === moment.startMs,
  );
}

/** The ids of `entities` the window covers (by id, blueprint or, when it says so, an upstream), in their order. */
export async function windowCovers(
  table: Table,
  tenantId: string,
  window: WindowRecord,
  entities: MaintenanceSubject[],
): Promise<string[]> {
  const cover = windowCoverage(table, tenantId, [{ window }], 'all');
  const covered: string[] = [];
  for (const entity of entities) if ((await cover(entity)).length > 0) covered.push(entity.id);
  return covered;
}

/** One run of an announced window that covers some of the given entities. */
export interface MaintenanceNotice {
  name: string;
  /** Markdown (the page incidents' subset), or null. */
  public_note: string | null;
  run: NoticeRun;
  /** The ids of the given entities it covers, in their given order (never any other entity). */
  entity_ids: string[];
}

/** Notices of one tenant's windows for `entities` at `nowMs`: scheduled ones by start, soonest first. */
export async function noticesFor(
  table: Table,
  tenantId: string,
  entities: MaintenanceSubject[],
  nowMs: number,
): Promise<MaintenanceNotice[]> {
  if (entities.length === 0) return [];
  const shown = (await listWindows(table, tenantId)).flatMap((window) => {
    const runs = shownRuns(window, nowMs);
    return runs.length > 0 ? [{ window, runs }] : [];
  });
  if (shown.length === 0) return [];
  const cover = windowCoverage(table, tenantId, shown, 'all');
  const covered = new Map<(typeof shown)[number], string[]>();
  for (const entity of entities) {
    for (const found of await cover(entity)) covered.set(found, [...(covered.get(found) ?? []), entity.id]);
  }
  const notices = [...covered].flatMap(([{ window, runs }, entityIds]) =>
    runs.map((run) => ({ name: window.name, public_note: window.public_note, run, entity_ids: entityIds })),
  );
  return notices.sort((a, b) => a.run.startMs - b.run.startMs || a.name.localeCompare(b.name));
}
