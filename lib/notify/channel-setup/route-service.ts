import { entityNamer, readEntityById } from '../../catalog/entities.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { getTenantChannels } from '../items/channel-items.ts';
import {
  listRoutes,
  MAX_ROUTES,
  type RouteRecord,
  routeChangedOp,
  routeCreatedOps,
  routeDeletedOps,
} from '../items/route-items.ts';
import type { Caller } from '../policy/policy-service.ts';
import { publicRoute, type RouteInput } from '../routing/route-schemas.ts';

/**
 * Alert routes (DECISIONS.md "Operations features (wave 3)"): which alerts also go to which tenant
 * channels (route-channels.ts applies them), and where an unacknowledged incident escalates
 * (route-match.ts's escalationTargets). Every id a route names exists in the caller's tenant.
 */
export function createRouteService(deps: {
  table: Table;
  clock: Clock;
  /** Whether the tenant has this escalation policy (lib/escalation's, handed in by the app). */
  policyExists?: ((tenantId: string, id: string) => Promise<boolean>) | undefined;
}) {
  const { table, clock } = deps;

  /** Each named channel must be a tenant channel and each entity an entity of the tenant. */
  const requireKnown = async (tenantId: string, input: RouteInput): Promise<void> => {
    const named = [...input.channel_ids, ...(input.escalate_channel_ids ?? [])];
    const found = new Set((await getTenantChannels(table, tenantId, named)).map((c) => c.id));
    for (const [field, ids] of [
      ['channel_ids', input.channel_ids],
      ['escalate_channel_ids', input.escalate_channel_ids ?? []],
    ] as const) {
      const missing = ids.find((id) => !found.has(id));
      if (missing) throw ValidationError.field(field, `no tenant channel ${missing}`);
    }
    const policyId = input.escalation_policy_id;
    if (policyId && !(await deps.policyExists?.(tenantId, policyId)))
      throw ValidationError.field(
        'escalation_policy_id',
        'No escalation policy of this account has this id.',
      );
    const entities = input.match.entity_ids ?? [];
    const exists = await Promise.all(entities.map((id) => readEntityById(table, tenantId, id)));
    const missing = entities.find((_id, i) => !exists[i]);
    if (missing) throw ValidationError.field('match.entity_ids', `no entity ${missing}`);
  };

  /** The entities the routes name: one batch read of their id pointers (names, addresses). */
  const namedEntities = (tenantId: string, routes: readonly RouteRecord[]) =>
    entityNamer(
      table,
      tenantId,
      routes.flatMap((r) => r.match.entity_ids),
    );

  return {
    async list(caller: Caller) {
      const routes = await listRoutes(table, caller.tenantId);
      const entities = await namedEntities(caller.tenantId, routes);
      return { routes: routes.map((route) => publicRoute(route, entities)) };
    },

    async create(caller: Caller, input: RouteInput) {
      await requireKnown(caller.tenantId, input);
      if (
        input.name !== undefined &&
        (await listRoutes(table, caller.tenantId)).some((r) => r.name === input.name)
      )
        throw new ConflictError(`a route named ${JSON.stringify(input.name)} exists already`);
      const record: RouteRecord = {
        id: newId('rte', clock.now()),
        tenant_id: caller.tenantId,
        ...(input.name === undefined ? {} : { name: input.name }),
        match: {
          blueprint_slugs: [...new Set(input.match.blueprint_slugs ?? [])],
          entity_ids: [...new Set(input.match.entity_ids ?? [])],
          to_states: [...new Set(input.match.to_states ?? [])],
        },
        channel_ids: [...new Set(input.channel_ids)],
        escalate_after_seconds: input.escalate_after_seconds ?? null,
        escalate_channel_ids: [...new Set(input.escalate_channel_ids ?? [])],
        escalation_policy_id: input.escalation_policy_id ?? null,
        page_owner_policy: input.page_owner_policy,
        group_by: input.group_by,
        group_wait_seconds: input.group_wait_seconds,
        group_interval_seconds: input.group_interval_seconds,
        created_at: isoTime(clock.now()),
      };
      try {
        await table.transact(routeCreatedOps(record));
      } catch (error) {
        if (error instanceof ConditionFailedError)
          throw new LimitExceededError(`a tenant has at most ${MAX_ROUTES} routes`);
        throw error;
      }
      return publicRoute(record, await namedEntities(caller.tenantId, [record]));
    },

    async remove(caller: Caller, routeId: string): Promise<void> {
      try {
        await table.transact(routeDeletedOps(caller.tenantId, routeId));
      } catch (error) {
        if (error instanceof ConditionFailedError) throw new NotFoundError('route');
        throw error;
      }
    },
  };
}

export type RouteService = ReturnType<typeof createRouteService>;

/**
 * Takes a deleted tenant channel out of every route naming it (a route left without channels
 * stays, matching nothing it could send to; alerts skip a missing channel anyway).
 */
export async function withoutChannel(table: Table, tenantId: string, channelId: string): Promise<void> {
  for (const route of await listRoutes(table, tenantId)) {
    if (!route.channel_ids.includes(channelId) && !route.escalate_channel_ids.includes(channelId)) continue;
    const next: RouteRecord = {
      ...route,
      channel_ids: route.channel_ids.filter((id) => id !== channelId),
      escalate_channel_ids: route.escalate_channel_ids.filter((id) => id !== channelId),
    };
    try {
      await table.transact([routeChangedOp(next)]);
    } catch (error) {
      // Deleted meanwhile: nothing left to change.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
}
