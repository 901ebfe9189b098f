import { z } from 'zod';
import { currentRollupSchema } from './rollups.ts';

/** Stored shapes of the checks engine's items, parsed on every read, and their public views. */

export const CHECK_TYPES = ['http', 'tcp', 'tls', 'dns', 'push'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;
export const REDACTED = '********';

const checkState = z.enum(['unknown', 'up', 'down']);

export const checkSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  entity_id: z.string(),
  blueprint_slug: z.string(),
  entity_slug: z.string(),
  check_type: z.enum(CHECK_TYPES),
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
  config: z.record(z.string(), z.unknown()),
  state: checkState,
  consecutive_failures: z.number().int(),
  last_result_at: z.string().nullable(),
  /** Push checks: when the agent last reported (synthetic results do not count). */
  last_push_at: z.string().nullable().optional(),
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
  /** The results of the check's latest 5-minute bucket (lib/checks/rollups.ts); internal. */
  current_rollup: currentRollupSchema.optional(),
});
export type CheckRecord = z.infer<typeof checkSchema>;

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
  check_id: z.string(),
  from_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  to_state: z.enum(['unknown', 'up', 'down', 'degraded']),
  reason: z.string(),
  created_at: z.string(),
});
export type TransitionRecord = z.infer<typeof transitionSchema>;

/** The check as returned: internal keys out, header values redacted. */
export function publicCheck(check: CheckRecord) {
  const {
    tenant_id: _t,
    blueprint_slug: _b,
    entity_slug: _e,
    version: _v,
    last_push_at: _p,
    current_rollup: _r,
    headers,
    ...rest
  } = check;
  return {
    ...rest,
    headers: Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED])),
  };
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
    check_id: t.check_id,
    from_state: t.from_state,
    to_state: t.to_state,
    reason: t.reason,
    created_at: t.created_at,
  };
}
