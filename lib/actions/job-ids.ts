import { deterministicId } from '../platform/ids.ts';

/** The action queue's job and execution ids (the scheme jobs.ts describes): a redelivery finds the same ones. */

/** The `state_change` job of a transition. */
export const stateChangeJobId = (transitionId: string) => `chg:${transitionId}`;

/** The `run` job of an execution. */
export const runJobId = (executionId: string) => `run:${executionId}`;

/** The `deadline` job of an execution, first enqueued at dispatch. */
export const deadlineJobId = (executionId: string) => `ddl:${executionId}`;

/** A later hop of the deadline wait, named by the second it lands (the running job still holds the first id). */
export const deadlineHopJobId = (executionId: string, landsMs: number) =>
  `${deadlineJobId(executionId)}:hop:${Math.ceil(landsMs / 1000)}`;

/** The execution of `actionId` fired by a transition: one per (transition, action), timed by the event. */
export function stateChangeExecutionId(eventTimeMs: number, transitionId: string, actionId: string): string {
  return deterministicId('exe', eventTimeMs, transitionId + actionId);
}

/** The execution of a scheduled action's slot: one per (action, slot), whoever claims it. */
export function scheduleExecutionId(actionId: string, slotMs: number): string {
  return deterministicId('exe', slotMs, `${actionId}@${slotMs}`);
}
