import { entityNamer, requireTenantEntities } from '../catalog/entities.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { LimitExceededError, NotFoundError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { deleteHeld, replaceHeld } from '../store/held-writes.ts';
import type { Table } from '../store/table.ts';
import {
  getWindow,
  listWindows,
  MAX_WINDOWS_PER_TENANT,
  type WindowRecord,
  windowCreatedOp,
  windowDeletedOp,
  windowReplacedOp,
} from './maintenance-items.ts';
import { DEFAULT_ANNOUNCE_LEAD_SECONDS, type WindowBody } from './request-schemas.ts';
import { type PublicWindow, publicWindow } from './responses.ts';
import { activeSpan } from './schedule.ts';

export interface MaintenanceServiceDeps {
  table: Table;
  clock: Clock;
}

/** The schedule part of a record from a validated body: one-off or recurring, the other fields null. */
function scheduleOf(body: WindowBody) {
  const recurring = body.cron !== undefined;
  return {
    starts_at: !recurring && body.starts_at ? isoTime(Date.parse(body.starts_at)) : null,
    ends_at: !recurring && body.ends_at ? isoTime(Date.parse(body.ends_at)) : null,
    cron: recurring ? (body.cron?.trim().replace(/\s+/g, ' ') ?? null) : null,
    duration_seconds: recurring ? (body.duration_seconds ?? null) : null,
    timezone: recurring ? (body.timezone ?? 'UTC') : null,
  };
}

/**
 * The notice part of a record: a one-off window's announce_from, a recurring one's lead (default a
 * day), the note (blank: none), and when the announcement began (kept while it stays announced).
 */
function noticeOf(body: WindowBody, nowMs: number, current?: WindowRecord) {
  const recurring = body.cron !== undefined;
  const note = body.public_note?.trim();
  return {
    announce: body.announce,
    announce_from: !recurring && body.announce_from ? isoTime(Date.parse(body.announce_from)) : null,
    announce_lead_seconds: recurring ? (body.announce_lead_seconds ?? DEFAULT_ANNOUNCE_LEAD_SECONDS) : null,
    announced_at: body.announce
      ? ((current?.announce ? current.announced_at : null) ?? isoTime(nowMs))
      : null,
    public_note: note ? note : null,
  };
}

/** Maintenance windows of a tenant: CRUD (members write, read-only keys read: the router's rule). */
export function createMaintenanceService(deps: MaintenanceServiceDeps) {
  const { table, clock } = deps;
  /** The windows as returned, their entities named by one batch read for them all. */
  const views = async (tenantId: string, windows: WindowRecord[]): Promise<PublicWindow[]> => {
    const name = await entityNamer(
      table,
      tenantId,
      windows.flatMap((w) => w.entity_ids),
    );
    const now = clock.now();
    return windows.map((w) => publicWindow(w, activeSpan(w, now) !== undefined, name(w.entity_ids)));
  };
  const view = async (window: WindowRecord): Promise<PublicWindow> =>
    (await views(window.tenant_id, [window]))[0] as PublicWindow;

  const require = async (tenantId: string, id: string) => {
    const window = await getWindow(table, tenantId, id);
    if (!window) throw new NotFoundError('maintenance window');
    return window;
  };

  return {
    async list(tenantId: string): Promise<PublicWindow[]> {
      return views(tenantId, await listWindows(table, tenantId, { consistent: true }));
    },

    async get(tenantId: string, id: string): Promise<PublicWindow> {
      return view(await require(tenantId, id));
    },

    async create(tenantId: string, body: WindowBody): Promise<PublicWindow> {
      await requireTenantEntities(table, tenantId, body.entity_ids);
      // A soft bound (each evaluation reads every window): concurrent creates may pass it by a few.
      if ((await listWindows(table, tenantId, { consistent: true })).length >= MAX_WINDOWS_PER_TENANT)
        throw new LimitExceededError(`a tenant keeps at most ${MAX_WINDOWS_PER_TENANT} maintenance windows`);
      const now = clock.now();
      const record: WindowRecord = {
        id: newId('mnt', now),
        tenant_id: tenantId,
        name: body.name,
        entity_ids: [...new Set(body.entity_ids)],
        blueprint_slugs: [...new Set(body.blueprint_slugs)],
        include_dependents: body.include_dependents,
        ...scheduleOf(body),
        ...noticeOf(body, now),
        created_at: isoTime(now),
        updated_at: isoTime(now),
        version: 1,
      };
      await table.transact([windowCreatedOp(record)]);
      return view(record);
    },

    /** Replaces the window (PUT carries the whole window); a concurrent change first is 409 CONFLICT. */
    async replace(tenantId: string, id: string, body: WindowBody): Promise<PublicWindow> {
      const current = await require(tenantId, id);
      await requireTenantEntities(table, tenantId, body.entity_ids);
      const now = clock.now();
      const record: WindowRecord = {
        ...current,
        name: body.name,
        entity_ids: [...new Set(body.entity_ids)],
        blueprint_slugs: [...new Set(body.blueprint_slugs)],
        include_dependents: body.include_dependents,
        ...scheduleOf(body),
        ...noticeOf(body, now, current),
        updated_at: isoTime(now),
        version: current.version + 1,
      };
      await replaceHeld(table, [windowReplacedOp(record, current.version)], {
        name: 'maintenance window',
        exists: async () => (await getWindow(table, tenantId, id)) !== undefined,
      });
      return view(record);
    },

    async remove(tenantId: string, id: string): Promise<void> {
      await deleteHeld(table, [windowDeletedOp(tenantId, id)], 'maintenance window');
    },
  };
}

export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
