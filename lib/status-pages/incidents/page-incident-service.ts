import { getIncident } from '../../incidents/incident-items.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { deleteHeld, replaceHeld } from '../../store/held-writes.ts';
import type { Table } from '../../store/table.ts';
import { renderMarkdown } from '../html/markdown.ts';
import {
  getPageIncident,
  listPageIncidents,
  PAGE_INCIDENT_LIMITS,
  type PageIncidentRecord,
  pageIncidentCreatedOp,
  pageIncidentDeletedOp,
  pageIncidentReplacedOp,
  readOpenPageIncidents,
} from '../items/page-incident-items.ts';
import { getStatusPage, type StatusPageRecord } from '../items/status-page-items.ts';
import {
  type PageIncidentCreateBody,
  type PageIncidentPatchBody,
  type PageIncidentUpdateBody,
  type PageIncidentView,
  pageIncidentView,
} from './page-incident-schemas.ts';
import { publishedFields } from './publish.ts';
import { refusedStep } from './status-flow.ts';

/** Written incidents of a status page (issue 54 item 1): members write, read-only keys read. */
export function createPageIncidentService(deps: { table: Table; clock: Clock }) {
  const { table, clock } = deps;

  const requirePage = async (tenantId: string, slug: string) => {
    const page = await getStatusPage(table, tenantId, slug);
    if (!page) throw new NotFoundError('status page');
    return page;
  };
  const requireIncident = async (tenantId: string, slug: string, id: string) => {
    const incident = await getPageIncident(table, tenantId, slug, id);
    if (!incident) throw new NotFoundError('page incident');
    return incident;
  };

  /** Impact names only entities the page shows, each once. */
  const checkImpact = (page: StatusPageRecord, impact: PageIncidentRecord['impact']) => {
    const shown = new Set(page.entity_ids);
    const seen = new Set<string>();
    const issues = impact.flatMap(({ entity_id }, i) => {
      const path = `impact.${i}.entity_id`;
      if (!shown.has(entity_id)) return [{ path, message: `The page does not show entity ${entity_id}.` }];
      if (seen.has(entity_id)) return [{ path, message: `Entity ${entity_id} is named twice.` }];
      seen.add(entity_id);
      return [];
    });
    if (issues.length > 0) throw new ValidationError('invalid impact', issues);
  };

  /** Linked automatic incidents must be the tenant's. */
  const checkLinked = async (tenantId: string, ids: string[]) => {
    const found = await Promise.all(ids.map((id) => getIncident(table, tenantId, id)));
    const issues = ids.flatMap((id, i) =>
      found[i] ? [] : [{ path: `linked_incident_ids.${i}`, message: `No incident ${id}.` }],
    );
    if (issues.length > 0) throw new ValidationError('unknown incidents', issues);
  };

  /** started_at and resolved_at: not in the future, in order, resolved_at only for a resolved incident. */
  const timesOf = (body: PageIncidentCreateBody, now: string) => {
    const norm = (t: string | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
    const started = norm(body.started_at) ?? now;
    const given = norm(body.resolved_at);
    if (started > now) throw ValidationError.field('started_at', 'The start cannot be in the future.');
    if (given !== undefined) {
      if (body.status !== 'resolved')
        throw ValidationError.field(
          'resolved_at',
          'Only a resolved incident has an end: set status to resolved.',
        );
      if (given > now) throw ValidationError.field('resolved_at', 'The end cannot be in the future.');
      if (given < started) throw ValidationError.field('resolved_at', 'The end cannot be before the start.');
    }
    const resolved = body.status === 'resolved' ? (given ?? now) : null;
    return { started, resolved };
  };

  const replace = async (current: PageIncidentRecord, next: PageIncidentRecord) => {
    await replaceHeld(table, [pageIncidentReplacedOp(next, current.version)], {
      name: 'page incident',
      exists: async () =>
        (await getPageIncident(table, current.tenant_id, current.page, current.id)) !== undefined,
    });
    return pageIncidentView(next);
  };

  return {
    /**
     * The page's incidents, newest created first, drafts included; `cursor` is the last id shown.
     * With `open`, its open ones only (bounded per page, so in one answer), newest started first.
     */
    async list(
      tenantId: string,
      slug: string,
      page: { limit: number; cursor?: string | undefined; open?: 'true' | 'false' | undefined },
    ) {
      await requirePage(tenantId, slug);
      if (page.open === 'true')
        return {
          incidents: (await readOpenPageIncidents(table, tenantId, slug)).map(pageIncidentView),
          next_cursor: null,
        };
      const { items, next } = await listPageIncidents(table, tenantId, slug, {
        limit: page.limit,
        before: page.cursor,
      });
      return { incidents: items.map(pageIncidentView), next_cursor: next };
    },

    /**
     * An update body as the public page will show it, rendered by the page's own renderer (nothing
     * stored, nothing written): the console's preview. The page must be the tenant's (404 otherwise).
     */
    async preview(tenantId: string, slug: string, body: string): Promise<{ html: string }> {
      await requirePage(tenantId, slug);
      return { html: renderMarkdown(body) };
    },

    async get(tenantId: string, slug: string, id: string): Promise<PageIncidentView> {
      await requirePage(tenantId, slug);
      return pageIncidentView(await requireIncident(tenantId, slug, id));
    },

    /** A new incident with its first update; a backfilled one names its past start and end. */
    async create(tenantId: string, slug: string, body: PageIncidentCreateBody): Promise<PageIncidentView> {
      const page = await requirePage(tenantId, slug);
      checkImpact(page, body.impact);
      await checkLinked(tenantId, body.linked_incident_ids);
      const nowMs = clock.now();
      const now = isoTime(nowMs);
      const { started, resolved } = timesOf(body, now);
      if (
        resolved === null &&
        (await readOpenPageIncidents(table, tenantId, slug)).length >= PAGE_INCIDENT_LIMITS.openPerPage
      )
        throw ValidationError.field(
          'status',
          `A page holds at most ${PAGE_INCIDENT_LIMITS.openPerPage} open incidents: resolve one first.`,
        );
      const record: PageIncidentRecord = {
        id: newId('pin', nowMs),
        tenant_id: tenantId,
        page: slug,
        title: body.title,
        status: body.status,
        impact: body.impact,
        updates: [
          {
            id: newId('piu', nowMs),
            status: body.status,
            body: body.body,
            notify: body.notify,
            at: resolved ?? (body.started_at === undefined ? now : started),
          },
        ],
        started_at: started,
        resolved_at: resolved,
        linked_incident_ids: [...new Set(body.linked_incident_ids)],
        draft: body.draft,
        created_at: now,
        updated_at: now,
        version: 1,
      };
      await table.transact([pageIncidentCreatedOp(record)]);
      return pageIncidentView(record);
    },

    /** Adds an update: its status moves forward only, and `resolved` ends the incident. */
    async addUpdate(
      tenantId: string,
      slug: string,
      id: string,
      body: PageIncidentUpdateBody,
    ): Promise<PageIncidentView> {
      await requirePage(tenantId, slug);
      const current = await requireIncident(tenantId, slug, id);
      const refused = refusedStep(current.status, body.status);
      if (refused) throw ValidationError.field('status', refused);
      if (current.updates.length >= PAGE_INCIDENT_LIMITS.updates)
        throw ValidationError.field(
          'body',
          `An incident holds at most ${PAGE_INCIDENT_LIMITS.updates} updates: open a new incident.`,
        );
      const nowMs = clock.now();
      const now = isoTime(nowMs);
      return replace(current, {
        ...current,
        status: body.status,
        updates: [
          ...current.updates,
          { id: newId('piu', nowMs), status: body.status, body: body.body, notify: body.notify, at: now },
        ],
        resolved_at: body.status === 'resolved' ? now : null,
        updated_at: now,
        version: current.version + 1,
      });
    },

    /** Edits the title, impact or links, or publishes a draft. */
    async patch(
      tenantId: string,
      slug: string,
      id: string,
      body: PageIncidentPatchBody,
    ): Promise<PageIncidentView> {
      const page = await requirePage(tenantId, slug);
      const current = await requireIncident(tenantId, slug, id);
      if (body.impact) checkImpact(page, body.impact);
      if (body.linked_incident_ids) await checkLinked(tenantId, body.linked_incident_ids);
      return replace(current, {
        ...current,
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.impact !== undefined ? { impact: body.impact } : {}),
        ...(body.linked_incident_ids !== undefined
          ? { linked_incident_ids: [...new Set(body.linked_incident_ids)] }
          : {}),
        ...(body.draft === false ? publishedFields(current) : {}),
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      });
    },

    async remove(tenantId: string, slug: string, id: string): Promise<void> {
      await requirePage(tenantId, slug);
      await deleteHeld(table, [pageIncidentDeletedOp(tenantId, slug, id)], 'page incident');
    },
  };
}

export type PageIncidentService = ReturnType<typeof createPageIncidentService>;
