import type { Principal } from '../../domain/principal.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import { requiredEntity } from '../tool-kit/entity-ref.ts';
import { coveredEntityIds } from './maintenance.ts';
import { impactByIds } from './page-incidents.ts';

/**
 * The objects a write tool's arguments name, looked up before the 2026-07-28 confirmation (issue
 * 75): each must exist in the caller's tenant, or the call answers its not-found tool error at once
 * and the user is never asked to confirm a call that would then fail. Each lookup is the read the
 * tool itself makes (another tenant's object is as unknown as a made-up one). What a tool checks
 * beyond existence (a page showing the entity, a window's times) stays with the tool.
 */
type References = (deps: BuiltinDeps, caller: Principal, args: Record<string, unknown>) => Promise<void>;

/** The strings of an array argument (the inputSchema already said they are strings). */
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const string = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const checks = async (deps: BuiltinDeps, caller: Principal, ids: readonly string[]) => {
  for (const id of new Set(ids)) await deps.checkService.requireCheck(caller.tenantId, id);
};

/** Refuses entity ids the tenant lacks as the window and page services do (400, each at `<path>.<i>`). */
const entities = async (
  deps: BuiltinDeps,
  caller: Principal,
  ids: readonly string[],
  at: (i: number) => string,
) => {
  const found = await deps.entityStore.existing(caller.tenantId, ids);
  const issues = ids.flatMap((id, i) => (found.has(id) ? [] : [{ path: at(i), message: `no entity ${id}` }]));
  if (issues.length > 0) throw new ValidationError('unknown entities', issues);
};

const check: References = (deps, caller, args) => checks(deps, caller, strings([args.check_id]));

const incident: References = async (deps, caller, args) => {
  const id = string(args.incident_id);
  if (id !== undefined) await deps.incidents.get(caller, id);
};

/** The status page of `page` (its slug): 404 when the tenant has none of that slug. */
const statusPage = async (deps: BuiltinDeps, caller: Principal, slug: string | undefined) => {
  if (slug !== undefined) await deps.pageIncidents.list(caller.tenantId, slug, { limit: 1 });
};

/** The outside alert an acknowledge or resolve names. */
const outsideAlert: References = async (deps, caller, args) => {
  const integration = string(args.integration_id);
  const key = string(args.dedup_key);
  if (integration !== undefined && key !== undefined)
    await deps.outsideAlerts.require(caller.tenantId, integration, key);
};

/** Each write built-in's references, by tool name; a write tool not here names no object. */
const REFERENCES: Readonly<Record<string, References>> = {
  create_check: async (deps, caller, args) => {
    await requiredEntity(deps, caller.tenantId, args);
  },
  run_check: check,
  update_check: check,
  delete_check: check,
  silence_check: check,
  acknowledge_incident: incident,
  add_incident_note: incident,
  resolve_incident: incident,
  acknowledge_outside_alert: outsideAlert,
  resolve_outside_alert: outsideAlert,
  create_maintenance: async (deps, caller, args) => {
    await coveredEntityIds(deps, caller.tenantId, args);
    await entities(deps, caller, strings(args.entity_ids), (i) => `entity_ids.${i}`);
  },
  start_maintenance: async (deps, caller, args) => {
    await checks(deps, caller, strings(args.check_ids));
    await coveredEntityIds(deps, caller.tenantId, args);
    await entities(deps, caller, strings(args.entity_ids), (i) => `entity_ids.${i}`);
  },
  create_page_incident: async (deps, caller, args) => {
    await statusPage(deps, caller, string(args.page));
    const impact = (await impactByIds(deps, caller.tenantId, args.impact)) ?? [];
    const ids = impact.map((i) => string((i as { entity_id?: unknown })?.entity_id) ?? '');
    await entities(deps, caller, ids, (i) => `impact.${i}.entity_id`);
  },
  update_page_incident: async (deps, caller, args) => {
    const page = string(args.page);
    const id = string(args.incident_id);
    if (page !== undefined && id !== undefined) await deps.pageIncidents.get(caller.tenantId, page, id);
  },
};

/** The reference check of the built-in `name`, or undefined when its arguments name no object. */
export const referencesOf = (name: string): References | undefined => REFERENCES[name];
