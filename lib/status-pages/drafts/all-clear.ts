import { readEntityById } from '../../catalog/entities.ts';
import { dependentsOf } from '../../catalog/relations.ts';
import type { TransitionRecord } from '../../checks/results.ts';
import { incidentAtOrBefore, incidentIdOf } from '../../incidents/incident-items.ts';
import { isoTime } from '../../platform/clock.ts';
import {
  getPageIncident,
  type PageIncidentRecord,
  readOpenPageIncidents,
} from '../items/page-incident-items.ts';
import { listStatusPages, type StatusPageRecord } from '../items/status-page-items.ts';
import {
  affectedBy,
  type DraftDeps,
  draftForRootsOf,
  draftIdOf,
  isDown,
  keptChanging,
  RACE_ROUNDS,
  replacedDraft,
  touched,
} from './draft-writer.ts';
import { resolvedBody } from './notice-text.ts';
import { scheduleAutoPublish } from './publish-job.ts';

/**
 * The all-clear of drafts from the dependency graph (draft-writer.ts makes and widens them): the
 * root's recovery drafts the `resolved` update on each page's draft of the change it ends; so does
 * the recovery of a page's last component in a root's trouble while the root is still down.
 */

/** Drafts the all-clear's resolved update on one drafted incident (once: a drafted update stays until published). */
async function draftResolution(
  deps: DraftDeps,
  page: StatusPageRecord,
  id: string,
  t: TransitionRecord,
): Promise<void> {
  const { table } = deps;
  for (let round = 0; round < RACE_ROUNDS; round += 1) {
    const current = await getPageIncident(table, page.tenant_id, page.slug, id);
    if (!current?.drafted_from || current.status === 'resolved' || current.drafted_update) return;
    const names = await Promise.all(
      current.impact.map(async (i) => (await readEntityById(table, page.tenant_id, i.entity_id))?.name),
    );
    const nowMs = deps.clock.now();
    const version = current.version + 1;
    const untouched = !touched(current);
    const next: PageIncidentRecord = {
      ...current,
      drafted_update: {
        status: 'resolved',
        body: resolvedBody(names.flatMap((n) => (n ? [n] : []))),
        at: t.created_at,
      },
      updated_at: isoTime(nowMs),
      version,
      // Still the drafting's own while nobody touched it: then its auto-publish may publish it.
      ...(untouched ? { drafted_version: version } : {}),
    };
    if (untouched) await scheduleAutoPublish(deps.enqueue, page, next, nowMs);
    if (await replacedDraft(table, next, current.version)) return;
  }
  throw keptChanging(page, id);
}

/**
 * An entity's recovery: the change it ends is the entity's incident opened last before it; on each
 * page, the draft made for that change (its id is derived, read consistently) gets the drafted
 * `resolved` update. A page without one, or a draft resolved or already cleared, is left alone.
 */
export async function draftAllClear(deps: DraftDeps, t: TransitionRecord): Promise<void> {
  const pages = await listStatusPages(deps.table, t.tenant_id);
  if (pages.length === 0) return;
  const ended = await incidentAtOrBefore(deps.table, {
    tenant: t.tenant_id,
    entity: t.entity_id,
    at: incidentIdOf(t.id),
  });
  if (ended && ended.opening_transition_id < t.id)
    for (const page of pages) {
      const id = draftIdOf(page.slug, t.entity_id, ended.opening_transition_id, ended.opened_at);
      await draftResolution(deps, page, id, t);
    }
  await draftPagesClear(
    deps,
    pages.filter((p) => p.entity_ids.includes(t.entity_id)),
    t,
  );
  // A dependent still down is a root cause of its own now (no upstream down above it): its drafts
  // are made as its own change into down would have made them, so the live path and a replay of
  // the feed (which reads the states now) end the same.
  for (const id of await dependentsOf(deps.table, t.tenant_id, t.entity_id)) {
    const dependent = await readEntityById(deps.table, t.tenant_id, id);
    if (dependent && isDown(dependent.state)) await draftForRootsOf(deps, t.tenant_id, id);
  }
}

/**
 * A dependent's recovery while its root is still down: on each page showing it, a draft of another
 * root's change whose page now shows nothing of that root's trouble (the root and its dependents
 * down or degraded now, read again, so a replayed recovery of a component down again does nothing)
 * gets the drafted `resolved` update, as the root's own recovery would: the page's last word is
 * not an outage its components are out of.
 */
async function draftPagesClear(
  deps: DraftDeps,
  pages: StatusPageRecord[],
  t: TransitionRecord,
): Promise<void> {
  for (const page of pages) {
    const open = await readOpenPageIncidents(deps.table, t.tenant_id, page.slug);
    for (const incident of open) {
      const from = incident.drafted_from;
      if (!from || from.entity_id === t.entity_id || incident.drafted_update) continue;
      const root = await readEntityById(deps.table, t.tenant_id, from.entity_id);
      if (!root || !isDown(root.state)) continue; // the root's own recovery drafts it
      const affected = await affectedBy(deps.table, t.tenant_id, root);
      if (page.entity_ids.some((id) => affected.has(id))) continue;
      await draftResolution(deps, page, incident.id, t);
    }
  }
}
