import { getTenant } from '../../auth/records.ts';
import { applyFieldPatch, type FieldValues } from '../../domain/catalog.ts';
import { DEFAULT_STATE_RULE, type StateRule } from '../../domain/states.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { newRecordStamp } from '../../platform/ids.ts';
import { countOf } from '../../platform/plural.ts';
import { entityPurgeJobOp } from '../../purge/purge-job-items.ts';
import { belowLimit, unchanged } from '../../store/conditions.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, ItemTooLargeError, type Table, type WriteOp } from '../../store/table.ts';
import { type BlueprintRecord, blueprintUnchangedOp, entityCountOp } from '../blueprints/blueprint-items.ts';
import type { BlueprintStore } from '../blueprints/blueprint-store.ts';
import { readTenantCatalog } from '../tenant/tenant-catalog.ts';
import {
  type EntityChecksChange,
  type EntityRecord,
  type EntityState,
  entityCreatedOps,
  entityDeletedOps,
  entityPatchedOps,
  entitySchema,
  parseEntityState,
  readEntityItem,
} from './entity-items.ts';
import { entityAddedOps, entityRemovedOps } from './entity-state-index-items.ts';
import type { EntityStore } from './entity-store.ts';
import { entityView, entityViews, type MaintenanceOf } from './entity-views.ts';

export interface EntityServiceDeps {
  table: Table;
  blueprints: BlueprintStore;
  entities: EntityStore;
  clock: Clock;
  /** Entity responses carry `in_maintenance` from it; without it (tests of the catalog alone) false. */
  maintenance?: MaintenanceOf | undefined;
  /** The checks engine's re-aggregation of a rule change (lib/checks/definitions/entity-restate.ts), passed in by the composition. */
  ruleChangeOps?: RuleChangeOps | undefined;
}

/** The entity update (and transition) that applies a state rule to an entity as read, with its patch. */
type RuleChangeOps = (input: {
  tenantId: string;
  entity: EntityState;
  rule: StateRule;
  nowMs: number;
  retentionDays: number;
  patch: EntityChecksChange['patch'];
}) => { ops: WriteOp[] };

export interface NewEntity {
  slug: string;
  name: string;
  fields: Record<string, unknown>;
  /** Its own state rule; null or absent: its blueprint's. */
  state_rule?: StateRule | null | undefined;
}

/** An entity PUT body: a JSON merge patch of name and fields. */
export interface EntityPatch {
  name?: string | undefined;
  fields?: Record<string, unknown> | undefined;
  /** A new own state rule (null: its blueprint's), which re-aggregates its state. */
  state_rule?: StateRule | null | undefined;
}

/** The rule an entity's state is aggregated by: its own, else its blueprint's. */
const ruleOf = (bp: BlueprintRecord, own: StateRule | null | undefined): StateRule =>
  own ?? bp.state_rule ?? DEFAULT_STATE_RULE;

function resolveFields(
  bp: BlueprintRecord,
  current: FieldValues | undefined,
  patch: Record<string, unknown>,
) {
  const result = applyFieldPatch(bp.fields, current, patch);
  if (result.ok) return result.fields;
  const summary = result.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  throw new ValidationError(`invalid entity fields: ${summary}`, result.issues);
}

/** Either engine's item-size refusal, as the caller's problem: the entity is too large to store. */
function tooLarge(err: unknown): unknown {
  if (!(err instanceof ItemTooLargeError)) return err;
  return new ValidationError(
    'the entity is too large to store (400 KB per item)',
    [{ path: 'fields', message: 'make the entity smaller: it exceeds 400 KB stored' }],
    err,
  );
}

/** Entities: create (plan limit in the same transaction), read, merge-patch update, delete with an async purge. */
export function createEntityService(deps: EntityServiceDeps) {
  const { table, blueprints, entities, clock } = deps;

  const views = (tenantId: string, bp: BlueprintRecord, list: EntityRecord[]) =>
    entityViews(deps.maintenance, tenantId, bp, list);
  const one = async (tenantId: string, bp: BlueprintRecord, entity: EntityRecord) =>
    (await views(tenantId, bp, [entity]))[0] ?? entityView(bp, entity);

  const load = async (tenantId: string, blueprintSlug: string, slug: string) => {
    const [bp, entity] = await Promise.all([
      blueprints.require(tenantId, blueprintSlug),
      entities.get(tenantId, blueprintSlug, slug),
    ]);
    if (!entity) throw new NotFoundError('entity');
    return { bp, entity };
  };

  const createOnce = async (tenantId: string, blueprintSlug: string, input: NewEntity) => {
    const [tenant, bp] = await Promise.all([
      readTenantCatalog(table, tenantId),
      blueprints.require(tenantId, blueprintSlug),
    ]);
    const fields = resolveFields(bp, undefined, input.fields);
    const limit = tenant.entity_limit_per_bp;
    if (limit <= 0)
      throw new LimitExceededError(`the plan allows ${countOf(limit, 'entity', 'entities')} per blueprint`);
    const { id, at } = newRecordStamp('ent', clock);
    const entity: EntityRecord = {
      id,
      blueprint_slug: bp.slug,
      slug: input.slug,
      name: input.name,
      fields,
      state: 'unknown',
      state_rule: input.state_rule ?? null,
      created_at: at,
      updated_at: at,
      version: 1,
    };
    try {
      await table.transact([
        // The entity put is op 0: its condition failing means the slug is taken. Its applied state
        // rule is its blueprint's as read (held on the blueprint's version, which a rule change bumps).
        ...entityCreatedOps(tenantId, { ...entity, applied_state_rule: ruleOf(bp, entity.state_rule) }),
        // The limit counter and the field-definition version are checked on the blueprint in the same
        // transaction; the id: a blueprint deleted and created again under this slug is another blueprint.
        entityCountOp(tenantId, bp.slug, 1, {
          kind: 'and',
          conditions: [
            unchanged('id', bp.id),
            unchanged('version', bp.version),
            belowLimit('entity_count', limit),
          ],
        }),
        // The tenant's status counters and state index.
        ...entityAddedOps(tenantId, entity, 'unknown'),
      ]);
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw tooLarge(err);
      if (err.failed.includes(0)) {
        throw new ConflictError(
          `an entity with slug '${input.slug}' already exists in blueprint '${bp.slug}'`,
        );
      }
      const after = await blueprints.require(tenantId, blueprintSlug);
      if (after.entity_count >= limit)
        throw new LimitExceededError(`the plan allows ${countOf(limit, 'entity', 'entities')} per blueprint`);
      // The blueprint's fields changed meanwhile: validate again against the new definitions.
      return RETRY;
    }
    return one(tenantId, bp, entity);
  };

  /**
   * The writes of a patch. One that changes the own state rule re-aggregates the entity's state in
   * the same entity update (lib/checks/definitions/entity-restate.ts: a transition when it moves).
   */
  const patchOps = async (
    tenantId: string,
    bp: BlueprintRecord,
    entity: EntityRecord,
    next: EntityRecord,
  ) => {
    const change = { name: next.name, fields: next.fields, updated_at: next.updated_at };
    const own = next.state_rule ?? null;
    if (own === (entity.state_rule ?? null)) return entityPatchedOps(tenantId, entity, change);
    const [item, tenant] = await Promise.all([
      readEntityItem(table, tenantId, bp.slug, entity.slug),
      getTenant(table, tenantId),
    ]);
    if (!item || !tenant || entitySchema.parse(item).version !== entity.version) return RETRY;
    if (!deps.ruleChangeOps) throw new Error('state rule changes need the checks engine (ruleChangeOps)');
    const { ops } = deps.ruleChangeOps({
      tenantId,
      entity: parseEntityState(item),
      rule: ruleOf(bp, own),
      nowMs: clock.now(),
      retentionDays: tenant.retention_days,
      patch: { ...change, state_rule: own },
    });
    // The pointer's rename (the patch's other op), when the name changed: ops after the entity update.
    return [...ops, ...entityPatchedOps(tenantId, entity, change).slice(1)];
  };

  const updateOnce = async (tenantId: string, blueprintSlug: string, slug: string, patch: EntityPatch) => {
    const { bp, entity } = await load(tenantId, blueprintSlug, slug);
    const fields = resolveFields(bp, entity.fields, patch.fields ?? {});
    const next: EntityRecord = {
      ...entity,
      name: patch.name ?? entity.name,
      fields,
      state_rule: patch.state_rule === undefined ? (entity.state_rule ?? null) : patch.state_rule,
      updated_at: isoTime(clock.now()),
      version: entity.version + 1,
    };
    const ops = await patchOps(tenantId, bp, entity, next);
    if (ops === RETRY) return RETRY;
    try {
      await table.transact([
        // A new name also moves the id pointer (search_entities' indexes), in this transaction.
        ...ops,
        blueprintUnchangedOp(tenantId, bp.slug, bp.version),
      ]);
    } catch (err) {
      if (err instanceof ConditionFailedError) return RETRY;
      throw tooLarge(err);
    }
    // A rule change may have moved the state: answer the entity as stored.
    const stored =
      next.state_rule === entity.state_rule ? undefined : await entities.get(tenantId, bp.slug, slug);
    return one(tenantId, bp, stored ?? next);
  };

  const removeOnce = async (tenantId: string, blueprintSlug: string, slug: string) => {
    const { bp, entity } = await load(tenantId, blueprintSlug, slug);
    try {
      await table.transact([
        // Version-held: the status counter taken down is the state this delete read.
        ...entityDeletedOps(tenantId, entity),
        entityCountOp(tenantId, bp.slug, -1, { kind: 'itemExists' }),
        entityPurgeJobOp(tenantId, entity.id),
        ...entityRemovedOps(tenantId, entity, entity.state),
      ]);
      return undefined;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      // Changed meanwhile (read again and retry), or gone (the next load answers 404).
      return RETRY;
    }
  };

  return {
    async list(tenantId: string, blueprintSlug: string) {
      const bp = await blueprints.require(tenantId, blueprintSlug);
      return views(tenantId, bp, await entities.list(tenantId, bp.slug));
    },

    async get(tenantId: string, blueprintSlug: string, slug: string) {
      const { bp, entity } = await load(tenantId, blueprintSlug, slug);
      return one(tenantId, bp, entity);
    },

    async create(tenantId: string, blueprintSlug: string, input: NewEntity) {
      return withRetries(OPTIMISTIC_ATTEMPTS, 'the blueprint', () =>
        createOnce(tenantId, blueprintSlug, input),
      );
    },

    /** Applies a merge patch: given keys change, a field set to null is removed (unless required). */
    async update(tenantId: string, blueprintSlug: string, slug: string, patch: EntityPatch) {
      return withRetries(OPTIMISTIC_ATTEMPTS, 'the entity', () =>
        updateOnce(tenantId, blueprintSlug, slug, patch),
      );
    },

    /**
     * Deletes the entity, its id pointer and its count in one transaction that also writes a purge job;
     * the purge consumer then removes its relations and checks (with their partitions) in bounded rounds.
     */
    async remove(tenantId: string, blueprintSlug: string, slug: string): Promise<void> {
      return withRetries(OPTIMISTIC_ATTEMPTS, 'the entity', () => removeOnce(tenantId, blueprintSlug, slug));
    },
  };
}

export type EntityService = ReturnType<typeof createEntityService>;
