import * as z from 'zod';
import { STATE_RULES } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { migrationMarker } from '../../store/marked-migration.ts';
import type { Condition, Item, Table, WriteOp } from '../../store/table.ts';

/**
 * The owner of `state_rule_job` items (docs/data-model.md, Catalog): a blueprint's new state rule
 * applied to its entities that inherit it, in bounded rounds through the change feed (CONTRIBUTING:
 * bulk work goes through the change feed). A blueprint's rule change puts its job (one per
 * blueprint: a later change restarts it under a new `job_id`); lib/checks/services/state-rule-consumer.ts
 * works it off, moving `cursor` and `round` on, then deletes it.
 */

const jobSchema = z.object({
  tenant_id: z.string(),
  blueprint_slug: z.string(),
  /** The rule as changed (the consumer applies the blueprint's rule as read, which a later change moves on). */
  rule: z.enum(STATE_RULES),
  job_id: z.string(),
  round: z.number().int(),
  /** Where the next round reads on (the store's cursor of the blueprint's entity list); absent: from the start. */
  cursor: z.string().optional(),
});
export type StateRuleJob = z.infer<typeof jobSchema>;

const jobs = defineItem({
  type: itemType('state_rule_job'),
  schema: jobSchema,
  key: (k: { tenant_id: string; blueprint_slug: string }) => ({
    pk: `RULEJOB#${k.tenant_id}`,
    sk: `BP#${k.blueprint_slug}`,
  }),
  docKey: { tenant_id: '<tnt>', blueprint_slug: '<bp_slug>' },
});

/** The `entity` of state rule jobs, for change-feed filters. */
export const STATE_RULE_JOB_ENTITY = jobs.type.entity;

/** The put of a blueprint's rule job (in the transaction of the rule change): it replaces an earlier one. */
export function stateRuleJobOp(job: Omit<StateRuleJob, 'round' | 'cursor'>): WriteOp {
  return jobs.put({ ...job, round: 0 });
}

/** Whether a stored item (a change-feed image) is a state rule job, and the job. */
export function parseStateRuleJob(item: Item): StateRuleJob | undefined {
  return jobs.is(item) ? jobs.parse(item) : undefined;
}

/** The job as stored now (consistent), or undefined once it is done. */
export function readStateRuleJob(table: Table, job: StateRuleJob): Promise<StateRuleJob | undefined> {
  return jobs.get(table, job, { consistent: true });
}

/** Holds while the job is this one at the round read. */
const sameRound = (job: StateRuleJob): Condition => ({
  kind: 'and',
  conditions: [
    { kind: 'compare', attr: 'job_id', op: '=', value: job.job_id },
    { kind: 'compare', attr: 'round', op: '=', value: job.round },
  ],
});

/** The update that hands the job to its next round after `cursor` (the MODIFY re-triggers the consumer). */
export function stateRuleJobNextOp(job: StateRuleJob, cursor: string): WriteOp {
  return jobs.update(job, { set: { cursor }, add: { round: 1 }, condition: sameRound(job) });
}

/** The delete of a finished job, held on its round. */
export function stateRuleJobDoneOp(job: StateRuleJob): WriteOp {
  return jobs.delete(job, sameRound(job));
}

/** The marker of the entity aggregates' migration (lib/checks/migration/aggregate-migration.ts). */
export const aggregatesMarker = migrationMarker('entity-state-rule', 'entities_moved');
