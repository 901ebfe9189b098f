/**
 * lib/checks' face for the compositions (lib/app.ts, the features' compose files, lib/migrations.ts, the
 * CLI) and the features that call the checks engine: its services and the one-off migrations of
 * stored items. The change feed's consumer and purge are behind ./results.ts.
 */
export type { CheckStore } from './definitions/check-store.ts';
export { ruleChangeOps } from './definitions/entity-restate.ts';
export { migrateEntityAggregates } from './migration/aggregate-migration.ts';
export { migrateChecksToCells } from './migration/cell-migration.ts';
export { migrateCheckItems } from './migration/check-migration.ts';
export { migrateStatePartitions } from './migration/state-partition-migration.ts';
export type { CheckService } from './services/check-service.ts';
/** POST /v1/checks/run-draft: a check not saved yet, probed once (the console editor's Run now). */
export { createDraftRun } from './services/draft-run.ts';
/** The check service as the compositions build it: create and update refuse unknown locations. */
export { createLocatedCheckService as createCheckService } from './services/located-check-service.ts';
/** Outside checks: an integration's alerts on an entity, made and written by lib/integrations. */
export { createOutsideChecks } from './services/outside-checks.ts';
export type { ProbeSoon } from './services/probe-soon.ts';
export { type CheckReadService, createCheckReadService } from './services/read-service.ts';
