import { type EntityState, readEntityById } from '../../catalog/entities.ts';
import { dependentsOf, upstreamsOf } from '../../catalog/relations.ts';
import type { TransitionRecord } from '../../checks/results.ts';
import { readOpenIncidentRecord } from '../../incidents/incident-items.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { deterministicId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import {
  getPageIncident,
  PAGE_INCIDENT_LIMITS,
  type PageIncidentRecord,
  pageIncidentCreatedOp,
  pageIncidentReplacedOp,
  readOpenPageIncidents,
} from '../items/page-incident-items.ts';
import { listStatusPages, type StatusPageRecord } from '../items/status-page-items.ts';
import {
  draftBody,
  draftTitle,
  type Impact,
  impactOfState,
  sameImpact,
  widenedImpact,
} from './notice-text.ts';
import { draftMarkedOp, draftWasMade } from './page-draft-items.ts';
import { type PublishJobEnqueue, scheduleAutoPublish } from './publish-job.ts';

/**
 * Drafts from the dependency graph (issue 54 item 5; DECISIONS.md "Status-page communication (wave
 * 5)"): a root cause (an entity down or degraded with no upstream down, that others depend_on)
 * makes one draft page incident per page that shows it or a dependent of it that is down or
 * degraded, per root change: the root's open incident (the episode its change into down or
 * degraded opened). The draft's id is derived from the page, the root and that transition, and a
 * marker is written with it, so a redelivered change, a replay, or another dependent moving finds
 * the draft (and widens its impact while nobody touched it) instead of making a second one; a draft
 * a person deleted is not made again. The root's recovery drafts the `resolved` update; so does
 * the recovery of a page's last component in the root's trouble while the root is still down (and
 * that component down again withdraws it, while nobody touched the draft).
 */

export interface DraftDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  enqueue: PublishJobEnqueue;
}

/** A write raced by another one (a person, another delivery) is read again this many times. */
export const RACE_ROUNDS = 3;

/** Writes a changed draft over the version it was read at; false when it changed meanwhile (read again). */
export async function replacedDraft(
  table: Table,
  next: PageIncidentRecord,
  readVersion: number,
): Promise<boolean> {
  try {
    await table.transact([pageIncidentReplacedOp(next, readVersion)]);
    return true;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    return false;
  }
}

/** What a draft change that lost every round throws: its job is tried again. */
export const keptChanging = (page: StatusPageRecord, id: string) =>
  new Error(`the draft ${id} on page ${page.slug} kept changing: the change is tried again`);

export const isDown = (state: string) => impactOfState(state) !== undefined;

/**
 * The roots an entity's change into down or degraded concerns: its topmost upstreams down now
 * (those with no upstream down themselves), or the entity itself when none is down.
 */
async function rootsOf(table: Table, tenantId: string, entityId: string): Promise<string[]> {
  const ups = await upstreamsOf(table, tenantId, entityId);
  const states = await Promise.all(ups.map((id) => readEntityById(table, tenantId, id)));
  const down = new Set(states.flatMap((s) => (s && isDown(s.state) ? [s.id] : [])));
  if (down.size === 0) return [entityId];
  const roots: string[] = [];
  for (const id of down) {
    const above = await upstreamsOf(table, tenantId, id);
    if (!above.some((a) => down.has(a))) roots.push(id);
  }
  return roots;
}

/** The draft's id on a page for one root change: the same for every delivery and every dependent. */
export const draftIdOf = (page: string, rootId: string, transitionId: string, openedAt: string) =>
  deterministicId('pin', Date.parse(openedAt), `${page}|${rootId}|${transitionId}`);

/** A person touched it (edited, added an update, published) since the drafting last wrote it. */
export const touched = (r: PageIncidentRecord) => r.drafted_version !== r.version;

interface RootChange {
  entity_id: string;
  transition_id: string;
  opened_at: string;
}

/** Makes or widens the root's draft on one page, where `shown` are the page's components affected. */
async function draftOnPage(
  deps: DraftDeps,
  page: StatusPageRecord,
  change: RootChange,
  shown: EntityState[],
): Promise<void> {
  const { table } = deps;
  const tenantId = page.tenant_id;
  const id = draftIdOf(page.slug, change.entity_id, change.transition_id, change.opened_at);
  const seen: Impact = shown.flatMap((s) => {
    const level = impactOfState(s.state);
    return level ? [{ entity_id: s.id, level }] : [];
  });
  const names = new Map(shown.map((s) => [s.id, s.name]));
  for (let round = 0; round < RACE_ROUNDS; round += 1) {
    const nowMs = deps.clock.now();
    const now = isoTime(nowMs);
    const current = await getPageIncident(table, tenantId, page.slug, id);
    if (!current) {
      if (await draftWasMade(table, tenantId, page.slug, id)) return; // a person deleted it
      if (
        (await readOpenPageIncidents(table, tenantId, page.slug)).length >= PAGE_INCIDENT_LIMITS.openPerPage
      ) {
        deps.logger.warn('no draft from the dependency graph: the page holds its most open incidents', {
          page: page.slug,
          root: change.entity_id,
        });
        return;
      }
      const impact = widenedImpact([], seen, page.entity_ids);
      const record: PageIncidentRecord = {
        id,
        tenant_id: tenantId,
        page: page.slug,
        title: draftTitle(impact.map((i) => names.get(i.entity_id) ?? '')),
        status: 'investigating',
        impact,
        updates: [
          {
            id: deterministicId('piu', nowMs, `${id}|investigating`),
            status: 'investigating',
            body: draftBody(impact, (e) => names.get(e) ?? ''),
            notify: true,
            at: now,
          },
        ],
        started_at: change.opened_at,
        resolved_at: null,
        linked_incident_ids: [],
        draft: true,
        drafted_from: { entity_id: change.entity_id, transition_id: change.transition_id },
        drafted_version: 1,
        drafted_update: null,
        created_at: now,
        updated_at: now,
        version: 1,
      };
      await scheduleAutoPublish(deps.enqueue, page, record, nowMs);
      try {
        await table.transact([
          pageIncidentCreatedOp(record),
          draftMarkedOp({
            tenant_id: tenantId,
            page: page.slug,
            incident_id: id,
            entity_id: change.entity_id,
            transition_id: change.transition_id,
            created_at: now,
          }),
        ]);
        return;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        continue; // made meanwhile (or made and deleted): read again
      }
    }
    // Published, resolved or touched: the notice is a person's now.
    if (!current.draft || current.status === 'resolved' || touched(current)) return;
    const impact = widenedImpact(current.impact, seen, page.entity_ids);
    // A drafted all-clear the page's components went back on (down again while the root is) is withdrawn.
    if (sameImpact(impact, current.impact) && !current.drafted_update) {
      // A redelivery: the draft is as it was; its auto-publish is scheduled again (same job id).
      await scheduleAutoPublish(deps.enqueue, page, current, nowMs);
      return;
    }
    // Names of components drafted before are read again (they are on the page: the impact only names its own).
    for (const i of impact)
      if (!names.has(i.entity_id))
        names.set(i.entity_id, (await readEntityById(table, tenantId, i.entity_id))?.name ?? '');
    const first = current.updates[0];
    const version = current.version + 1;
    const next: PageIncidentRecord = {
      ...current,
      title: draftTitle(impact.map((i) => names.get(i.entity_id) ?? '')),
      impact,
      updates: first
        ? [{ ...first, body: draftBody(impact, (e) => names.get(e) ?? '') }, ...current.updates.slice(1)]
        : current.updates,
      drafted_update: null,
      updated_at: now,
      version,
      drafted_version: version,
    };
    await scheduleAutoPublish(deps.enqueue, page, next, nowMs);
    if (await replacedDraft(table, next, current.version)) return;
  }
  throw keptChanging(page, id);
}

/** The root and its dependents that are down or degraded now, by id. */
export async function affectedBy(
  table: Table,
  tenantId: string,
  root: EntityState,
): Promise<Map<string, EntityState>> {
  const dependents = await dependentsOf(table, tenantId, root.id);
  const states = await Promise.all(dependents.map((id) => readEntityById(table, tenantId, id)));
  return new Map([root, ...states].flatMap((s) => (s && isDown(s.state) ? [[s.id, s] as const] : [])));
}

/** Makes or widens the drafts of one root's current change on every page it affects. */
async function refreshRoot(deps: DraftDeps, tenantId: string, rootId: string): Promise<void> {
  const { table } = deps;
  // A root without dependents drafts nothing (most entities): one index read, before the others.
  if ((await dependentsOf(table, tenantId, rootId)).length === 0) return;
  const root = await readEntityById(table, tenantId, rootId);
  if (!root || !isDown(root.state)) return;
  const episode = await readOpenIncidentRecord(table, tenantId, rootId);
  if (!episode) return;
  const pages = await listStatusPages(table, tenantId);
  if (pages.length === 0) return;
  const affected = await affectedBy(table, tenantId, root);
  const change = {
    entity_id: rootId,
    transition_id: episode.opening_transition_id,
    opened_at: episode.opened_at,
  };
  for (const page of pages) {
    const shown = page.entity_ids.flatMap((id) => {
      const state = affected.get(id);
      return state ? [state] : [];
    });
    if (shown.length > 0) await draftOnPage(deps, page, change, shown);
  }
}

/** The drafts of the roots an entity down or degraded concerns now (its topmost upstreams down, or itself). */
export async function draftForRootsOf(deps: DraftDeps, tenantId: string, entityId: string): Promise<void> {
  for (const root of await rootsOf(deps.table, tenantId, entityId)) await refreshRoot(deps, tenantId, root);
}

/** An entity's change into down or degraded: the drafts of the roots it concerns. */
export async function draftForDown(deps: DraftDeps, t: TransitionRecord): Promise<void> {
  await draftForRootsOf(deps, t.tenant_id, t.entity_id);
}
