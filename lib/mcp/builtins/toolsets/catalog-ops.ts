import type { CreateSkillBody } from '../../../skills/manifest.ts';
import { showBlastRadius, showStatus } from '../../apps/show-tools.ts';
import { entityNaming } from '../../tool-kit/entity-ref.ts';
import { getBlastRadius } from '../blast-radius.ts';
import { getEntity, listBlueprints, listEntities } from '../catalog.ts';
import {
  checkResultsInput,
  createCheckInput,
  cursor,
  entityRef,
  noInput,
  pageLimit,
} from '../catalog-ops-schemas.ts';
import { getCheckResults } from '../check-results.ts';
import { createCheck } from '../checks.ts';
import { explainEntityState } from '../explain-entity.ts';
import { searchEntities } from '../search.ts';
import { listIncidents } from '../status.ts';
import { getStatusSummary } from '../summary.ts';
import { getUptime } from '../uptime.ts';

/**
 * The catalog-ops toolset (SPEC.md "Skills and MCP"): SPEC's seven catalog tools (create_check
 * among them) and the catalog's other reads: get_blast_radius, explain_entity_state, get_uptime and
 * search_entities, and the status app's show_status and show_blast_radius. Every new tenant starts with it registered (lib/mcp/builtin-tools.ts). The
 * annotations are the built-ins' own: tools/list shows those whatever a manifest says, so a
 * SPEC-shaped manifest without annotations works the same.
 */

export const CATALOG_OPS_MANIFEST = {
  slug: 'catalog-ops',
  name: 'Catalog operations',
  description: 'Read the service catalog and its health, explain states and dependencies, add checks.',
  version: '2.2.0',
  enabled: true,
  tools: [
    {
      name: 'get_status_summary',
      description:
        'Current status of the fleet: counts per state (up, degraded, down, unknown) and a page of entities, problems first (down, degraded, unknown, then up); next_cursor continues.',
      inputSchema: {
        type: 'object',
        properties: { limit: pageLimit(100, 500), cursor },
        additionalProperties: false,
      },
      annotations: getStatusSummary.annotations,
    },
    {
      name: 'list_entities',
      description: 'Entities of the catalog, optionally only those of one blueprint.',
      inputSchema: {
        type: 'object',
        properties: { blueprint_slug: { type: 'string', description: 'Only entities of this blueprint' } },
        additionalProperties: false,
      },
      annotations: listEntities.annotations,
    },
    {
      name: 'get_entity',
      description:
        "One entity with its metadata, current status and attached checks (a check probed from several locations: each location's outcome in its last slot, last_locations).",
      inputSchema: entityRef,
      annotations: getEntity.annotations,
    },
    {
      name: 'list_blueprints',
      description: 'Every blueprint (entity type) of the catalog.',
      inputSchema: noInput,
      annotations: listBlueprints.annotations,
    },
    {
      name: 'list_incidents',
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
      annotations: listIncidents.annotations,
    },
    {
      name: 'get_check_results',
      description:
        "Per-attempt results of one check (outcome, latency, error) over the last hours, newest first and paged (next_cursor continues); the first page also summarises the window: results by outcome, latency p50/p95, first and last time. A check probed from several locations shows each location's outcome per result (locations), and a slot too few locations reported is inconclusive (neither up nor down).",
      inputSchema: checkResultsInput,
      annotations: getCheckResults.annotations,
    },
    {
      name: 'create_check',
      description:
        'Registers a check of the entity: http (target_url) or another check type (its config, as POST /v1/checks takes it), optionally probed from several locations with a quorum. Probed types are probed once first (from here) and the answer says what the probe saw; push checks are not probed. dry_run: create nothing.',
      inputSchema: createCheckInput,
      annotations: createCheck.annotations,
    },
    {
      name: 'get_blast_radius',
      description:
        'Every entity that depends on this one, directly or transitively (depends_on relations), with its state.',
      inputSchema: entityRef,
      annotations: getBlastRadius.annotations,
    },
    {
      name: 'explain_entity_state',
      description:
        'Why an entity is in its state: its down and degraded checks first, each with its reason (last error or assertion failure) and since when; then upstream entities not up, as a possible cause; recent transitions.',
      inputSchema: entityRef,
      annotations: explainEntityState.annotations,
    },
    {
      name: 'get_uptime',
      description:
        "Uptime of an entity (its checks' results summed) or of a check over 24h, 7d, 30d or 90d: uptime ratio, results, failures, downtime, incidents, MTTR, latency p50/p95/p99, and a check's SLO target and error budget left.",
      inputSchema: {
        type: 'object',
        properties: {
          ...entityNaming('The entity, its checks summed; or check_id instead'),
          check_id: { type: 'string', description: 'The check (chk_…); or the entity instead' },
          window: { type: 'string', enum: ['24h', '7d', '30d', '90d'], default: '24h' },
        },
        additionalProperties: false,
      },
      annotations: getUptime.annotations,
    },
    {
      name: 'search_entities',
      description:
        'Entities whose name or slug starts with prefix (case-insensitive), in a state, of a blueprint; paged (next_cursor continues).',
      inputSchema: {
        type: 'object',
        properties: {
          prefix: { type: 'string', minLength: 1, maxLength: 200, description: 'Start of the name or slug' },
          state: {
            type: 'string',
            enum: ['up', 'degraded', 'down', 'unknown'],
            description: 'Only this state',
          },
          blueprint_slug: { type: 'string', description: 'Only entities of this blueprint' },
          limit: pageLimit(50, 200),
          cursor,
        },
        additionalProperties: false,
      },
      annotations: searchEntities.annotations,
    },
    {
      name: 'show_status',
      description:
        'The status board as a view (MCP Apps, ui://vigil/status): counts and entities, problems first; hosts without MCP Apps get the same as text.',
      inputSchema: noInput,
      annotations: showStatus.annotations,
    },
    {
      name: 'show_blast_radius',
      description:
        'What depends on an entity, directly or transitively, as a view (MCP Apps, ui://vigil/blast-radius): lists by distance with states; hosts without MCP Apps get the same as text.',
      inputSchema: entityRef,
      annotations: showBlastRadius.annotations,
    },
  ],
} satisfies CreateSkillBody;
