import * as z from 'zod';
import { configSchemas } from '../check-types/check-config.ts';
import { locationOutcomeSchema } from '../check-types/check-record.ts';
import { configViewSchema } from '../check-types/config-view.ts';
import { checkTypeDefinition } from '../check-types/registry.ts';
import { publicTlsTrustSchema } from '../check-types/tls-trust.ts';
import { storedAssertionSchema, storedExpectedStatusesSchema } from '../domain/assertions.ts';
import { degradedLatencySchema } from '../domain/http-assertions.ts';
import { REDACTED } from '../domain/redaction.ts';
import { MAX_CHECK_LOCATIONS } from '../domain/states.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import {
  CHECK_TYPES,
  type CheckType,
  checkRecordFieldsSchema,
  resultSchema,
  transitionSchema,
} from './records.ts';
import { recentSchema } from './results/check-recent.ts';
import {
  resultArtifactsSchema,
  resultOutsideAlertSchema,
  resultStepsSchema,
  resultTraceLeftOutSchema,
  resultVitalsSchema,
} from './results/result-step-schemas.ts';

/** Response bodies of the check routes: publicCheck, publicResult and publicTransition as schemas. */

const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` for the next page; null on the last page' });

/** One location's part in a decided slot of a located check (lib/domain/states/quorum.ts). */
const locationOutcome = locationOutcomeSchema
  .extend({
    outcome: locationOutcomeSchema.shape.outcome.meta({
      description: 'unknown: the location did not report by the slot deadline (never counts as a failure)',
    }),
    status_code: locationOutcomeSchema.shape.status_code.meta({ description: 'null when unknown' }),
    latency_ms: locationOutcomeSchema.shape.latency_ms.meta({ description: 'null when unknown' }),
  })
  .meta({ id: 'LocationOutcome' });

/** The fields every check type returns (publicCheck), with check_type as the discriminator. */
export const checkCommonSchema = z.strictObject({
  id: idSchema('chk'),
  name: z.string().meta({
    description:
      'The name given on create or update; without one, derived from the type and target on every read ("HTTP GET api.example.com/health")',
  }),
  name_is_default: z
    .boolean()
    .meta({ description: 'true when no name was given and `name` is the derived one' }),
  entity_id: idSchema('ent'),
  blueprint_slug: z.string().meta({ description: "The entity's blueprint (with entity_slug: its address)" }),
  entity_slug: z.string(),
  entity_name: z
    .string()
    .optional()
    .meta({ description: "The entity's name (every answer of the /v1/checks routes carries it)" }),
  check_type: z.enum(CHECK_TYPES),
  ...checkRecordFieldsSchema.pick({
    execution_mode: true,
    interval_seconds: true,
    failure_threshold: true,
    enabled: true,
    state: true,
    consecutive_failures: true,
  }).shape,
  success_threshold: z
    .number()
    .int()
    .meta({ description: 'Consecutive successes a down or degraded check needs to recover (1 to 10)' }),
  slo_target: z
    .number()
    .gt(0)
    .lt(1)
    .nullable()
    .meta({ description: 'The uptime objective (GET /v1/checks/{id}/uptime), or null' }),
  locations: z.array(z.string()).min(1).max(MAX_CHECK_LOCATIONS).meta({
    description: 'Where the check probes from: location names; ["default"]: the runtime\'s own workers',
  }),
  quorum: z.number().int().min(1).max(MAX_CHECK_LOCATIONS).meta({
    description:
      'How many locations must report failure for a slot to fail: the one set, else the default (1 with one location, a majority with several)',
  }),
  last_locations: z.array(locationOutcome).optional().meta({
    description:
      'A located check (locations other than ["default"]): each location\'s part in its last decided slot; absent before the first',
  }),
  last_result_at: timestampSchema.nullable(),
  next_run_at: timestampSchema.nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  recent: recentSchema.optional(),
});

const probeTimeout = checkRecordFieldsSchema.shape.timeout_ms.meta({
  description: 'How long a probe may take (ms)',
});
const degradedLatency = { degraded_latency_ms: degradedLatencySchema };

const httpCheckSchema = checkCommonSchema
  .extend({
    check_type: z.literal('http'),
    execution_mode: z.literal('pull'),
    target_url: z.string().meta({
      description:
        'For read-only keys, userinfo and secret-looking query values (token, key, secret, password, sig, ...) read ********',
    }),
    ...checkRecordFieldsSchema.pick({ method: true, body: true, expected_status: true, body_contains: true })
      .shape,
    expected_statuses: storedExpectedStatusesSchema.nullable().meta({
      description:
        'Accepted codes and "NNN-NNN" ranges; expected_status is the first code. null: exactly expected_status',
    }),
    headers: z.record(z.string(), z.literal(REDACTED)).meta({ description: 'Values are always redacted' }),
    assertions: z.array(storedAssertionSchema).meta({ description: 'All must pass; [] when none' }),
    timeout_ms: probeTimeout,
    ...degradedLatency,
    tls: publicTlsTrustSchema,
  })
  .meta({ id: 'HttpCheck' });

/** A probed check of a type configured by `config` alone: "TcpCheck", "DnsCheck", ... */
const configuredCheck = (type: CheckType) =>
  checkCommonSchema
    .extend({
      check_type: z.literal(type),
      execution_mode: z.literal('pull'),
      config: configViewSchema(type),
      timeout_ms: probeTimeout,
      ...degradedLatency,
      ...(checkTypeDefinition(type).tls ? { tls: publicTlsTrustSchema } : {}),
    })
    .meta({ id: `${type.charAt(0).toUpperCase()}${type.slice(1)}Check` });

const pushCheckSchema = checkCommonSchema
  .extend({ check_type: z.literal('push'), execution_mode: z.literal('push'), config: configSchemas.push })
  .meta({ id: 'PushCheck' });

const outsideCheckSchema = checkCommonSchema
  .extend({
    check_type: z.literal('outside'),
    execution_mode: z.literal('push'),
    config: checkTypeDefinition('outside').stored,
  })
  .meta({
    id: 'OutsideCheck',
    description: "An integration's open alerts on one entity (made by its alerts; never probed or edited)",
  });

/** Each type's Check shape, in the registry's order: http, push and outside have their own, the others one each. */
const checkSchemas = CHECK_TYPES.map((type) => {
  const definition = checkTypeDefinition(type);
  if (!('kind' in definition)) return configuredCheck(type);
  if (definition.kind === 'outside') return outsideCheckSchema;
  return definition.kind === 'http' ? httpCheckSchema : pushCheckSchema;
});

/** A check as publicCheck returns it: the fields of its type only, header values redacted. */
export const publicCheckSchema = z
  .discriminatedUnion('check_type', checkSchemas as [(typeof checkSchemas)[number]])
  .meta({ id: 'Check', description: 'The fields a check returns depend on its check_type' });

/** What a probe adds to its result; a type may add fields of its own. */
const resultDetailsSchema = z
  .looseObject({
    days_left: z
      .number()
      .int()
      .optional()
      .meta({ description: 'tls: whole days until the certificate expires' }),
    answers: z.array(z.string()).optional().meta({ description: 'dns: the answers' }),
    error_code: z
      .string()
      .optional()
      .meta({ description: 'The OpenSSL or Node code of a TLS failure (e.g. CERT_HAS_EXPIRED)' }),
    tls_warning: z.string().optional().meta({
      description:
        "'certificate not verified (skip_verify)': the check's tls.skip_verify accepted the certificate unverified",
    }),
    steps: resultStepsSchema,
    failed_step: z
      .string()
      .optional()
      .meta({ description: 'multistep: the name of the first step that failed' }),
    vitals: resultVitalsSchema,
    artifacts: resultArtifactsSchema,
    trace_left_out: resultTraceLeftOutSchema,
    outside_alert: resultOutsideAlertSchema,
  })
  .meta({ description: "What the probe found besides the outcome; the check type's own fields" });

/** A result as publicResult returns it. */
export const publicResultSchema = z
  .strictObject({
    ...resultSchema.shape,
    id: idSchema('res'),
    check_id: idSchema('chk'),
    checked_at: timestampSchema,
    degraded: z
      .literal(true)
      .optional()
      .meta({ description: 'A success that is degraded (error_message says why)' }),
    outcome: z.enum(['up', 'degraded', 'down', 'inconclusive']).meta({
      description:
        'down: failed; degraded: succeeded slower than degraded_latency_ms or inside a tls expiry threshold; inconclusive: a located slot too few locations reported to decide (neither up nor down: it moved no state)',
    }),
    locations: z.array(locationOutcome).optional().meta({
      description: "A located check's slot: each location's part (its own rows: ?location=)",
    }),
    manual: z.literal(true).optional().meta({
      description: 'Probed on request (POST /v1/checks/{id}/run); it counts for state like any result',
    }),
    inconclusive: z
      .literal(true)
      .optional()
      .meta({ description: 'Too few locations reported to decide the slot (success is false)' }),
    location: z.string().optional().meta({
      description:
        "With ?location=: the location whose own row this is (its id is the slot's result's, decided from it)",
    }),
    slot_at: timestampSchema.optional().meta({
      description: "With ?location=: the slot of the row (checked_at: when the location's probe began)",
    }),
    synthetic: z
      .literal(true)
      .optional()
      .meta({ description: "Recorded by the service (dead man's switch), not probed or pushed" }),
    details: resultDetailsSchema.optional(),
  })
  .meta({ id: 'Result' });

/** A transition as publicTransition returns it. */
const publicTransitionSchema = z
  .strictObject({
    ...transitionSchema.pick({
      kind: true,
      check_id: true,
      from_state: true,
      to_state: true,
      reason: true,
    }).shape,
    id: idSchema('trn'),
    entity_id: idSchema('ent'),
    entity_name: z.string().meta({ description: "The entity's name when the change happened" }),
    blueprint_slug: z
      .string()
      .optional()
      .meta({ description: "The entity's address with entity_slug (absent on older transitions)" }),
    entity_slug: z.string().optional(),
    created_at: timestampSchema,
  })
  .meta({ id: 'Transition' });

/** GET /v1/checks/{id}/results (with ?location=: one location's own rows, in the same shape). */
export const resultsPageSchema = z.strictObject({
  results: z.array(publicResultSchema),
  next_cursor: nextCursor,
});

/** GET /v1/checks/{id}/transitions and GET /v1/status/transitions. */
export const transitionsPageSchema = z.strictObject({
  transitions: z.array(publicTransitionSchema),
  next_cursor: nextCursor,
});

/** GET /v1/checks/{id}/sparkline: buckets oldest first. */
export const sparklineSchema = z.strictObject({
  check_id: idSchema('chk'),
  start: timestampSchema,
  end: timestampSchema,
  buckets: z.array(
    z.strictObject({
      start: timestampSchema,
      total: z.number().int(),
      failures: z.number().int(),
      p50_latency_ms: z.number().nullable(),
      max_latency_ms: z.number().nullable(),
    }),
  ),
});

/** POST /v1/checks/{id}/run on a pull check: the run's stored result. */
export const runCompletedSchema = z.strictObject({
  status: z.literal('completed'),
  result: publicResultSchema,
});

/** POST /v1/checks/{id}/run on a located check: its slot went to its locations. */
export const runDispatchedSchema = z.strictObject({
  status: z.literal('dispatched'),
  check_id: idSchema('chk'),
  results: z.string().meta({ description: 'Where the decided result appears: GET this path' }),
});
