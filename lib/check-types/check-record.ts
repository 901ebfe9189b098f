import * as z from 'zod';
import { storedAssertionSchema, storedExpectedStatusesSchema } from '../domain/assertions.ts';
import { currentRollupSchema } from '../domain/rollups.ts';
import { type CheckConfig, HTTP_METHODS, storedCheckConfigSchema } from './check-config.ts';
import { storedTlsTrustSchema } from './tls-trust.ts';

/**
 * The stored shapes of a check (docs/data-model.md "Checks"): its definition, written only by the
 * API, and its running state, written by claims and results; and the check as the service works
 * with it, the two joined. lib/checks/check-items.ts stores them.
 */

const checkState = z.enum(['unknown', 'up', 'down', 'degraded']);

/**
 * One location's part in a decided slot of a located check (lib/domain/states/quorum.ts
 * LocationOutcome), as results and the check's state store it.
 */
export const locationOutcomeSchema = z.object({
  location: z.string(),
  outcome: z.enum(['up', 'degraded', 'down', 'unknown']),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int().nullable(),
  error_message: z.string(),
});

/** The definition's fields besides `check_type` and `config` (typed together: lib/check-types/check-config.ts). */
export const checkFieldsSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  entity_id: z.string(),
  blueprint_slug: z.string(),
  entity_slug: z.string(),
  /** The name the user gave; null or absent (checks older than names): derived on read (check-name.ts). */
  name: z.string().nullable().optional(),
  /**
   * Where an enabled pull check runs: its cell (lib/checks/cells/cell-items.ts) and the cell's due shard.
   * Absent on push checks, disabled checks, and checks stored before cells.
   */
  cell: z
    .object({ cell_id: z.string(), shard: z.number().int().min(0) })
    .nullable()
    .optional(),
  /**
   * The cells the check left (disabled, moved to another interval, switched to push), newest first,
   * each with its interval and when it left (ISO): its results there stay readable until they expire. Entries older
   * than the tenant's retention are dropped when one is added.
   */
  former_cells: z
    .array(
      z.object({
        cell_id: z.string(),
        shard: z.number().int().min(0),
        /** The cell's interval (the check's own may have changed since). */
        interval_seconds: z.number().int(),
        until: z.string(),
      }),
    )
    .optional(),
  execution_mode: z.enum(['pull', 'push']),
  target_url: z.string().nullable(),
  method: z.enum(HTTP_METHODS),
  headers: z.record(z.string(), z.string()),
  body: z.string().nullable(),
  expected_status: z.number().int(),
  /** http: accepted codes and ranges (lib/domain/assertions/http-statuses.ts); absent or null: exactly expected_status. */
  expected_statuses: storedExpectedStatusesSchema.nullable().optional(),
  body_contains: z.string(),
  /** http: what the response must also satisfy (lib/domain/http-assertions.ts); absent on checks without any. */
  assertions: z.array(storedAssertionSchema).optional(),
  /** A success slower than this is degraded; absent or null: never (pull checks). */
  degraded_latency_ms: z.number().int().nullable().optional(),
  /** http, tls, grpc: this check's own TLS trust (lib/check-types/tls-trust.ts); absent or null: none. */
  tls: storedTlsTrustSchema.nullable().optional(),
  interval_seconds: z.number().int(),
  timeout_ms: z.number().int(),
  failure_threshold: z.number().int(),
  /** Successes in a row a down or degraded check needs to recover (issue 35); absent before it: 1. */
  success_threshold: z.number().int().optional(),
  /** The uptime objective (0 < t < 1), or null/absent: none (GET .../uptime's error budget). */
  slo_target: z.number().nullable().optional(),
  enabled: z.boolean(),
  /**
   * Pull checks: where they are probed (location names, lib/domain/states/quorum.ts); absent (checks
   * before locations) or `["default"]`: the runtime's own workers, in a cell.
   */
  locations: z.array(z.string()).optional(),
  /** How many locations must report failure for the slot to fail; null or absent: the default (quorum.ts). */
  quorum: z.number().int().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The definition's version: every API write bumps it. */
  version: z.number().int(),
});

/** The stored definition item: its fields and its type-specific config. */
export const checkDefinitionSchema = checkFieldsSchema.and(storedCheckConfigSchema);
export type CheckDefinitionRecord = z.infer<typeof checkFieldsSchema> & CheckConfig;

/** What the state machine, the scheduler and the results keep of a check. */
const runningStateShape = {
  state: checkState,
  consecutive_failures: z.number().int(),
  /** Successes in a row while down or degraded (success_threshold); absent before issue 35: 0. */
  consecutive_successes: z.number().int().optional(),
  last_result_at: z.string().nullable(),
  /** Push checks: when the agent last reported (synthetic results do not count). */
  last_push_at: z.string().nullable().optional(),
  /** Push checks: a /start not yet followed by the run's end (lib/domain/schedules/heartbeat.ts). */
  run_started_at: z.string().nullable().optional(),
  /** Push checks: the started run's latest sign of life (a /log), for keepalive_seconds. */
  run_seen_at: z.string().nullable().optional(),
  /** The next slot (pull) or deadline (push); null while not scheduled. The due index keys on it. */
  next_run_at: z.string().nullable(),
  /** The results of the check's latest 5-minute bucket (lib/domain/rollups/rollup-bucket.ts); internal. */
  current_rollup: currentRollupSchema.optional(),
  /** A located check: each location's part in its last decided slot (lib/domain/states/quorum.ts). */
  last_locations: z.array(locationOutcomeSchema).optional(),
};

/** The stored state item. It repeats what a claim needs of the definition, so a claim reads nothing else. */
export const checkStateSchema = z.object({
  check_id: z.string(),
  tenant_id: z.string(),
  execution_mode: z.enum(['pull', 'push']),
  interval_seconds: z.number().int(),
  /** The definition's `version`, written with it: a run reads the state and reuses a cached definition of that version. */
  definition_version: z.number().int(),
  ...runningStateShape,
  /** The state item's version: results and API writes bump it; claims do not (they hold on next_run_at). */
  version: z.number().int(),
});
export type CheckStateRecord = z.infer<typeof checkStateSchema>;

/** A check as the service works with it, besides `check_type` and `config`: its definition's fields and its state. */
export const checkRecordFieldsSchema = checkFieldsSchema.extend({
  ...runningStateShape,
  /** The state item's version (results are optimistic on it). */
  state_version: z.number().int(),
});
export type CheckRecord = z.infer<typeof checkRecordFieldsSchema> & CheckConfig;

/** A check's definition (what the API sets) and its running state (what claims and results write). */
export function splitCheck(check: CheckRecord): {
  definition: CheckDefinitionRecord;
  state: CheckStateRecord;
} {
  const {
    state,
    consecutive_failures,
    consecutive_successes,
    last_result_at,
    last_push_at,
    run_started_at,
    run_seen_at,
    next_run_at,
    current_rollup,
    last_locations,
    state_version,
    ...definition
  } = check;
  return {
    definition,
    state: {
      check_id: check.id,
      tenant_id: check.tenant_id,
      execution_mode: check.execution_mode,
      interval_seconds: check.interval_seconds,
      definition_version: check.version,
      state,
      consecutive_failures,
      ...(consecutive_successes ? { consecutive_successes } : {}),
      last_result_at,
      ...(last_push_at !== undefined ? { last_push_at } : {}),
      ...(run_started_at ? { run_started_at } : {}),
      ...(run_seen_at ? { run_seen_at } : {}),
      next_run_at,
      ...(current_rollup ? { current_rollup } : {}),
      ...(last_locations ? { last_locations } : {}),
      version: state_version,
    },
  };
}

/** The check read back from its two items. */
export function joinCheck(definition: CheckDefinitionRecord, state: CheckStateRecord): CheckRecord {
  return {
    ...definition,
    state: state.state,
    consecutive_failures: state.consecutive_failures,
    ...(state.consecutive_successes ? { consecutive_successes: state.consecutive_successes } : {}),
    last_result_at: state.last_result_at,
    ...(state.last_push_at !== undefined ? { last_push_at: state.last_push_at } : {}),
    ...(state.run_started_at ? { run_started_at: state.run_started_at } : {}),
    ...(state.run_seen_at ? { run_seen_at: state.run_seen_at } : {}),
    next_run_at: state.next_run_at,
    ...(state.current_rollup ? { current_rollup: state.current_rollup } : {}),
    ...(state.last_locations ? { last_locations: state.last_locations } : {}),
    state_version: state.version,
  };
}
