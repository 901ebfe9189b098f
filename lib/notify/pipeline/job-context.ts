import { type EntityState, readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { type ActiveMaintenance, maintenanceLookup } from '../../maintenance/evaluate.ts';
import { groupingContext } from '../grouping/intercept.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import type { PolicyRecord } from '../items/policy-items.ts';
import type { EventRouting } from '../items/route-channels.ts';
import { listRoutes } from '../items/route-items.ts';
import { readToldOfEntity, type ToldRecord } from '../items/told-items.ts';
import { effectivePolicy, type NotifyDeps } from './notify-deps.ts';
import { lastSentAtMs } from './notify-state-items.ts';
import { downUpstreams } from './upstream.ts';

/**
 * What one job of the alert path knows (issue 76: the alert path as stages over one context), read
 * once per job and handed to every stage (stages.ts), the channel union, the escalations, the
 * grouping and the told gate: the entity as it is now, the check's policy and own channels, the
 * tenant's routes, each channel's last word about the entity, and, on first ask only, the window
 * that covers the entity, when the check's last alert went out, its down upstreams and its flap
 * hold. The event job, the re-judge, the flap settle and the simulation build it the same way.
 */

/** A flap hold: the reason alerts are logged with, and when the check settles (epoch ms) if known. */
export interface FlapHold {
  reason: string;
  untilMs: number | null;
}

export interface AlertContext {
  event: StateChangeEvent;
  nowMs: number;
  /** The entity as read once for this job (undefined: removed meanwhile). */
  entity: EntityState | undefined;
  policy: PolicyRecord;
  /** The check's own and attached channels. */
  own: ChannelRecord[];
  /** The tenant's routes; the entity's blueprint is the context's. */
  routing: EventRouting;
  /** Each channel's last word about the entity (told-items.ts), as listed and by channel id. */
  told: readonly ToldRecord[];
  words: ReadonlyMap<string, ToldRecord>;
  /** What the grouping of this job's records shares (the routes and blueprint above). */
  grouping: ReturnType<typeof groupingContext>;
  maintenance(): Promise<ActiveMaintenance | undefined>;
  lastSentMs(): Promise<number | undefined>;
  upstreams(): Promise<EntityState[]>;
  flapping(): Promise<FlapHold | undefined>;
}

/** What the context is read with. */
export type ContextDeps = Pick<NotifyDeps, 'table' | 'clock' | 'policies' | 'channels'>;

const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => {
    value ??= read();
    return value;
  };
};

/**
 * Reads the context of one job about `event`: everything side by side, the entity only when the
 * caller has not read it already (`entity`). `flapping` answers the flap stage (counted by the
 * event job, looked at by the others), called at most once.
 */
export async function readAlertContext(
  deps: ContextDeps,
  event: StateChangeEvent,
  options: {
    nowMs: number;
    entity?: { known: EntityState | undefined };
    flapping: (ctx: AlertContext) => Promise<FlapHold | undefined>;
  },
): Promise<AlertContext> {
  const { tenant_id: tenantId, entity_id: entityId } = event;
  const [entity, policy, own, told, routes, maintenanceOf] = await Promise.all([
    options.entity ? options.entity.known : readEntityById(deps.table, tenantId, entityId),
    effectivePolicy(deps, tenantId, event.check_id),
    deps.channels.listForCheck(event.check_id),
    readToldOfEntity(deps.table, tenantId, entityId),
    listRoutes(deps.table, tenantId),
    maintenanceLookup(deps.table, deps.clock, tenantId),
  ]);
  const blueprint = entity?.blueprint_slug ?? '';
  const routing: EventRouting = { routes, blueprint: async () => blueprint };
  const ctx: AlertContext = {
    event,
    nowMs: options.nowMs,
    entity,
    policy,
    own,
    routing,
    told,
    words: new Map(told.map((word) => [word.channel_id, word])),
    grouping: groupingContext(deps.table, tenantId, {
      routes: routing.routes,
      blueprints: new Map([[entityId, blueprint]]),
    }),
    maintenance: once(() => maintenanceOf({ id: entityId, blueprint_slug: blueprint })),
    lastSentMs: once(() => lastSentAtMs(deps.table, event.check_id)),
    upstreams: once(() => downUpstreams(deps.table, tenantId, entityId)),
    flapping: once(() => options.flapping(ctx)),
  };
  return ctx;
}
