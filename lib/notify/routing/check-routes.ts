import * as z from 'zod';
import { idSchema } from '../../http/route-schemas.ts';
import type { Table } from '../../store/table.ts';
import { CHANNEL_TYPES, registeredType } from '../channels/registry.ts';
import type { ChannelStore } from '../items/channel-store.ts';
import { listRoutes } from '../items/route-items.ts';
import { routeMatches } from '../items/route-match.ts';

/**
 * The routes that reach a check's alerts (route-match.ts's rule on its entity and blueprint) and
 * the shared channels they deliver to: what the check page names besides the check's own and
 * attached channels, so a check whose only path is a route does not read "nobody is told".
 */

export const checkRouteSchema = z.strictObject({
  route_id: idSchema('rte'),
  to_states: z.array(z.string()).meta({
    description: 'The new states the route takes (empty: every change); the check’s alerts to others skip it',
  }),
  channels: z.array(
    z.strictObject({ id: idSchema('chn'), name: z.string(), channel_type: z.enum(CHANNEL_TYPES) }),
  ),
});
export type CheckRoute = z.output<typeof checkRouteSchema>;

/** The tenant's routes matching the entity for some state change, each with its existing channels. */
export async function routesReaching(
  deps: { table: Table; channels: Pick<ChannelStore, 'getSharedMany'> },
  tenantId: string,
  entity: { id: string; blueprint_slug: string },
): Promise<CheckRoute[]> {
  const matching = (await listRoutes(deps.table, tenantId)).filter((route) =>
    // Any state the route names will do here: the route says which it takes.
    routeMatches(
      { ...route.match, to_states: [] },
      { entity_id: entity.id, blueprint_slug: entity.blueprint_slug, to_state: '' },
    ),
  );
  if (matching.length === 0) return [];
  const ids = [...new Set(matching.flatMap((route) => route.channel_ids))];
  const found = new Map((await deps.channels.getSharedMany(tenantId, ids)).map((c) => [c.id, c]));
  return matching.map((route) => ({
    route_id: route.id,
    to_states: route.match.to_states,
    channels: route.channel_ids.flatMap((id) => {
      const channel = found.get(id);
      return channel
        ? [{ id: channel.id, name: channel.name, channel_type: registeredType(channel.channel_type) }]
        : [];
    }),
  }));
}
