/**
 * lib/checks' face for what checks produce: states, results, 5-minute and daily rollups,
 * transitions. The reads take checks (ids or definitions) and hide where each one's results are
 * (a pull check's in its cell's slots, a push check's in its own items): no caller outside
 * lib/checks needs to know that cells exist. Definitions are read through check-items.ts. The
 * change feed's parts that keep them are here too (the state rule consumer, the purge of an
 * entity's checks), not in ./services.ts: the stream function runs them without loading the
 * services' request validation (RE2 among it).
 */

/** A deleted check's screenshots, deleted with its partition purge. */
export { purgeCheckArtifacts } from './artifacts/artifact-purge.ts';
/** When a result id's result was recorded (a slot's: its slot), as the results list sorts it. */
export { resultTimeMs } from './artifacts/artifact-store.ts';
export { parseStates, statesById } from './items/check-state-items.ts';
export { locationUptimeDays } from './items/location-uptime-items.ts';
/**
 * A push check's newest result kept for a plain success ping (the ping log's latest); its results'
 * stream and their parse (lib/push's runs read plain successes from it as runs of unknown duration).
 */
export { latestPingedResult, parseResult, resultsSource } from './items/result-items.ts';
export {
  checkTransitionsSource,
  filteredTransitionsPage,
  parseTransition,
  readEntityTransition,
  stateChangeEventOf,
  TRANSITION_ENTITY,
  type TransitionRecord,
  tenantTransitionItems,
  tenantTransitionsPage,
} from './items/transition-items.ts';
export { dayCountsOf, dayUptimeOf } from './results/check-recent.ts';
export { entityDailyChecks } from './results/daily-checks.ts';
export { checkBuckets, checkDailyRollups, type DailyCheck } from './results/day-rollups.ts';
export { type LatestResult, lastErrorOf, latestResultsOf } from './results/latest-results.ts';
/** Checks' states as the API shows them (a pull check's from its cell). */
export { shownCheckStates } from './results/shown-states.ts';
export { purgeEntityChecks } from './services/check-purge.ts';
export { createStateRuleConsumer } from './services/state-rule-consumer.ts';
