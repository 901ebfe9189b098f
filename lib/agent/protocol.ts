import * as z from 'zod';
import { HTTP_METHODS } from '../check-types/check-config.ts';
import { CHECK_TYPE_DEFINITIONS, CHECK_TYPES } from '../check-types/registry.ts';
import { storedTlsTrustSchema } from '../check-types/tls-trust.ts';
import { storedAssertionSchema, storedExpectedStatusesSchema } from '../domain/assertions.ts';
import { isoTime } from '../domain/formats.ts';
import type { ProbeDefinition, ProbeDetails, Probed } from '../probes/types.ts';

/**
 * The agent protocol (DECISIONS.md "Probe locations (wave 4)") as zod schemas, shared by the agent
 * (lib/agent/agent.ts) and the routes that answer it. Every request carries
 * `Authorization: Bearer <location key>` (`vlk_…`). docs/agent.md describes the exchange.
 */

export const AGENT_PATHS = {
  lease: '/v1/agent/lease',
  results: '/v1/agent/results',
  heartbeat: '/v1/agent/heartbeat',
} as const;

/** The longest a lease may be held open waiting for jobs. */
export const MAX_WAIT_SECONDS = 20;
/** The most jobs one lease asks for and one answer carries. */
export const MAX_LEASE_JOBS = 100;
/** The most results one POST /v1/agent/results carries. */
export const MAX_RESULTS_PER_POST = 100;
/** Bounds of a result's texts: the agent cuts longer ones before sending (`toWireResult`). */
export const MAX_ERROR_MESSAGE = 2000;
const MAX_DNS_ANSWERS = 100;
const MAX_DETAIL_TEXT = 1000;

/** A job's id, opaque to the agent; with the location it is the result's idempotency key. */
const jobIdSchema = z.string().min(1).max(200);
/** The slot the job was scheduled for, in epoch milliseconds. */
const slotSchema = z.number().int().min(0);

/** `POST /v1/agent/lease`: up to `max` jobs, waiting up to `wait_seconds` for the first one. */
export const leaseRequestSchema = z.strictObject({
  max: z.number().int().min(1).max(MAX_LEASE_JOBS),
  wait_seconds: z.number().int().min(0).max(MAX_WAIT_SECONDS),
});
export type LeaseRequest = z.infer<typeof leaseRequestSchema>;

/** What every probed check carries besides its type's own fields (lib/probes/types.ts ProbeCommon). */
const probeCommonShape = {
  timeout_ms: z.number().int().min(1).max(600_000),
  degraded_latency_ms: z.number().int().min(1).optional(),
  tls: storedTlsTrustSchema.optional(),
};

/** An http check's probe: its request fields (lib/probes/types.ts HttpProbeDefinition). */
const httpCheckSchema = z.object({
  check_type: z.literal('http'),
  target_url: z.string().min(1),
  method: z.enum(HTTP_METHODS).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
  expected_status: z.number().int().optional(),
  expected_statuses: storedExpectedStatusesSchema.optional(),
  body_contains: z.string().optional(),
  assertions: z.array(storedAssertionSchema).optional(),
  ...probeCommonShape,
});

/** The probed types besides http: each one's job is its stored config with the common fields. */
const configuredTypes = CHECK_TYPES.filter((type) => type !== 'http' && type !== 'push');

/** A probed check type's `check`, by type: what lib/checks/probe-job.ts `probeDefinition` builds. */
const checkSchemas = new Map<string, z.ZodType>([
  ['http', httpCheckSchema],
  ...configuredTypes.map(
    (type) =>
      [
        type,
        z
          .object({ check_type: z.literal(type), ...probeCommonShape })
          .and(CHECK_TYPE_DEFINITIONS[type].stored),
      ] as const,
  ),
]);

/**
 * A leased job's `check`: the probe config a worker probes (lib/probes/types.ts ProbeDefinition),
 * secrets included (sent only over TLS or loopback). One schema per probed check type.
 */
const probeCheckSchema = z.union([...checkSchemas.values()] as [z.ZodType, ...z.ZodType[]]);

/** A leased job: its id, its slot and the check to probe. */
export const leasedJobSchema = z.strictObject({
  job_id: jobIdSchema,
  slot: slotSchema,
  check: probeCheckSchema,
});

/** The lease's answer: the jobs leased to this location (none when the wait ran out). */
export const leaseAnswerSchema = z.object({ jobs: z.array(leasedJobSchema).max(MAX_LEASE_JOBS) });

/** A result's details (lib/probes/types.ts ProbeDetails), bounded. */
const probeDetailsSchema = z.strictObject({
  days_left: z.number().int().optional(),
  answers: z.array(z.string().max(MAX_DETAIL_TEXT)).max(MAX_DNS_ANSWERS).optional(),
  error_code: z.string().max(200).optional(),
  packets_sent: z.number().int().min(0).optional(),
  packets_received: z.number().int().min(0).optional(),
  packet_loss_percent: z.number().min(0).max(100).optional(),
  rtt_min_ms: z.number().min(0).optional(),
  rtt_avg_ms: z.number().min(0).optional(),
  rtt_max_ms: z.number().min(0).optional(),
  grpc_status: z.string().max(200).optional(),
  expires_at: z.string().max(200).optional(),
  rdap_server: z.string().max(MAX_DETAIL_TEXT).optional(),
  tls_warning: z.string().max(MAX_DETAIL_TEXT).optional(),
  steps: z
    .array(
      z.union([
        z.strictObject({
          name: z.string().max(64),
          outcome: z.enum(['passed', 'degraded', 'failed', 'skipped']),
          status_code: z.number().int().min(0),
          error: z.string().max(MAX_DETAIL_TEXT).optional(),
          timings: z
            .strictObject({
              dns_ms: z.number().int().min(0).optional(),
              connect_ms: z.number().int().min(0).optional(),
              tls_ms: z.number().int().min(0).optional(),
              first_byte_ms: z.number().int().min(0).optional(),
              total_ms: z.number().int().min(0),
            })
            .optional(),
        }),
        z.strictObject({
          action: z.string().max(16),
          outcome: z.enum(['passed', 'failed', 'skipped']),
          ms: z.number().int().min(0),
          error: z.string().max(MAX_DETAIL_TEXT).optional(),
        }),
      ]),
    )
    .max(30)
    .optional(),
  failed_step: z.string().max(64).optional(),
  vitals: z
    .strictObject({
      lcp_ms: z.number().min(0).optional(),
      cls: z.number().min(0).optional(),
      ttfb_ms: z.number().min(0).optional(),
    })
    .optional(),
});

// tsc names a detail a probe reports (lib/probes/types.ts) that the wire does not carry yet.
const everyDetailCarried: [Exclude<keyof ProbeDetails, keyof z.infer<typeof probeDetailsSchema>>] extends [
  never,
]
  ? true
  : never = true;
void everyDetailCarried;

/**
 * One probe's result, as the result recorder takes it (lib/checks/results/result-recorder.ts
 * ResultInput): `checked_at` is when the probe began.
 */
export const probeResultSchema = z.strictObject({
  success: z.boolean(),
  /** A degraded success (error_message says why); absent otherwise. */
  degraded: z.literal(true).optional(),
  status_code: z.number().int().min(0).max(999),
  latency_ms: z.number().int().min(0),
  error_message: z.string().max(MAX_ERROR_MESSAGE),
  checked_at: z.iso.datetime(),
  details: probeDetailsSchema.optional(),
});
export type ProbeResult = z.infer<typeof probeResultSchema>;

/** One entry of `POST /v1/agent/results`. */
const resultEntrySchema = z.strictObject({
  job_id: jobIdSchema,
  slot: slotSchema,
  result: probeResultSchema,
});
export type ResultEntry = z.infer<typeof resultEntrySchema>;

/** `POST /v1/agent/results`: a batch of results, idempotent by (job, location). */
export const resultsRequestSchema = z.array(resultEntrySchema).min(1).max(MAX_RESULTS_PER_POST);

/**
 * What became of one posted result. `recorded`: stored for its slot; `duplicate`: this location's
 * result for the job was stored before; `expired`: the job is past its slot's deadline or unknown,
 * nothing is stored. Each is final: the agent never sends that result again. A result the answer
 * leaves out was not taken and is sent again.
 */
const RESULT_STATUSES = ['recorded', 'duplicate', 'expired'] as const;
export const resultsAnswerSchema = z.object({
  results: z.array(z.object({ job_id: jobIdSchema, slot: slotSchema, status: z.enum(RESULT_STATUSES) })),
});
export type ResultsAnswer = z.infer<typeof resultsAnswerSchema>;

/** `POST /v1/agent/heartbeat`: the agent is alive, and runs this version. */
export const heartbeatRequestSchema = z.strictObject({
  version: z.string().min(1).max(64).meta({ description: 'The agent’s version, shown in the location list' }),
});
/** The heartbeat's answer: which location the key belongs to, and the server's time. */
export const heartbeatAnswerSchema = z.object({
  location: z.object({ id: z.string(), name: z.string() }),
  server_time: z.iso.datetime(),
});

/** A leased job as the agent reads it: its check, or why it cannot be probed here. */
export type ReadJob =
  | { job_id: string; slot: number; check: ProbeDefinition }
  | { job_id: string; slot: number; problem: string };

const jobEnvelopeSchema = z.object({
  jobs: z.array(z.object({ job_id: jobIdSchema, slot: slotSchema, check: z.unknown() })).max(MAX_LEASE_JOBS),
});

/**
 * Reads a lease answer job by job: a check this agent cannot read (a type it does not know, a
 * config it cannot parse) is that job's `problem`, not the whole answer's. Throws a ZodError when
 * the envelope itself is wrong.
 */
export function readLeaseAnswer(body: unknown): ReadJob[] {
  return jobEnvelopeSchema.parse(body).jobs.map(({ job_id, slot, check }) => {
    const type = z.object({ check_type: z.string() }).safeParse(check);
    const schema = type.success ? checkSchemas.get(type.data.check_type) : undefined;
    if (!type.success || !schema) {
      const named = type.success ? `${type.data.check_type} checks` : 'a check without a check_type';
      return { job_id, slot, problem: `this agent cannot probe ${named}` };
    }
    const parsed = schema.safeParse(check);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      return { job_id, slot, problem: `this agent cannot read the check${where}: ${issue?.message}` };
    }
    // Parsed by its type's schema: the shape lib/probes' probers take.
    return { job_id, slot, check: parsed.data as ProbeDefinition };
  });
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A probe's outcome as a wire result, texts cut to the protocol's bounds. */
export function toWireResult({ outcome, startedMs }: Probed): ProbeResult {
  const details: ProbeDetails | undefined = outcome.details;
  return {
    success: outcome.success,
    ...(outcome.degraded ? { degraded: true } : {}),
    status_code: outcome.status_code,
    latency_ms: Math.max(0, Math.round(outcome.latency_ms)),
    error_message: cut(outcome.error_message, MAX_ERROR_MESSAGE),
    checked_at: isoTime(startedMs),
    ...(details ? { details: wireDetails(details) } : {}),
  };
}

function wireDetails(details: ProbeDetails): NonNullable<ProbeResult['details']> {
  const { answers, rdap_server, tls_warning, ...rest } = details;
  return {
    ...rest,
    ...(answers ? { answers: answers.slice(0, MAX_DNS_ANSWERS).map((a) => cut(a, MAX_DETAIL_TEXT)) } : {}),
    ...(rdap_server !== undefined ? { rdap_server: cut(rdap_server, MAX_DETAIL_TEXT) } : {}),
    ...(tls_warning !== undefined ? { tls_warning: cut(tls_warning, MAX_DETAIL_TEXT) } : {}),
  };
}

/** A failed result for a job this agent could not probe (`problem` says why). */
export function unprobedResult(problem: string, atMs: number): ProbeResult {
  return {
    success: false,
    status_code: 0,
    latency_ms: 0,
    error_message: cut(problem, MAX_ERROR_MESSAGE),
    checked_at: isoTime(atMs),
  };
}
