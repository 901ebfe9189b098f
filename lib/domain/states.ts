/**
 * The domain's states (its front door; the files behind it in states/ are private): a check's state
 * machine and its flap damping, a cell's decided slot, a located check's quorum, an entity's state
 * from its checks' and the state-change event they emit; an outside alert's severities.
 */

export { ALERT_SEVERITIES, type AlertSeverity } from './states/alert-severity.ts';
export type { MemberTransition } from './states/cell-state.ts';
export { evaluateCellSlot } from './states/cell-state.ts';
export type { CheckState, CheckStateSnapshot, State } from './states/check-state.ts';
export { applyResult, sameSnapshot } from './states/check-state.ts';
export type { StateRule } from './states/entity-state.ts';
export {
  aggregateEntityState,
  causingCheck,
  DEFAULT_STATE_RULE,
  STATE_RULES,
} from './states/entity-state.ts';
export type { FlapHistory, FlapPolicy } from './states/flap.ts';
export { applyFlapChange, settleFlap } from './states/flap.ts';
export type { LocationOutcome } from './states/quorum.ts';
export {
  DEFAULT_LOCATION,
  decideSlot,
  defaultQuorum,
  locationsOf,
  MAX_CHECK_LOCATIONS,
  probesFromLocations,
  quorumOf,
  slotDeadlineMs,
  withLateReport,
} from './states/quorum.ts';
export type { StateChangeEvent } from './states/state-change-event.ts';
export { changeOrder, isRecovery, stateChangeEventSchema } from './states/state-change-event.ts';
