import { z } from 'zod';
import { redactUrl } from '../domain/url-redaction.ts';
import { type CheckConfig, storedCheckConfigSchema } from './check-config.ts';
import { checkNameOf } from './check-name.ts';
import { currentRollupSchema } from './rollups.ts';

/** Stored shapes of the checks engine's items, parsed on every read, and their public views. */

export const CHECK_TYPES = ['http', 'tcp', 'tls', 'dns', 'push'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const REDACTED = '********';

const checkState = z.enum(['unknown', 'up', 'down']);

/**
 * A check is stored as two items in its tenant's partition (docs/data-model.md): the definition
 * (`CHECK#<id>`), written only by the API, and its running state (`CHECK#<id>#STATE`), written by
 * every claim and every result. A probe rewrites the small state item, never the definition.
 * These are the definition's fields besides `check_type` and `config` (typed together: check-config.ts).
 */
export const checkFieldsSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  entity_id: z.string(),
  blueprint_slug: z.string(),
  entity_slug: z.string(),
  /** The name the user gave; null or absent (checks older than names): derived on read (check-name.ts). */
  name: z.string().nullable().optional(),
  execution_mode: z.enum(['pull', 'push']),
  target_url: z.string().nullable(),
  method: z.enum(HTTP_METHODS),
  headers: z.record(z.string(), z.string()),
  body: z.string().nullable(),
  expected_status: z.number().int(),
  body_contains: z.string(),
  interval_seconds: z.number().int(),
  timeout_ms: z.number().int(),
  failure_threshold: z.number().int(),
  enabled: z.boolean(),
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
  last_result_at: z.string().nullable(),
  /** Push checks: when the agent last reported (synthetic results do not count). */
  last_push_at: z.string().nullable().optional(),
  /** The next slot (pull) or deadline (push); null while not scheduled. The due index keys on it. */
  next_run_at: z.string().nullable(),
  /** The results of the check's latest 5-minute bucket (lib/checks/rollups.ts); internal. */
  current_rollup: currentRollupSchema.optional(),
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

export const resultSchema = z.object({
  id: z.string(),
  check_id: z.string(),
  status_code: z.number().int(),
  latency_ms: z.number().int(),
  success: z.boolean(),
  error_message: z.string(),
  checked_at: z.string(),
  /** Recorded by the service (dead man's switch) rather than probed or pushed. */
  synthetic: z.boolean().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ResultRecord = z.infer<typeof resultSchema>;

export const transitionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  kind: z.enum(['check', 'entity']),
  entity_id: z.string(),
  entity_name: z.string(),
  /** The entity's address (absent on transitions recorded before it was kept). */
  blueprint_slug: z.string().optional(),
  entity_slug: z.string().optional(),
  check_id: z.string(),
  from_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  to_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  reason: z.string(),
  created_at: z.string(),
});
export type TransitionRecord = z.infer<typeof transitionSchema>;

/**
 * The check as returned: internal keys out, and only the fields its type uses. http checks show
 * their request (header values redacted; for read-only keys the target URL's credentials and
 * secret-looking query values too) and expectations; tcp, tls and dns checks their config and
 * probe timeout; push checks, which are never probed, only their config.
 */
export function publicCheck(check: CheckRecord, options: { readOnly: boolean }) {
  const common = {
    id: check.id,
    name: checkNameOf(check),
    name_is_default: (check.name ?? null) === null,
    entity_id: check.entity_id,
    blueprint_slug: check.blueprint_slug,
    entity_slug: check.entity_slug,
    execution_mode: check.execution_mode,
    interval_seconds: check.interval_seconds,
    failure_threshold: check.failure_threshold,
    enabled: check.enabled,
    state: check.state,
    consecutive_failures: check.consecutive_failures,
    last_result_at: check.last_result_at,
    next_run_at: check.next_run_at,
    created_at: check.created_at,
    updated_at: check.updated_at,
  };
  switch (check.check_type) {
    case 'http':
      return {
        check_type: check.check_type,
        ...common,
        target_url:
          options.readOnly && check.target_url !== null ? redactUrl(check.target_url) : check.target_url,
        method: check.method,
        headers: Object.fromEntries(Object.keys(check.headers).map((name) => [name, REDACTED])),
        body: check.body,
        expected_status: check.expected_status,
        body_contains: check.body_contains,
        timeout_ms: check.timeout_ms,
      };
    case 'push':
      return { check_type: check.check_type, ...common, config: check.config };
    default:
      return { check_type: check.check_type, ...common, config: check.config, timeout_ms: check.timeout_ms };
  }
}

/** A result as returned. */
export function publicResult(result: ResultRecord) {
  return {
    id: result.id,
    check_id: result.check_id,
    status_code: result.status_code,
    latency_ms: result.latency_ms,
    success: result.success,
    error_message: result.error_message,
    checked_at: result.checked_at,
    ...(result.synthetic ? { synthetic: true } : {}),
    ...(result.details ? { details: result.details } : {}),
  };
}

/** A transition as returned. */
export function publicTransition(t: TransitionRecord) {
  return {
    id: t.id,
    kind: t.kind,
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    ...(t.blueprint_slug && t.entity_slug
      ? { blueprint_slug: t.blueprint_slug, entity_slug: t.entity_slug }
      : {}),
    check_id: t.check_id,
    from_state: t.from_state,
    to_state: t.to_state,
    reason: t.reason,
    created_at: t.created_at,
  };
}

/** The state-change event of SPEC.md "Events" for an entity transition: what streams, webhooks, NATS and the bus carry. */
export function stateChangeEvent(t: TransitionRecord) {
  return {
    entity_id: t.entity_id,
    entity_name: t.entity_name,
    check_id: t.check_id,
    tenant_id: t.tenant_id,
    from_state: t.from_state,
    to_state: t.to_state,
    transition_id: t.id,
    timestamp: t.created_at,
  };
}
