import { checkNameOf } from '../check-types/check-name.ts';
import type { CheckRecord } from '../check-types/check-record.ts';
import { presentConfig } from '../check-types/config-view.ts';
import { checkTypeDefinition } from '../check-types/registry.ts';
import { REDACTED, redactUrl } from '../domain/redaction.ts';
import { locationsOf, probesFromLocations, quorumOf } from '../domain/states.ts';
import type { ResultRecord } from './items/result-items.ts';
import type { TransitionRecord } from './items/transition-items.ts';

/** The public views of the checks engine's records (their stored shapes: lib/check-types/check-record.ts and the owner modules). */

export { CHECK_TYPES, type CheckType, HTTP_METHODS } from '../check-types/check-config.ts';
export {
  type CheckDefinitionRecord,
  type CheckRecord,
  type CheckStateRecord,
  checkDefinitionSchema,
  checkRecordFieldsSchema,
} from '../check-types/check-record.ts';

/** An http check's request and what it expects of the answer: top-level fields, unused by other types. */
export type HttpRequestField =
  | 'target_url'
  | 'method'
  | 'headers'
  | 'body'
  | 'expected_status'
  | 'expected_statuses'
  | 'body_contains';
export { type ResultRecord, resultSchema } from './items/result-items.ts';
export { stateChangeEvent, type TransitionRecord, transitionSchema } from './items/transition-items.ts';

export { REDACTED };

/**
 * The check as returned: internal keys out, and only the fields its type uses. http checks show
 * their request (header values redacted; for read-only keys the target URL's credentials and
 * secret-looking query values too) and expectations; tcp, tls and dns checks their config and
 * probe timeout; push checks, which are never probed, only their config. The entity's name is
 * shown when the caller read it (the check routes do).
 */
export function publicCheck(check: CheckRecord & { entity_name?: string }, options: { readOnly: boolean }) {
  const common = {
    id: check.id,
    name: checkNameOf(check),
    name_is_default: (check.name ?? null) === null,
    entity_id: check.entity_id,
    blueprint_slug: check.blueprint_slug,
    entity_slug: check.entity_slug,
    ...(check.entity_name === undefined ? {} : { entity_name: check.entity_name }),
    execution_mode: check.execution_mode,
    interval_seconds: check.interval_seconds,
    failure_threshold: check.failure_threshold,
    success_threshold: check.success_threshold ?? 1,
    slo_target: check.slo_target ?? null,
    enabled: check.enabled,
    locations: [...locationsOf(check)],
    quorum: quorumOf(check),
    state: check.state,
    consecutive_failures: check.consecutive_failures,
    last_result_at: check.last_result_at,
    next_run_at: check.next_run_at,
    // Each location's part in the last decided slot: a located check's, once one was decided.
    ...(check.last_locations && probesFromLocations(check) ? { last_locations: check.last_locations } : {}),
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
        expected_statuses: check.expected_statuses ?? null,
        body_contains: check.body_contains,
        assertions: check.assertions ?? [],
        timeout_ms: check.timeout_ms,
        degraded_latency_ms: check.degraded_latency_ms ?? null,
        tls: check.tls ?? null,
      };
    case 'push':
    case 'outside':
      return { check_type: check.check_type, ...common, config: check.config };
    default:
      return {
        check_type: check.check_type,
        ...common,
        config: presentConfig(check.check_type, check.config, options),
        timeout_ms: check.timeout_ms,
        degraded_latency_ms: check.degraded_latency_ms ?? null,
        ...(checkTypeDefinition(check.check_type).tls ? { tls: check.tls ?? null } : {}),
      };
  }
}

/**
 * What a result says of its check: down (failed), degraded (a degraded success), up, or
 * inconclusive (a located slot too few locations reported to decide: neither up nor down).
 */
export function resultOutcome(
  result: Pick<ResultRecord, 'success' | 'degraded' | 'inconclusive'>,
): 'up' | 'degraded' | 'down' | 'inconclusive' {
  if (result.inconclusive) return 'inconclusive';
  if (!result.success) return 'down';
  return result.degraded ? 'degraded' : 'up';
}

/** A result as returned. */
export function publicResult(result: ResultRecord) {
  return {
    id: result.id,
    check_id: result.check_id,
    status_code: result.status_code,
    latency_ms: result.latency_ms,
    success: result.success,
    ...(result.success && result.degraded ? { degraded: true as const } : {}),
    outcome: resultOutcome(result),
    error_message: result.error_message,
    checked_at: result.checked_at,
    ...(result.synthetic ? { synthetic: true } : {}),
    ...(result.details ? { details: result.details } : {}),
    ...(result.locations ? { locations: result.locations } : {}),
    ...(result.inconclusive ? { inconclusive: true as const } : {}),
    ...(result.manual ? { manual: true as const } : {}),
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
