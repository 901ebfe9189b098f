import { getTenant } from '../../auth/records.ts';
import {
  getBlueprint,
  parseStateRuleJob,
  readStateRuleJob,
  type StateRuleJob,
  stateRuleJobDoneOp,
  stateRuleJobNextOp,
} from '../../catalog/blueprints.ts';
import { entityListSource, parseEntityState, readEntityListChunk } from '../../catalog/entities.ts';
import { DEFAULT_STATE_RULE } from '../../domain/states.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ChangeConsumer } from '../../store/change-feed.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { applyStateRule } from '../definitions/entity-restate.ts';

/**
 * Works off a blueprint's state rule job (lib/catalog/blueprints/state-rule-job-items.ts) in bounded rounds:
 * each round applies the blueprint's rule, as read, to the next entities of the blueprint that have
 * no rule of their own (one transaction each: the rule and, when it moves, the state with its
 * transition), then moves the job on or deletes it. Idempotent: an entity already at the rule is
 * not written, and a redelivered image of a round the job has left is ignored.
 */

/** Entities read (and at most written, one transaction each) per round. */
const ENTITIES_PER_ROUND = 25;

async function runRound(deps: { table: Table; clock: Clock; logger: Logger }, image: StateRuleJob) {
  const { table } = deps;
  const job = await readStateRuleJob(table, image);
  if (!job || job.job_id !== image.job_id || job.round !== image.round) return;
  const [bp, tenant] = await Promise.all([
    getBlueprint(table, job.tenant_id, job.blueprint_slug),
    getTenant(table, job.tenant_id),
  ]);
  const page =
    bp && tenant
      ? await readEntityListChunk(table, entityListSource(job.tenant_id, job.blueprint_slug), {
          limit: ENTITIES_PER_ROUND,
          cursor: job.cursor,
        })
      : { items: [], cursor: undefined };
  let moved = 0;
  for (const item of page.items) {
    const entity = parseEntityState(item);
    const outcome = await applyStateRule(deps, {
      tenantId: job.tenant_id,
      bpSlug: entity.blueprint_slug,
      slug: entity.slug,
      ruleOf: (e) => e.state_rule ?? bp?.state_rule ?? DEFAULT_STATE_RULE,
      nowMs: deps.clock.now(),
      retentionDays: tenant?.retention_days ?? 1,
    });
    if (outcome === 'moved') moved += 1;
  }
  try {
    if (page.cursor) await table.transact([stateRuleJobNextOp(job, page.cursor)]);
    else await table.transact([stateRuleJobDoneOp(job)]);
  } catch (err) {
    // A later change restarted the job, or another delivery moved it on first.
    if (!(err instanceof ConditionFailedError)) throw err;
  }
  deps.logger.info('state rule round', {
    tenant_id: job.tenant_id,
    blueprint: job.blueprint_slug,
    round: job.round,
    entities: page.items.length,
    moved,
  });
}

/** The change-feed consumer of state rule jobs (INSERT and MODIFY of `state_rule_job` items). */
export function createStateRuleConsumer(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
}): ChangeConsumer {
  return async (changes) => {
    // One round per job per batch: older images of the same job in this batch are superseded.
    const jobs = new Map<string, StateRuleJob>();
    for (const change of changes) {
      const job =
        change.eventName === 'REMOVE' || !change.newImage ? undefined : parseStateRuleJob(change.newImage);
      if (job) jobs.set(`${job.tenant_id}/${job.blueprint_slug}`, job);
    }
    for (const job of jobs.values()) await runRound(deps, job);
  };
}
