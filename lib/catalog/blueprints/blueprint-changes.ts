import { tenantCatalogOp } from '../../auth/records.ts';
import { DEFAULT_STATE_RULE, type StateRule } from '../../domain/states.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { unchanged } from '../../store/conditions.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { readTenantCatalog } from '../tenant/tenant-catalog.ts';
import {
  type BlueprintRecord,
  blueprintChangedOp,
  blueprintDeletedOp,
  clearDefaultFlagOp,
} from './blueprint-items.ts';
import type { BlueprintStore } from './blueprint-store.ts';
import { publicBlueprint } from './blueprint-views.ts';
import { stateRuleJobOp } from './state-rule-job-items.ts';

export interface BlueprintChangeDeps {
  table: Table;
  blueprints: BlueprintStore;
  clock: Clock;
}

/** A blueprint PUT body: the attributes given change; fields change through POST /fields only. */
export interface BlueprintChange {
  name?: string | undefined;
  description?: string | undefined;
  is_default?: boolean | undefined;
  /** A new state rule for its entities without their own (applied to them in bounded rounds). */
  state_rule?: StateRule | undefined;
}

const holdsEntities = (slug: string, count: number) =>
  new ConflictError(
    `blueprint '${slug}' still holds ${count} ${count === 1 ? 'entity' : 'entities'}; delete them first`,
  );

/**
 * PUT and DELETE of blueprints. Both condition the blueprint item on its id (a blueprint deleted and
 * created again under the same slug is another one) and on the default flag they read, because the
 * tenant's `default_blueprint` is written from it in the same transaction.
 */
export function createBlueprintChanges(deps: BlueprintChangeDeps) {
  const { table, blueprints, clock } = deps;

  const updateOnce = async (
    tenantId: string,
    slug: string,
    change: BlueprintChange,
  ): Promise<BlueprintRecord | typeof RETRY> => {
    const [tenant, bp] = await Promise.all([
      readTenantCatalog(table, tenantId),
      blueprints.require(tenantId, slug),
    ]);
    const isDefault = change.is_default ?? bp.is_default;
    const rule = change.state_rule ?? bp.state_rule ?? DEFAULT_STATE_RULE;
    const ruleChanged = rule !== (bp.state_rule ?? DEFAULT_STATE_RULE);
    const next: BlueprintRecord = {
      ...bp,
      name: change.name ?? bp.name,
      description: change.description ?? bp.description,
      is_default: isDefault,
      state_rule: rule,
      updated_at: isoTime(clock.now()),
    };
    const ops: WriteOp[] = [
      blueprintChangedOp(
        tenantId,
        slug,
        {
          name: next.name,
          description: next.description,
          is_default: isDefault,
          updated_at: next.updated_at,
          ...(ruleChanged ? { state_rule: rule } : {}),
        },
        // is_default as read: the tenant's default_blueprint below is written from it.
        {
          kind: 'and',
          conditions: [
            unchanged('id', bp.id),
            { kind: 'compare', attr: 'is_default', op: '=', value: bp.is_default },
          ],
        },
      ),
    ];
    if (ruleChanged) {
      // Its entities that inherit the rule are re-aggregated through the change feed (lib/checks/services/state-rule-consumer.ts).
      const job = { tenant_id: tenantId, blueprint_slug: slug, rule, job_id: newId('bp', clock.now()) };
      ops.push(stateRuleJobOp(job));
    }
    if (isDefault !== bp.is_default) {
      ops.push(
        tenantCatalogOp(tenantId, {
          ...(isDefault ? { set: { default_blueprint: slug } } : { remove: ['default_blueprint'] }),
          condition: {
            kind: 'and',
            conditions: [{ kind: 'itemExists' }, unchanged('default_blueprint', tenant.default_blueprint)],
          },
        }),
      );
      const previous = tenant.default_blueprint;
      if (isDefault && previous !== undefined && previous !== slug)
        ops.push(clearDefaultFlagOp(tenantId, previous));
    }
    try {
      await table.transact(ops);
      return next;
    } catch (err) {
      if (err instanceof ConditionFailedError) return RETRY;
      throw err;
    }
  };

  const removeOnce = async (tenantId: string, slug: string): Promise<true | typeof RETRY> => {
    const bp = await blueprints.require(tenantId, slug);
    if (bp.entity_count > 0) throw holdsEntities(slug, bp.entity_count);
    const ops: WriteOp[] = [
      // entity_count = 0 in the same transaction that entity creates increment it: no entity slips in.
      blueprintDeletedOp(tenantId, slug, {
        kind: 'and',
        conditions: [
          unchanged('id', bp.id),
          { kind: 'compare', attr: 'entity_count', op: '=', value: 0 },
          { kind: 'compare', attr: 'is_default', op: '=', value: bp.is_default },
        ],
      }),
      tenantCatalogOp(tenantId, {
        add: { blueprint_count: -1 },
        ...(bp.is_default ? { remove: ['default_blueprint'] } : {}),
        condition: bp.is_default
          ? { kind: 'compare', attr: 'default_blueprint', op: '=', value: slug }
          : { kind: 'itemExists' },
      }),
    ];
    try {
      await table.transact(ops);
      return true;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      const after = await blueprints.get(tenantId, slug);
      if (!after || after.id !== bp.id) throw new NotFoundError('blueprint');
      if (after.entity_count > 0) throw holdsEntities(slug, after.entity_count);
      // Its default flag moved meanwhile: read again.
      return RETRY;
    }
  };

  return {
    /** Changes name, description and is_default (true moves the tenant's default here, false clears it). */
    async update(tenantId: string, slug: string, change: BlueprintChange) {
      const record = await withRetries(OPTIMISTIC_ATTEMPTS, 'the default blueprint', () =>
        updateOnce(tenantId, slug, change),
      );
      return publicBlueprint(record);
    },

    /** Deletes a blueprint that holds no entities (409 CONFLICT otherwise); its slug is free again. */
    async remove(tenantId: string, slug: string): Promise<void> {
      await withRetries(OPTIMISTIC_ATTEMPTS, 'the default blueprint', () => removeOnce(tenantId, slug));
    },
  };
}
