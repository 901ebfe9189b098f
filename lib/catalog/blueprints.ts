/**
 * The catalog's blueprints (its front door; blueprints/ is private): the blueprint items and store,
 * and the state-rule job a blueprint's rule change leaves for the change-feed consumer.
 */

export { getBlueprint, listBlueprints } from './blueprints/blueprint-items.ts';
export type { BlueprintStore } from './blueprints/blueprint-store.ts';
export { createBlueprintStore } from './blueprints/blueprint-store.ts';
export type { StateRuleJob } from './blueprints/state-rule-job-items.ts';
export {
  aggregatesMarker,
  parseStateRuleJob,
  readStateRuleJob,
  STATE_RULE_JOB_ENTITY,
  stateRuleJobDoneOp,
  stateRuleJobNextOp,
} from './blueprints/state-rule-job-items.ts';
