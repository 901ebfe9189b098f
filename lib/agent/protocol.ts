import * as z from 'zod';
import { HTTP_METHODS } from '../check-types/check-config.ts';
import { CHECK_TYPE_DEFINITIONS, CHECK_TYPES, isProbedType } from '../check-types/registry.ts';
import { storedTlsTrustSchema } from '../check-types/tls-trust.ts';
import { storedAssertionSchema, storedExpectedStatusesSchema } from '../domain/assertions.ts';
import type { ProbeDefinition } from '../probes/types.ts';
import { probeResultSchema } from './probe-result.ts';

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
const configuredTypes = CHECK_TYPES.filter((type) => type !== 'http' && isProbedType(type));

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
