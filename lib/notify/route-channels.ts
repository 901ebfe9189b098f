import { readEntityById } from '../catalog/entity-items.ts';
import type { StateChangeEvent } from '../domain/state-change-event.ts';
import type { Table } from '../store/table.ts';
import type { ChannelRecord } from './channel-items.ts';
import { type ChannelStore, channelSeenFrom, uniqueChannels } from './channel-store.ts';
import { listRoutes } from './route-items.ts';
import { needsBlueprint, routeMatches } from './route-match.ts';

/**
 * The channels one alert goes to: the check's own, its attached tenant channels, and the channels
 * of every route the alert matches, each channel once however it was reached (DECISIONS.md: one
 * alert per channel per event), so its delivery record id (transition, channel) stays the same.
 */
export async function channelsForEvent(
  deps: { table: Table; channels: Pick<ChannelStore, 'listForCheck' | 'getSharedMany'> },
  event: StateChangeEvent,
): Promise<ChannelRecord[]> {
  const [own, routes] = await Promise.all([
    deps.channels.listForCheck(event.check_id),
    listRoutes(deps.table, event.tenant_id),
  ]);
  if (routes.length === 0) return own;
  // The blueprint is read only when a route asks for one (most alerts of a tenant without routes read nothing more).
  const entity = needsBlueprint(routes)
    ? await readEntityById(deps.table, event.tenant_id, event.entity_id)
    : undefined;
  const subject = {
    entity_id: event.entity_id,
    blueprint_slug: entity?.blueprint_slug ?? '',
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
