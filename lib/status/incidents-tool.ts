import type { ToolKitDeps } from '../catalog/entities.ts';
import { entityNaming, optionalEntity } from '../catalog/entities.ts';
import type { publicTransition } from '../checks/records.ts';
import type { IncidentService } from '../incidents/incident-service.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { optionalString, positiveInt, READS } from '../platform/mcp-tool.ts';
import { asToolResult, entityWords, someOf, toolResult } from '../platform/tool-answers.ts';
import type { BoardReads } from './board-reads.ts';

/** How far back list_incidents looks at most (results and transitions expire anyway), and how many it returns. */
const INCIDENT_LIMITS = { maxHours: 24 * 30, maxItems: 500 } as const;

type Transition = ReturnType<typeof publicTransition>;

/**
 * The tenant's entity transitions since `sinceMs` (one entity's with `entityId`: read from its own
 * feed shard, not filtered out of a bounded window of the tenant's), newest first, at most `max`
 * (and whether more were left out).
 */
export async function entityTransitionsSince(
  deps: Pick<BoardReads, 'status'>,
  tenantId: string,
  sinceMs: number,
  max: number,
  entityId?: string,
): Promise<{ transitions: Transition[]; truncated: boolean }> {
  const transitions: Transition[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.status.transitions(tenantId, {
      limit: 100,
      ...(entityId ? { entity_id: entityId } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const t of page.transitions) {
      if (Date.parse(t.created_at) < sinceMs) return { transitions, truncated: false };
      if (transitions.length === max) return { transitions, truncated: true };
      transitions.push(t);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return { transitions, truncated: false };
}

/** One transition in words: `DB (service/db) up → down at <time>`. */
const changeWords = (t: Transition) =>
  `${t.entity_name}${t.blueprint_slug ? ` (${t.blueprint_slug}/${t.entity_slug})` : ''} ` +
  `${t.from_state} → ${t.to_state} at ${t.created_at}`;

/** The incident states list_incidents filters on. */
const STATES = ['open', 'acknowledged', 'resolved'] as const;
type IncidentState = (typeof STATES)[number];

/**
 * list_incidents: with `state` or `entity_id`, the tenant's incidents (newest first, at most
 * `limit`); without them, as before, the entity transitions of the last `hours`, newest first.
 */
export const listIncidents: BuiltinTool<
  ToolKitDeps & Pick<BoardReads, 'status'> & { incidents: Pick<IncidentService, 'list' | 'get'> }
> = {
  name: 'list_incidents',
  offer: {
    toolset: 'catalog-ops',
    order: 50,
    version: '2.2.0',
    description:
      'Incidents (an entity away from up) filtered by state or entity, newest first; without state and entity_id, the entity state transitions of the last hours.',
    inputSchema: {
      type: 'object',
      properties: {
        hours: {
          type: 'integer',
          minimum: 1,
          maximum: 720,
          default: 24,
          description: 'Without state and entity_id: how far back to look at transitions',
        },
        state: {
          type: 'string',
          enum: ['open', 'acknowledged', 'resolved'],
          description: 'Only incidents in this state',
        },
        ...entityNaming('Only incidents of this entity'),
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 200,
          default: 50,
          description: 'At most this many incidents',
        },
      },
      additionalProperties: false,
    },
  },
  annotations: { title: 'List incidents', ...READS },
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const state = optionalString(args, 'state') as IncidentState | undefined;
      const owner = await optionalEntity(deps, caller.tenantId, args);
      const entityId = owner?.id;
      if (state !== undefined || entityId !== undefined) {
        const limit = positiveInt(args, 'limit', 50, 200);
        const page = await deps.incidents.list(caller, {
          limit,
          ...(state && STATES.includes(state) ? { state } : {}),
          ...(entityId ? { entity_id: entityId } : {}),
        });
        const of = owner ? ` of ${entityWords(owner)}` : '';
        const what = `${state ?? ''} incidents${of}`.trim();
        const listed = someOf(
          page.incidents.map((i) => `${i.entity_name} (${i.state}, opened ${i.opened_at})`),
        );
        const summary =
          page.incidents.length === 0
            ? `No ${what}.`
            : `${page.incidents.length} ${what}, newest first${page.next_cursor ? ` (only the newest ${limit})` : ''}: ${listed}.`;
        return toolResult(summary, { state: state ?? null, entity_id: entityId ?? null, ...page });
      }
      const hours = positiveInt(args, 'hours', 24, INCIDENT_LIMITS.maxHours);
      const since = deps.clock.now() - hours * 3_600_000;
      const read = await entityTransitionsSince(deps, caller.tenantId, since, INCIDENT_LIMITS.maxItems);
      const summary =
        read.transitions.length === 0
          ? `No entity state changes in the last ${hours} h.`
          : `${read.transitions.length} entity state changes in the last ${hours} h, newest first` +
            `${read.truncated ? ` (only the newest ${INCIDENT_LIMITS.maxItems})` : ''}: ` +
            `${someOf(read.transitions.map(changeWords))}.`;
      return toolResult(summary, { hours, incidents: read.transitions, truncated: read.truncated });
    }),
};
