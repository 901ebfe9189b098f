import { tenantCatalogOp } from '../../auth/records.ts';
import {
  checkFieldDefinition,
  checkFieldDefinitions,
  type FieldDefinition,
  MAX_FIELDS_PER_BLUEPRINT,
} from '../../domain/catalog.ts';
import { DEFAULT_STATE_RULE, type StateRule } from '../../domain/states.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, LimitExceededError, ValidationError } from '../../platform/errors.ts';
import { newRecordStamp } from '../../platform/ids.ts';
import { countOf } from '../../platform/plural.ts';
import { belowLimit, unchanged } from '../../store/conditions.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { type Condition, ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { readTenantCatalog } from '../tenant/tenant-catalog.ts';
import { createBlueprintChanges } from './blueprint-changes.ts';
import {
  type BlueprintRecord,
  blueprintCreatedOp,
  blueprintFieldsOp,
  blueprintSchema,
  clearDefaultFlagOp,
} from './blueprint-items.ts';
import type { BlueprintStore } from './blueprint-store.ts';
import { plainField, publicBlueprint } from './blueprint-views.ts';

export interface BlueprintServiceDeps {
  table: Table;
  blueprints: BlueprintStore;
  clock: Clock;
}

export interface NewBlueprint {
  slug: string;
  name: string;
  description: string;
  fields: FieldDefinition[];
  is_default: boolean;
  state_rule?: StateRule | undefined;
}

function rejectIssues(what: string, issues: { path: string; message: string }[]): void {
  if (issues.length === 0) return;
  throw new ValidationError(
    `invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    issues,
  );
}

/** Blueprints: create (plan limit and default flag in one transaction), read, change, add fields, delete. */
export function createBlueprintService(deps: BlueprintServiceDeps) {
  const { table, blueprints, clock } = deps;

  const createOnce = async (
    tenantId: string,
    input: NewBlueprint,
  ): Promise<BlueprintRecord | typeof RETRY> => {
    const tenant = await readTenantCatalog(table, tenantId);
    const limit = tenant.blueprint_limit;
    if (limit <= 0) throw new LimitExceededError(`the plan allows ${countOf(limit, 'blueprint')}`);
    const { id, at } = newRecordStamp('bp', clock);
    const record: BlueprintRecord = {
      id,
      slug: input.slug,
      name: input.name,
      description: input.description,
      fields: input.fields.map(plainField),
      is_default: input.is_default,
      state_rule: input.state_rule ?? DEFAULT_STATE_RULE,
      created_at: at,
      updated_at: at,
      entity_count: 0,
      version: 1,
    };
    // The default under the same slug is the blueprint being created again: its put fails (409), and
    // the transaction must not touch that item twice.
    const previous =
      input.is_default && tenant.default_blueprint !== input.slug ? tenant.default_blueprint : undefined;
    const tenantConditions: Condition[] = [{ kind: 'itemExists' }, belowLimit('blueprint_count', limit)];
    if (input.is_default) tenantConditions.push(unchanged('default_blueprint', tenant.default_blueprint));
    const ops: WriteOp[] = [
      blueprintCreatedOp(tenantId, record),
      tenantCatalogOp(tenantId, {
        add: { blueprint_count: 1 },
        ...(input.is_default ? { set: { default_blueprint: input.slug } } : {}),
        condition: { kind: 'and', conditions: tenantConditions },
      }),
    ];
    if (previous !== undefined) ops.push(clearDefaultFlagOp(tenantId, previous));
    try {
      await table.transact(ops);
      return record;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      if (err.failed.includes(0))
        throw new ConflictError(`a blueprint with slug '${input.slug}' already exists`);
      const after = await readTenantCatalog(table, tenantId);
      if ((after.blueprint_count ?? 0) >= after.blueprint_limit) {
        throw new LimitExceededError(`the plan allows ${countOf(after.blueprint_limit, 'blueprint')}`);
      }
      // The default blueprint moved (or the limit was raised) meanwhile: read again.
      return RETRY;
    }
  };

  const addFieldOnce = async (
    tenantId: string,
    slug: string,
    def: FieldDefinition,
  ): Promise<BlueprintRecord | typeof RETRY> => {
    const bp = await blueprints.require(tenantId, slug);
    if (bp.fields.some((f) => f.name === def.name)) {
      throw new ConflictError(`blueprint '${slug}' already has a field named '${def.name}'`);
    }
    if (bp.fields.length >= MAX_FIELDS_PER_BLUEPRINT) {
      throw new LimitExceededError(`a blueprint holds at most ${MAX_FIELDS_PER_BLUEPRINT} fields`);
    }
    const needsEmptyBlueprint = def.required && def.default_value === undefined;
    if (needsEmptyBlueprint && bp.entity_count > 0) {
      throw ValidationError.field(
        'default_value',
        'is needed to add a required field to a blueprint that already has entities',
      );
    }
    // The id tells this blueprint from one deleted and created again under the same slug.
    const conditions: Condition[] = [unchanged('id', bp.id), unchanged('version', bp.version)];
    if (needsEmptyBlueprint) conditions.push({ kind: 'compare', attr: 'entity_count', op: '=', value: 0 });
    try {
      const item = await table.update(
        blueprintFieldsOp(
          tenantId,
          slug,
          { fields: [...bp.fields, plainField(def)], updated_at: isoTime(clock.now()) },
          { kind: 'and', conditions },
        ),
      );
      return blueprintSchema.parse(item);
    } catch (err) {
      if (err instanceof ConditionFailedError) return RETRY;
      throw err;
    }
  };

  return {
    ...createBlueprintChanges(deps),

    async list(tenantId: string) {
      return (await blueprints.list(tenantId)).map(publicBlueprint);
    },

    async get(tenantId: string, slug: string) {
      return publicBlueprint(await blueprints.require(tenantId, slug));
    },

    async create(tenantId: string, input: NewBlueprint) {
      rejectIssues('blueprint fields', checkFieldDefinitions(input.fields));
      const record = await withRetries(OPTIMISTIC_ATTEMPTS, 'the default blueprint', () =>
        createOnce(tenantId, input),
      );
      return publicBlueprint(record);
    },

    /** Adds one field; a required one without default only while the blueprint has no entities. */
    async addField(tenantId: string, slug: string, def: FieldDefinition) {
      rejectIssues('field', checkFieldDefinition(def));
      const record = await withRetries(OPTIMISTIC_ATTEMPTS, 'the blueprint', () =>
        addFieldOnce(tenantId, slug, def),
      );
      return publicBlueprint(record);
    },
  };
}

export type BlueprintService = ReturnType<typeof createBlueprintService>;
