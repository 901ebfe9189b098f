import * as z from 'zod';
import {
  type CheckConfig,
  checkConfigSchema,
  configSchemas,
  PUSH_MAX_INTERVAL_SECONDS,
  scheduleProblem,
} from '../check-types/check-config.ts';
import { checkNameSchema } from '../check-types/check-name.ts';
import { keptConfig, minIntervalSeconds } from '../check-types/config-view.ts';
import { CREATABLE_CHECK_TYPES, checkTypeDefinition } from '../check-types/registry.ts';
import { storedTrust, tlsTrustInputSchema } from '../check-types/tls-trust.ts';
import {
  assertionsInputSchema,
  degradedLatencySchema,
  type HttpAssertion,
} from '../domain/http-assertions.ts';
import { DEFAULT_LOCATION, locationsOf } from '../domain/states.ts';
import { issueSentence, unknownKeysSentence } from '../http/requests.ts';
import type { Runtime } from '../platform/config.ts';
import { ValidationError } from '../platform/errors.ts';
import type { CheckTlsTrust } from '../probes/types.ts';
import { DEFAULTS } from './definitions/check-defaults.ts';
import { httpHeaders, sloTarget, successThreshold } from './definitions/check-fields.ts';
import { updatedHeaders } from './definitions/check-headers-input.ts';
import {
  checkedLocations,
  checkLocationsInput,
  checkQuorumInput,
  type LocatedFields,
  pushLocationsInput,
} from './definitions/check-locations-input.ts';
import { httpUrl, writtenUrl } from './definitions/check-url-input.ts';
import { notHttp } from './definitions/not-http-fields.ts';
import { scheduleOwnsInterval } from './definitions/push-schedule.ts';
import { createdStatuses, statusesInput, updatedStatuses } from './definitions/statuses-input.ts';
import {
  CHECK_TYPES,
  type CheckRecord,
  type CheckType,
  HTTP_METHODS,
  type HttpRequestField,
} from './records.ts';

/** Request bodies of check create and update, and the per-type rules that apply to the merged result. */

const settable = z
  .object({
    name: checkNameSchema
      .nullable()
      .meta({ description: 'null: no name of its own, the derived one is shown (the default)' }),
    target_url: httpUrl.nullable(),
    method: z.enum(HTTP_METHODS),
    headers: httpHeaders,
    body: z
      .string()
      .max(64 * 1024)
      .nullable(),
    expected_status: z.number().int().min(100).max(599),
    expected_statuses: statusesInput,
    body_contains: z.string().max(1024),
    assertions: assertionsInputSchema,
    degraded_latency_ms: degradedLatencySchema,
    tls: tlsTrustInputSchema.nullable(),
    interval_seconds: z.number().int().min(1).max(86_400),
    timeout_ms: z.number().int().min(100).max(60_000),
    failure_threshold: z.number().int().min(1).max(100),
    success_threshold: successThreshold,
    slo_target: sloTarget.nullable(),
    enabled: z.boolean(),
    config: z.record(z.string(), z.unknown()),
    execution_mode: z.enum(['pull', 'push']),
    locations: checkLocationsInput,
    quorum: checkQuorumInput,
  })
  .partial().shape;

export { DEFAULTS };

const common = { entity_id: z.string().min(1) } as const;
const noTrust = (type: CheckType) =>
  checkTypeDefinition(type).tls ? {} : { tls: z.null({ error: noTrustSentence(type) }).optional() };
const noTrustSentence = (type: CheckType) =>
  `${type} checks take no tls: only ${CHECK_TYPES.filter((t) => checkTypeDefinition(t).tls).join(', ')} checks do.`;
/** Push checks may report as rarely as every 30 days; probed checks at most daily (scheduleProblem). */
const pushInterval = z.number().int().min(1).max(PUSH_MAX_INTERVAL_SECONDS).optional().meta({
  description: 'Seconds between reports (push checks, up to 30 days) or probes (others, up to 1 day)',
});
const { config: _config, execution_mode: _mode, target_url: _url, ...httpFields } = settable;

const httpVariant = z.strictObject({
  ...common,
  check_type: z.literal('http'),
  ...httpFields,
  target_url: httpUrl,
  config: configSchemas.http.optional(),
  execution_mode: z.literal('pull', { error: 'http checks use execution_mode "pull"' }).optional(),
});
const pushVariant = z.strictObject({
  ...common,
  check_type: z.literal('push'),
  ...httpFields,
  ...notHttp('push'),
  timeout_ms: z
    .literal(DEFAULTS.timeout_ms, { error: 'push checks are not probed' })
    .optional()
    .meta({ description: 'Push checks are not probed: leave it out' }),
  config: configSchemas.push.optional(),
  degraded_latency_ms: z.null({ error: 'push checks are not probed' }).optional(),
  execution_mode: z.literal('push', { error: 'push checks use execution_mode "push"' }).optional(),
  interval_seconds: pushInterval,
  locations: pushLocationsInput.optional(),
  ...noTrust('push'),
});
/** A type's fewest seconds between runs, stated in its create variant (update: scheduleProblem). */
const intervalFloor = (type: CheckType) => {
  const min = minIntervalSeconds(type);
  const error = `Enter ${min} or more: ${checkTypeDefinition(type).label} checks run at most once every ${min} seconds, because their servers limit how often they may be asked.`;
  return min > 1 ? { interval_seconds: z.number().int().min(min, { error }).max(86_400).optional() } : {};
};
/** A type configured by `config` alone: the common fields, none of http's, and its config. */
const configuredVariant = (type: CheckType) =>
  z.strictObject({
    ...common,
    check_type: z.literal(type),
    ...httpFields,
    ...intervalFloor(type),
    ...notHttp(type),
    config: configSchemas[type],
    ...noTrust(type),
  });
const createVariants = CREATABLE_CHECK_TYPES.map((type) => {
  const definition = checkTypeDefinition(type);
  if (!('kind' in definition)) return configuredVariant(type);
  return definition.kind === 'http' ? httpVariant : pushVariant;
});

/**
 * POST /v1/checks: one shape per check_type (a discriminated union, in the registry's order), so
 * the document says what each type takes: http checks a target_url; the others a config of their
 * type and none of the http fields; push checks no timeout (they are not probed) and
 * execution_mode "push".
 */
export const createCheckBody = z.discriminatedUnion(
  'check_type',
  createVariants as [(typeof createVariants)[number]],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `Choose one of: ${CREATABLE_CHECK_TYPES.slice(0, -1).join(', ')} or ${CREATABLE_CHECK_TYPES.at(-1)}.`
        : undefined,
  },
);
export type CreateCheckBody = z.infer<typeof createCheckBody>;

/** PUT /v1/checks/{id}: the fields given change; an empty body changes nothing and is refused. */
export const updateCheckBody = z
  .strictObject({ ...settable, interval_seconds: pushInterval })
  .meta({ minProperties: 1 });
export type UpdateCheckBody = z.infer<typeof updateCheckBody>;

/** The user-settable fields of a check besides its type and config. */
type SettableFields = LocatedFields & {
  name: string | null;
  tls: CheckTlsTrust | null;
  assertions: HttpAssertion[];
  degraded_latency_ms: number | null;
  success_threshold: number;
} & Pick<
    CheckRecord,
    | 'execution_mode'
    | HttpRequestField
    | 'interval_seconds'
    | 'timeout_ms'
    | 'failure_threshold'
    | 'enabled'
    | 'slo_target'
  >;

/** The user-settable definition of a check, after defaults, with its config parsed for its type. */
export type CheckDefinition = SettableFields & CheckConfig;

/** A definition as assembled from a body (and the stored check), before its config is parsed. */
type DraftDefinition = SettableFields & { check_type: CheckType; config: Record<string, unknown> };

const fail = (path: string, message: string): never => {
  throw ValidationError.field(path, message);
};

/** Applies the per-type rules to a complete definition; returns it with `config` parsed for its type. */
function validateDefinition(def: DraftDefinition): CheckDefinition {
  const mode = def.check_type === 'push' ? 'push' : 'pull';
  if (def.execution_mode !== mode) {
    fail('execution_mode', `${def.check_type} checks use execution_mode "${mode}"`);
  }
  if (def.check_type === 'http') {
    if (!def.target_url) fail('target_url', 'required for http checks');
  } else {
    if (def.target_url) fail('target_url', `not used by ${def.check_type} checks`);
    if (def.body !== null) fail('body', 'only http checks send a body');
    if (Object.keys(def.headers).length > 0) fail('headers', 'only http checks send headers');
    if (def.method !== 'GET') fail('method', 'only http checks have a method');
    if (def.body_contains !== '') fail('body_contains', 'only http checks read a body');
    if (def.assertions.length > 0) fail('assertions', 'only http checks assert');
    if (def.expected_status !== DEFAULTS.expected_status) {
      fail('expected_status', 'only http checks expect a status');
    }
    if (def.check_type === 'push' && def.timeout_ms !== DEFAULTS.timeout_ms) {
      fail('timeout_ms', 'push checks are not probed');
    }
    if (def.check_type === 'push' && def.degraded_latency_ms !== null) {
      fail('degraded_latency_ms', 'push checks are not probed');
    }
  }
  if (def.tls && !checkTypeDefinition(def.check_type).tls) fail('tls', noTrustSentence(def.check_type));
  const { check_type, config, ...fields } = def;
  const parsed = checkConfigSchema.safeParse({ check_type, config }, { error: issueSentence });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = [...(issue?.path ?? ['config'])];
    if (issue?.code === 'unrecognized_keys') path.push(issue.keys.join(','));
    const message = issue?.code === 'unrecognized_keys' ? unknownKeysSentence(issue.keys) : issue?.message;
    return fail(path.join('.'), message ?? 'This value is not valid.');
  }
  const schedule = scheduleProblem({ ...parsed.data, interval_seconds: fields.interval_seconds });
  if (schedule) fail(schedule.path, schedule.message);
  return checkedLocations({ ...fields, ...parsed.data });
}

/**
 * A definition from a create body: defaults filled, execution_mode derived, rules applied. A type
 * the runtime cannot run (ICMP in Lambda) is refused with its definition's sentence.
 */
export function definitionFromCreate(body: CreateCheckBody, runtime?: Runtime): CheckDefinition {
  const unsupported = runtime ? checkTypeDefinition(body.check_type).unsupported?.[runtime] : undefined;
  if (unsupported) fail('check_type', unsupported);
  const execution_mode = body.execution_mode ?? (body.check_type === 'push' ? 'push' : 'pull');
  const def = validateDefinition({
    check_type: body.check_type,
    name: body.name ?? null,
    execution_mode,
    target_url: writtenUrl(body.target_url ?? null, null),
    method: body.method ?? DEFAULTS.method,
    headers: body.headers ?? DEFAULTS.headers,
    body: body.body ?? DEFAULTS.body,
    ...createdStatuses(body.check_type, body.expected_status, body.expected_statuses ?? null),
    body_contains: body.body_contains ?? DEFAULTS.body_contains,
    assertions: body.assertions ?? DEFAULTS.assertions,
    degraded_latency_ms: body.degraded_latency_ms ?? DEFAULTS.degraded_latency_ms,
    tls: storedTrust(body.tls),
    interval_seconds:
      body.interval_seconds ?? Math.max(DEFAULTS.interval_seconds, minIntervalSeconds(body.check_type)),
    timeout_ms: body.timeout_ms ?? DEFAULTS.timeout_ms,
    failure_threshold: body.failure_threshold ?? DEFAULTS.failure_threshold,
    success_threshold: body.success_threshold ?? DEFAULTS.success_threshold,
    slo_target: body.slo_target ?? null,
    enabled: body.enabled ?? DEFAULTS.enabled,
    locations: body.locations ?? [DEFAULT_LOCATION],
    quorum: body.quorum ?? null,
    config: keptConfig(body.check_type, body.config ?? DEFAULTS.config, undefined),
  });
  return scheduleOwnsInterval(body.interval_seconds, def);
}

/**
 * A definition from a partial update: only supplied fields change; stored header values are kept
 * by `********` only while the request goes where it went (lib/checks/check-headers-input.ts).
 */
export function definitionFromUpdate(current: CheckRecord, patch: UpdateCheckBody): CheckDefinition {
  const target_url =
    patch.target_url !== undefined ? writtenUrl(patch.target_url, current.target_url) : current.target_url;
  const headers = updatedHeaders(current, patch, target_url);
  const def = validateDefinition({
    check_type: current.check_type,
    name: patch.name !== undefined ? patch.name : (current.name ?? null),
    execution_mode: patch.execution_mode ?? current.execution_mode,
    target_url,
    method: patch.method ?? current.method,
    headers,
    body: patch.body !== undefined ? patch.body : current.body,
    ...updatedStatuses(current, patch),
    body_contains: patch.body_contains ?? current.body_contains,
    assertions: patch.assertions ?? current.assertions ?? DEFAULTS.assertions,
    degraded_latency_ms:
      patch.degraded_latency_ms !== undefined
        ? patch.degraded_latency_ms
        : (current.degraded_latency_ms ?? null),
    tls: patch.tls !== undefined ? storedTrust(patch.tls) : (current.tls ?? null),
    interval_seconds: patch.interval_seconds ?? current.interval_seconds,
    timeout_ms: patch.timeout_ms ?? current.timeout_ms,
    failure_threshold: patch.failure_threshold ?? current.failure_threshold,
    success_threshold: patch.success_threshold ?? current.success_threshold ?? DEFAULTS.success_threshold,
    slo_target: patch.slo_target !== undefined ? patch.slo_target : (current.slo_target ?? null),
    enabled: patch.enabled ?? current.enabled,
    locations: patch.locations ?? [...locationsOf(current)],
    quorum: patch.quorum !== undefined ? patch.quorum : (current.quorum ?? null),
    config: patch.config ? keptConfig(current.check_type, patch.config, current.config) : current.config,
  });
  return scheduleOwnsInterval(patch.interval_seconds, def);
}
