import type { Table } from '../../store/table.ts';
import { listRoutes, type RouteMatch, type RouteRecord } from './route-items.ts';

/**
 * Which routes an alert matches (DECISIONS.md "Operations features (wave 3)"): every criterion
 * given must hold (a list holds when it names the value), and a route without criteria matches
 * every alert of the tenant. Pure apart from the one read of the tenant's routes.
 */

/** What a route is matched against: the entity (id, blueprint) and the state it changed to. */
export interface RouteSubject {
  entity_id: string;
  blueprint_slug: string;
  to_state: string;
}

const holds = (list: readonly string[], value: string) => list.length === 0 || list.includes(value);

/** True when the route's criteria all hold for the subject. */
export function routeMatches(match: RouteMatch, subject: RouteSubject): boolean {
  return (
    holds(match.entity_ids, subject.entity_id) &&
    holds(match.blueprint_slugs, subject.blueprint_slug) &&
    holds(match.to_states, subject.to_state)
  );
}

/** True when some route names blueprints: only then does matching need the entity's blueprint. */
export const needsBlueprint = (routes: readonly RouteRecord[]) =>
  routes.some((route) => route.match.blueprint_slugs.length > 0);

/** Where an unacknowledged incident escalates: one entry per matching route that escalates. */
export interface EscalationTarget {
  route_id: string;
  escalate_after_seconds: number;
  channel_ids: string[];
}

/** The escalations `routes` give an entity's incident that went to `subject.to_state`: one per matching route that escalates. */
export function escalationTargetsIn(
  routes: readonly RouteRecord[],
  subject: RouteSubject,
): EscalationTarget[] {
  return routes.flatMap((route) =>
    routeMatches(route.match, subject) &&
    route.escalate_after_seconds !== null &&
    route.escalate_channel_ids.length > 0
      ? [
          {
            route_id: route.id,
            escalate_after_seconds: route.escalate_after_seconds,
            channel_ids: route.escalate_channel_ids,
          },
        ]
      : [],
  );
}

/** True when some route escalates at all (only then is an incident's escalation worked out). */
export const anyEscalates = (routes: readonly RouteRecord[]) =>
  routes.some((route) => route.escalate_after_seconds !== null && route.escalate_channel_ids.length > 0);

/**
 * The escalations of an entity's incident that went to `toState` (for the incidents engine): the
 * matching routes with `escalate_after_seconds` and escalation channels, each with its delay.
 */
export async function escalationTargets(
  table: Table,
  tenantId: string,
  entity: { id: string; blueprint_slug: string },
  toState: string,
): Promise<EscalationTarget[]> {
  const subject = { entity_id: entity.id, blueprint_slug: entity.blueprint_slug, to_state: toState };
  return escalationTargetsIn(await listRoutes(table, tenantId), subject);
}
