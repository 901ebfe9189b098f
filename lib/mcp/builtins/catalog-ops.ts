import type { CreateSkillBody } from '../../skills/manifest.ts';
import {
  auditLogInput,
  checkRef,
  checkResultsInput,
  createCheckInput,
  cursor,
  entityRef,
  explainAlertingInput,
  listHeartbeatsInput,
  noInput,
  pageLimit,
  pingLogInput,
} from './catalog-ops-schemas.ts';
import { CONFIG_TOOL_ENTRIES } from './config.ts';
import { builtinAnnotations } from './index.ts';
import { PAGE_INCIDENT_TOOL_ENTRIES } from './page-incidents.ts';
import { WHO_IS_ON_CALL_ENTRY } from './who-is-on-call.ts';

/**
 * The manifest that makes the built-in catalog tools discoverable (SPEC.md "Skills and MCP"):
 * POST it to /v1/skills as written. It lives with the built-ins it offers: the skills registry
 * knows nothing of what runs a tool, and registering only decides which built-ins a tenant's
 * agents see. The annotations are the built-ins' own: what a built-in does is fixed by its
 * definition, and tools/list shows those whatever a manifest says, so a SPEC-shaped manifest
 * without annotations works the same.
 */

/** The skill slug under which the built-in catalog tools are registered (SPEC.md). */
export const CATALOG_OPS = 'catalog-ops';

/** The catalog-ops skill: SPEC.md's seven catalog tools, get_blast_radius, explain_entity_state, the incident and the maintenance tools, create_page_incident and update_page_incident, get_uptime, search_entities, get_action_run, explain_alerting, list_heartbeats, get_ping_log, get_audit_log, plan_config, apply_config and who_is_on_call. */
export const CATALOG_OPS_MANIFEST = {
  slug: CATALOG_OPS,
  name: 'Catalog operations',
  description: 'Read the service catalog and its health, follow incidents and dependencies, add checks.',
  version: '1.0.0',
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
      annotations: builtinAnnotations('get_status_summary'),
    },
    {
      name: 'list_entities',
      description: 'Entities of the catalog, optionally only those of one blueprint.',
      inputSchema: {
        type: 'object',
        properties: { blueprint_slug: { type: 'string', description: 'Only entities of this blueprint' } },
        additionalProperties: false,
      },
      annotations: builtinAnnotations('list_entities'),
    },
    {
      name: 'get_entity',
      description:
        "One entity with its metadata, current status and attached checks (a check probed from several locations: each location's outcome in its last slot, last_locations).",
      inputSchema: entityRef,
      annotations: builtinAnnotations('get_entity'),
    },
    {
      name: 'list_blueprints',
      description: 'Every blueprint (entity type) of the catalog.',
      inputSchema: noInput,
      annotations: builtinAnnotations('list_blueprints'),
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
          entity_id: { type: 'string', description: 'Only incidents of this entity (ent_…)' },
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
      annotations: builtinAnnotations('list_incidents'),
    },
    {
      name: 'get_check_results',
      description:
        "Per-attempt results of one check (outcome, latency, error) over the last hours, newest first and paged (next_cursor continues); the first page also summarises the window: results by outcome, latency p50/p95, first and last time. A check probed from several locations shows each location's outcome per result (locations), and a slot too few locations reported is inconclusive (neither up nor down).",
      inputSchema: checkResultsInput,
      annotations: builtinAnnotations('get_check_results'),
    },
    {
      name: 'create_check',
      description:
        'Registers a check of the entity: http (target_url) or another check type (its config, as POST /v1/checks takes it), optionally probed from several locations with a quorum. Probed types are probed once first (from here) and the answer says what the probe saw; push checks are not probed. dry_run: create nothing.',
      inputSchema: createCheckInput,
      annotations: builtinAnnotations('create_check'),
    },
    {
      name: 'run_check',
      description:
        'Probes a check once now: a pull check answers its result (stored like any other, marked manual; it counts for state); a check probed from other locations is dispatched to them and its result follows in get_check_results. Limited per check (2, then one every 30 s) and per account; push and disabled checks are refused.',
      inputSchema: checkRef,
      annotations: builtinAnnotations('run_check'),
    },
    {
      name: 'get_blast_radius',
      description:
        'Every entity that depends on this one, directly or transitively (depends_on relations), with its state.',
      inputSchema: entityRef,
      annotations: builtinAnnotations('get_blast_radius'),
    },
    {
      name: 'explain_entity_state',
      description:
        'Why an entity is in its state: its down and degraded checks first, each with its reason (last error or assertion failure) and since when; then upstream entities not up, as a possible cause; recent transitions.',
      inputSchema: entityRef,
      annotations: builtinAnnotations('explain_entity_state'),
    },
    {
      name: 'acknowledge_incident',
      description: 'Acknowledge an open incident: its repeats and escalation stop; says who acknowledged.',
      inputSchema: {
        type: 'object',
        properties: { incident_id: { type: 'string', description: 'The incident (inc_…)' } },
        required: ['incident_id'],
        additionalProperties: false,
      },
      annotations: builtinAnnotations('acknowledge_incident'),
    },
    {
      name: 'add_incident_note',
      description: 'Add a note (at most 4 KB) to an incident’s timeline.',
      inputSchema: {
        type: 'object',
        properties: {
          incident_id: { type: 'string', description: 'The incident (inc_…)' },
          text: { type: 'string', minLength: 1, maxLength: 4096, description: 'The note' },
        },
        required: ['incident_id', 'text'],
        additionalProperties: false,
      },
      annotations: builtinAnnotations('add_incident_note'),
    },
    {
      name: 'list_maintenance',
      description:
        'Maintenance windows (one-off and recurring) with what they cover and whether each is on now.',
      inputSchema: noInput,
      annotations: builtinAnnotations('list_maintenance'),
    },
    {
      name: 'create_maintenance',
      description:
        'Quiet entities for a while: during the window alerts are logged skipped, state-change actions do not fire; a window ending with an entity still down alerts once. With announce, status pages showing a covered entity list it (ahead, during, 24 h after) with its public_note.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100, description: 'What the window is for' },
          entity_ids: {
            type: 'array',
            maxItems: 100,
            items: { type: 'string' },
            description: 'Entities covered (ent_…)',
          },
          blueprint_slugs: {
            type: 'array',
            maxItems: 20,
            items: { type: 'string' },
            description: 'Every entity of these blueprints is covered',
          },
          include_dependents: {
            type: 'boolean',
            default: false,
            description: 'Also cover entities that depend on a covered one, transitively',
          },
          starts_at: { type: 'string', description: 'One-off: ISO 8601 UTC start' },
          ends_at: { type: 'string', description: 'One-off: ISO 8601 UTC end' },
          cron: { type: 'string', maxLength: 200, description: 'Recurring: 5-field cron expression' },
          duration_seconds: {
            type: 'integer',
            minimum: 60,
            maximum: 604800,
            description: 'Recurring: how long each run lasts',
          },
          timezone: { type: 'string', maxLength: 64, description: 'Recurring: IANA timezone, default UTC' },
          announce: {
            type: 'boolean',
            default: false,
            description:
              'Show it on the status pages that show a covered entity: ahead, while on, and for 24 h after',
          },
          announce_from: {
            type: 'string',
            description: 'One-off: ISO 8601 UTC time the pages start to show it (at or before starts_at)',
          },
          announce_lead_seconds: {
            type: 'integer',
            minimum: 0,
            maximum: 2592000,
            description: 'Recurring: each run is shown this many seconds before it starts (default 86400)',
          },
          public_note: {
            type: 'string',
            maxLength: 2000,
            description: 'Markdown shown with the notice on the pages',
          },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: builtinAnnotations('create_maintenance'),
    },
    {
      name: 'get_uptime',
      description:
        "Uptime of an entity (its checks' results summed) or of a check over 24h, 7d, 30d or 90d: uptime ratio, results, failures, downtime, incidents, MTTR, latency p50/p95/p99, and a check's SLO target and error budget left.",
      inputSchema: {
        type: 'object',
        properties: {
          entity_id: { type: 'string', description: 'The entity (ent_…); or check_id' },
          check_id: { type: 'string', description: 'The check (chk_…); or entity_id' },
          window: { type: 'string', enum: ['24h', '7d', '30d', '90d'], default: '24h' },
        },
        additionalProperties: false,
      },
      annotations: builtinAnnotations('get_uptime'),
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
      annotations: builtinAnnotations('search_entities'),
    },
    {
      name: 'get_action_run',
      description:
        'One run of an action (an execution): dispatch outcome, the pipeline status its pipeline reported, and its log lines.',
      inputSchema: {
        type: 'object',
        properties: {
          execution_id: { type: 'string', description: 'The execution (exe_…)' },
          after_seq: {
            type: 'integer',
            minimum: 0,
            maximum: 1000,
            default: 0,
            description: 'Log lines after this one',
          },
          limit: pageLimit(200, 1000),
        },
        required: ['execution_id'],
        additionalProperties: false,
      },
      annotations: builtinAnnotations('get_action_run'),
    },
    {
      name: 'explain_alerting',
      description:
        'Why would I (not) be paged: for a check or an entity changing to to_state now, what each channel would get (send, skip, defer) and why; and what each channel was last told about the entity (last_told) and, while that is not its state, what holds the truth back until when (held); sends nothing.',
      inputSchema: explainAlertingInput,
      annotations: builtinAnnotations('explain_alerting'),
    },
    {
      name: 'list_heartbeats',
      description:
        'Push checks (heartbeats of cron jobs) with their status (failing, late, started, never_pinged, up, paused), last ping, next expected time and when they fail; filter by status; paged (next_cursor continues).',
      inputSchema: listHeartbeatsInput,
      annotations: builtinAnnotations('list_heartbeats'),
    },
    {
      name: 'get_ping_log',
      description:
        "A push check's pings, newest first and paged: kind (success, start, fail, exit, log), exit status, run id, run duration, sender and body (its last 2,000 characters; secret-looking lines redacted for read-only keys).",
      inputSchema: pingLogInput,
      annotations: builtinAnnotations('get_ping_log'),
    },
    {
      name: 'get_audit_log',
      description:
        'Who changed what (admins only): audit entries newest first, each with actor, via (api, console, mcp, cli, agent), action, target, a redacted summary, source address and time. Filters: actor (an id), target (type:id or id), since (ISO time); next_cursor continues.',
      inputSchema: auditLogInput,
      annotations: builtinAnnotations('get_audit_log'),
    },
    ...PAGE_INCIDENT_TOOL_ENTRIES,
    ...CONFIG_TOOL_ENTRIES,
    WHO_IS_ON_CALL_ENTRY,
  ],
} satisfies CreateSkillBody;
