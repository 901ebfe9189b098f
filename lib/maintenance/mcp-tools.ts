import type { ToolKitDeps } from '../catalog/entities.ts';
import { entityIdsOfKeys, entityKeysProperty, knownEntities } from '../catalog/entities.ts';
import type { CheckService } from '../checks/services.ts';
import type { Principal } from '../domain/principal.ts';
import { issueSentence } from '../http/requests.ts';
import { isoTime } from '../platform/clock.ts';
import { ValidationError } from '../platform/errors.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { noInput, READS, writes } from '../platform/mcp-tool.ts';
import { someOf, toolResult } from '../platform/tool-answers.ts';
import { WINDOW_LIMITS } from './maintenance-items.ts';
import type { MaintenanceService } from './maintenance-service.ts';
import { windowBody } from './request-schemas.ts';

/** What a window covers, as both maintenance write tools take it (within POST /v1/maintenance's limits). */
const COVERAGE_PROPERTIES = {
  entity_ids: {
    type: 'array',
    maxItems: WINDOW_LIMITS.entityIds,
    items: { type: 'string' },
    description: 'Entities covered (ent_…); or entities, by blueprint and slug',
  },
  entities: entityKeysProperty(
    'Entities covered, by blueprint and slug (beside or instead of entity_ids)',
    WINDOW_LIMITS.entityIds,
  ),
  blueprint_slugs: {
    type: 'array',
    maxItems: WINDOW_LIMITS.blueprintSlugs,
    items: { type: 'string' },
    description: 'Every entity of these blueprints is covered',
  },
  include_dependents: {
    type: 'boolean',
    default: false,
    description: 'Also cover entities that depend on a covered one, transitively',
  },
};

/** The maintenance tools' services, bound by the maintenance mount (lib/features/feature-routes.ts). */
export interface MaintenanceToolDeps extends ToolKitDeps {
  maintenance: Pick<MaintenanceService, 'list' | 'create'>;
  /** start_maintenance's checks, each covering its entity. */
  checkService: Pick<CheckService, 'read' | 'requireCheck'>;
}

/**
 * Maintenance windows for agents: list them, and create one so an agent can quiet an entity before
 * it works on it (the same service and validation as POST /v1/maintenance).
 */

/**
 * The entities a window's arguments cover by name: its `entity_ids` (as given: the window service
 * refuses unknown ones) and its `entities`, by blueprint and slug (unknown ones refused here).
 */
async function coveredEntityIds(
  deps: Pick<ToolKitDeps, 'entityStore'>,
  tenantId: string,
  args: Record<string, unknown>,
): Promise<string[]> {
  const ids = Array.isArray(args.entity_ids) ? args.entity_ids.map(String) : [];
  return [...new Set([...ids, ...(await entityIdsOfKeys(deps, tenantId, args.entities, 'entities'))])];
}

/** The strings of an array argument (the inputSchema already said they are strings). */
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The entities a write covers exist in the caller's tenant (before the write is confirmed). */
async function coveredReferences(
  deps: Pick<ToolKitDeps, 'entityStore'>,
  caller: Principal,
  args: Record<string, unknown>,
) {
  await coveredEntityIds(deps, caller.tenantId, args);
  await knownEntities(deps, caller.tenantId, strings(args.entity_ids), (i) => `entity_ids.${i}`);
}

/** list_maintenance: the tenant's windows with whether each is on now. */
export const listMaintenance: BuiltinTool<MaintenanceToolDeps> = {
  name: 'list_maintenance',
  offer: {
    toolset: 'incident-ops',
    order: 70,
    version: '1.2.0',
    description:
      'Maintenance windows (one-off and recurring) with what they cover and whether each is on now.',
    inputSchema: noInput,
  },
  annotations: { title: 'List maintenance windows', ...READS },
  handler: async (deps, caller) => {
    const windows = await deps.maintenance.list(caller.tenantId);
    const active = windows.filter((w) => w.active).length;
    const summary =
      windows.length === 0
        ? 'No maintenance windows.'
        : `${windows.length} maintenance window(s), ${active} active now: ` +
          `${someOf(
            windows.map((w) => `"${w.name}"${w.active ? ' (active)' : ''}`),
            20,
          )}.`;
    return toolResult(summary, { windows });
  },
};

/** create_maintenance: a one-off or recurring window over entities and blueprints. */
export const createMaintenance: BuiltinTool<MaintenanceToolDeps> = {
  name: 'create_maintenance',
  offer: {
    toolset: 'incident-ops',
    order: 80,
    version: '1.2.0',
    description:
      'Quiet entities for a while: during the window alerts are logged skipped, state-change actions do not fire; a window ending with an entity still down alerts once. With announce, status pages showing a covered entity list it (ahead, during, 24 h after) with its public_note.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100, description: 'What the window is for' },
        ...COVERAGE_PROPERTIES,
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
  },
  references: coveredReferences,
  annotations: writes('Create maintenance window'),
  handler: async (deps, caller, args) => {
    const { entities: _keys, ...rest } = args;
    const parsed = windowBody.safeParse(
      { ...rest, entity_ids: await coveredEntityIds(deps, caller.tenantId, args) },
      { error: issueSentence },
    );
    if (!parsed.success) {
      throw new ValidationError(
        'invalid maintenance window',
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    const window = await deps.maintenance.create(caller.tenantId, parsed.data);
    const when = window.cron
      ? `every "${window.cron}" (${window.timezone}) for ${window.duration_seconds} s`
      : `from ${window.starts_at} to ${window.ends_at}`;
    return toolResult(`Created maintenance window "${window.name}", ${when}; active now: ${window.active}.`, {
      window,
    });
  },
};

/** Checks a start_maintenance names at most (each adds its entity). */
const MAX_CHECK_IDS = 100;

/**
 * start_maintenance: a one-off window from now for a duration (POST /v1/maintenance's service and
 * body). Windows cover entities, so a check named covers its entity (with every check of it).
 */
export const startMaintenance: BuiltinTool<MaintenanceToolDeps> = {
  name: 'start_maintenance',
  offer: {
    toolset: 'incident-ops',
    order: 90,
    version: '1.2.0',
    description:
      'Quiet entities from now for duration_minutes: a one-off maintenance window (alerts logged skipped, state-change actions do not fire). Cover entity_ids, blueprint_slugs, or check_ids (a check covers its whole entity); include_dependents also covers what depends on them.',
    inputSchema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 100,
          default: 'Maintenance',
          description: 'What it is for',
        },
        duration_minutes: { type: 'integer', minimum: 1, maximum: 10080, description: 'How long, from now' },
        ...COVERAGE_PROPERTIES,
        check_ids: {
          type: 'array',
          maxItems: MAX_CHECK_IDS,
          items: { type: 'string' },
          description: 'Checks (chk_…): each covers its entity',
        },
      },
      required: ['duration_minutes'],
      additionalProperties: false,
    },
  },
  references: async (deps, caller, args) => {
    for (const id of new Set(strings(args.check_ids)))
      await deps.checkService.requireCheck(caller.tenantId, id);
    await coveredReferences(deps, caller, args);
  },
  annotations: writes('Start maintenance now'),
  handler: async (deps, caller, args) => {
    const checkIds = Array.isArray(args.check_ids) ? args.check_ids.map(String).slice(0, MAX_CHECK_IDS) : [];
    // Another tenant's check is not found (404), as at GET /v1/checks/{id}.
    const checks = await Promise.all(checkIds.map((id) => deps.checkService.read(caller.tenantId, id)));
    const entityIds = [
      ...new Set([
        ...(await coveredEntityIds(deps, caller.tenantId, args)),
        ...checks.map((c) => c.entity_id),
      ]),
    ];
    const now = deps.clock.now();
    const minutes = typeof args.duration_minutes === 'number' ? args.duration_minutes : Number.NaN;
    const { check_ids: _checks, duration_minutes: _minutes, entities: _keys, ...rest } = args;
    const parsed = windowBody.safeParse(
      {
        name: 'Maintenance',
        ...rest,
        entity_ids: entityIds,
        starts_at: isoTime(now),
        ends_at: isoTime(now + minutes * 60_000),
      },
      { error: issueSentence },
    );
    if (!parsed.success || !Number.isInteger(minutes) || minutes < 1) {
      throw new ValidationError('invalid maintenance window', [
        ...(Number.isInteger(minutes) && minutes >= 1
          ? []
          : [{ path: 'duration_minutes', message: 'Enter a whole number of minutes, 1 or more.' }]),
        ...(parsed.success
          ? []
          : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))),
      ]);
    }
    const window = await deps.maintenance.create(caller.tenantId, parsed.data);
    return toolResult(
      `Started maintenance window "${window.name}" now, until ${window.ends_at} (${minutes} min); active now: ${window.active}.`,
      { window },
    );
  },
};
