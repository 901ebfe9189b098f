import type { Principal } from '../../domain/principal.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import { knownEntities } from '../tool-kit/entity-ref.ts';
import { coveredEntityIds } from './maintenance.ts';

/**
 * The objects a write tool's arguments name, looked up before the 2026-07-28 confirmation (issue
 * 75): each must exist in the caller's tenant, or the call answers its not-found tool error at once
 * and the user is never asked to confirm a call that would then fail. Each lookup is the read the
 * tool itself makes (another tenant's object is as unknown as a made-up one). What a tool checks
 * beyond existence (a page showing the entity, a window's times) stays with the tool. These are
 * the references of the built-ins MCP binds itself; a tool a feature's mount binds carries its own
 * (`references` in its definition).
 */
type References = (deps: BuiltinDeps, caller: Principal, args: Record<string, unknown>) => Promise<void>;

/** The strings of an array argument (the inputSchema already said they are strings). */
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const checks = async (deps: BuiltinDeps, caller: Principal, ids: readonly string[]) => {
  for (const id of new Set(ids)) await deps.checkService.requireCheck(caller.tenantId, id);
};

const entities = (deps: BuiltinDeps, caller: Principal, ids: readonly string[], at: (i: number) => string) =>
  knownEntities(deps, caller.tenantId, ids, at);

/** Each write built-in's references, by tool name; a write tool not here names no object. */
const REFERENCES: Readonly<Record<string, References>> = {
  create_maintenance: async (deps, caller, args) => {
    await coveredEntityIds(deps, caller.tenantId, args);
    await entities(deps, caller, strings(args.entity_ids), (i) => `entity_ids.${i}`);
  },
  start_maintenance: async (deps, caller, args) => {
    await checks(deps, caller, strings(args.check_ids));
    await coveredEntityIds(deps, caller.tenantId, args);
    await entities(deps, caller, strings(args.entity_ids), (i) => `entity_ids.${i}`);
  },
};

/** The reference check of the built-in `name`, or undefined when its arguments name no object. */
export const referencesOf = (name: string): References | undefined => REFERENCES[name];
