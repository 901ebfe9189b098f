/**
 * The actions' stored items as other folders use them (their front door; items/ is private): the
 * action and execution stores, the runner port MCP runs an action through, and the purge of a
 * deleted action's executions.
 */

export { purgeActionExecutions } from './items/action-purge.ts';
export type { ActionStore } from './items/action-store.ts';
export type { ExecutionStore } from './items/execution-store.ts';
export type { ActionRunner } from './items/ports.ts';
