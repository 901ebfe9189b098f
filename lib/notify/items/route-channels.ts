import { readEntityById } from '../../catalog/entities.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import type { Table } from '../../store/table.ts';
import type { ChannelRecord } from './channel-items.ts';
import { type ChannelStore, channelSeenFrom, uniqueChannels } from './channel-store.ts';
import { listRoutes, type RouteRecord } from './route-items.ts';
import { needsBlueprint, routeMatches } from './route-match.ts';

/**
 * What one alert decision knows of its tenant's routing, each read once however many steps use
 * it (the channels, the escalations, the maintenance lookup): the tenant's routes, and the
 * entity's blueprint, read only when first asked (most alerts of a tenant without routes or
 * windows that name blueprints never read the entity).
 */
export interface EventRouting {
  routes: RouteRecord[];
  blueprint: () => Promise<string>;
}

/** Reads the tenant's routes; the blueprint is read on first ask unless `knownBlueprint` is given. */
export async function eventRouting(
  table: Table,
  event: StateChangeEvent,
  knownBlueprint?: string,
): Promise<EventRouting> {
  const routes = await listRoutes(table, event.tenant_id);
  let blueprint: Promise<string> | undefined =
    knownBlueprint === undefined ? undefined : Promise.resolve(knownBlueprint);
  return {
    routes,
    blueprint: () => {
      blueprint ??= readEntityById(table, event.tenant_id, event.entity_id).then(
        (entity) => entity?.blueprint_slug ?? '',
      );
      return blueprint;
    },
  };
}

/**
 * The channels one alert goes to: the check's own (`own`), its attached tenant channels, and the
 * channels of every route the alert matches, each channel once however it was reached
 * (DECISIONS.md: one alert per channel per event), so its delivery record id (transition, channel)
 * stays the same.
 */
export async function channelsForEvent(
  deps: { channels: Pick<ChannelStore, 'getSharedMany'> },
  event: StateChangeEvent,
  own: ChannelRecord[],
  routing: EventRouting,
): Promise<ChannelRecord[]> {
  const { routes } = routing;
  if (routes.length === 0) return own;
  const subject = {
    entity_id: event.entity_id,
    blueprint_slug: needsBlueprint(routes) ? await routing.blueprint() : '',
    to_state: event.to_state,
  };
  const known = new Set(own.map((channel) => channel.id));
  const routedIds = routes
    .filter((route) => routeMatches(route.match, subject))
    .flatMap((route) => route.channel_ids)
    .filter((id) => !known.has(id));
  if (routedIds.length === 0) return own;
  const found = new Map(
    (await deps.channels.getSharedMany(event.tenant_id, routedIds)).map((channel) => [channel.id, channel]),
  );
  const routed = routedIds.flatMap((id) => {
    const channel = found.get(id);
    return channel ? [channelSeenFrom(channel, event.check_id)] : [];
  });
  return uniqueChannels([...own, ...routed]);
}
