import { isProbedType } from '../check-types/registry.ts';
import { type MissedRun, missedRun } from '../domain/schedules.ts';
import { probesFromLocations } from '../domain/states.ts';
import type { Logger } from '../platform/logger.ts';
import type { CheckTlsTrust, ProbeDefinition, Prober } from '../probes/types.ts';
import type { WriteOp } from '../store/table.ts';
import type { ArtifactStore } from './artifacts/artifact-store.ts';
import type { CheckRun, CheckStore } from './definitions/check-store.ts';
import type { ProbeJob } from './definitions/probe-job-schema.ts';
import type { CheckDefinitionRecord, HttpRequestField } from './records.ts';
import { detailsWithEvidence, slotScope } from './results/evidence.ts';
import {
  type LocatedJobDeps,
  type LocatedOutcome,
  type ProbeElsewhere,
  reportDefaultLeg,
  runLocatedProbe,
} from './results/located-job.ts';
import type { RecordOutcome, ResultRecorder } from './results/result-recorder.ts';

export { type ProbeJob, probeJobSchema } from './definitions/probe-job-schema.ts';
export type { ProbeElsewhere } from './results/located-job.ts';

/** What a probe job reads of a check: a stored one, or a definition not stored yet (MCP create_check). */
export type ProbedFields = Pick<
  CheckDefinitionRecord,
  'check_type' | 'config' | HttpRequestField | 'assertions' | 'timeout_ms' | 'degraded_latency_ms'
> & { tls?: CheckTlsTrust | null | undefined };

/**
 * The probe job of a pull check: an http check's top-level fields, a configured type's config with
 * the common probe fields; none for a type that is not probed (push).
 */
export function probeDefinition(check: ProbedFields): ProbeDefinition | undefined {
  const slow = {
    ...(typeof check.degraded_latency_ms === 'number'
      ? { degraded_latency_ms: check.degraded_latency_ms }
      : {}),
    ...(check.tls ? { tls: check.tls } : {}),
  };
  if (!isProbedType(check.check_type)) return undefined;
  if (check.check_type !== 'http') {
    // A configured type's job is its config with the common fields (lib/check-types/contract/definition.ts).
    return {
      ...check.config,
      check_type: check.check_type,
      timeout_ms: check.timeout_ms,
      ...slow,
    } as ProbeDefinition;
  }
  return {
    check_type: 'http',
    target_url: check.target_url ?? '',
    method: check.method,
    headers: check.headers,
    ...(check.body !== null ? { body: check.body } : {}),
    expected_status: check.expected_status,
    ...(check.expected_statuses ? { expected_statuses: check.expected_statuses } : {}),
    body_contains: check.body_contains,
    ...(check.assertions?.length ? { assertions: check.assertions } : {}),
    timeout_ms: check.timeout_ms,
    ...slow,
  };
}

export interface JobRunnerDeps extends LocatedJobDeps {
  checks: CheckStore;
  recorder: ResultRecorder;
  /** Runs a pull check's probe (on the event loop, or on probe threads locally). */
  prober: Prober;
  /** Absent: every probe runs on `prober`. */
  elsewhere?: ProbeElsewhere;
  logger: Logger;
  /** Where a browser check's screenshots are stored (lib/checks/artifacts); absent: none are kept. */
  artifacts?: ArtifactStore | undefined;
  /** What a push check's missed deadline writes of its runs (lib/push's), with its failure; absent: nothing. */
  deadmanRuns?: DeadmanRuns | undefined;
}

/** The writes of a push check's runs when its deadline `slotMs` passes (the runs it closes, a missed run). */
export type DeadmanRuns = (input: {
  tenantId: string;
  check: CheckDefinitionRecord;
  state: CheckRun['state'];
  miss: MissedRun;
  slotMs: number;
}) => Promise<WriteOp[]>;

/** What a job did: a recorded result (`alsoCommit` committed with it), or why nothing was recorded. */
export type ProbeJobOutcome =
  | RecordOutcome
  | { status: 'skipped'; reason: string }
  | { status: 'sent'; check_type: string }
  | LocatedOutcome;

/** Whether the job's `alsoCommit` (the local queue's ack) was committed with what it wrote. */
export function ackCommitted(outcome: ProbeJobOutcome): boolean {
  return outcome.status === 'recorded' || (outcome.status === 'located' && outcome.acked);
}

/**
 * Runs one job: re-reads the check (a disabled or deleted check stops), probes or records the
 * synthetic failure, and records the result idempotently for its slot. A located check's slot fans
 * out to its locations instead (results/located-job.ts), and its `decide` job decides the slot.
 */
export async function runProbeJob(
  job: ProbeJob,
  deps: JobRunnerDeps,
  options: {
    /** An op committed with the result (the local queue's ack of this job). */
    alsoCommit?: WriteOp;
    onProbeStart?: (startedMs: number) => void;
    /** Called once the probe has answered, before its result is recorded. */
    onProbed?: () => void;
  } = {},
): Promise<ProbeJobOutcome> {
  if (job.kind === 'decide') {
    // The slot's deadline: whoever has not reported is unknown (final), and the decider says what it did.
    const decided = await deps.decider.decide(job.tenant_id, job.check_id, job.slot_ms, true);
    return { status: 'located', step: `decided: ${decided.status}`, acked: false };
  }
  const run = await deps.checks.run(job.tenant_id, job.check_id);
  if (!run?.definition.enabled) return { status: 'gone' };
  const { definition: check, state } = run;
  // The check just read travels to the recorder, which then need not read it again.
  const common = {
    tenantId: job.tenant_id,
    checkId: job.check_id,
    slotMs: job.slot_ms,
    run,
    ...(options.alsoCommit ? { alsoCommit: options.alsoCommit } : {}),
  };
  if (job.kind === 'deadman') {
    if (check.check_type !== 'push') return { status: 'skipped', reason: 'not a push check' };
    if ((state.last_result_at ?? null) !== (job.last_result_at ?? null)) {
      return { status: 'skipped', reason: 'a result arrived after the deadline was claimed' };
    }
    // Items from before last_push_at existed: the last result stands for the last report.
    const reported = { ...state, last_push_at: state.last_push_at ?? state.last_result_at };
    const miss = missedRun(check, reported, job.slot_ms);
    const runs = deps.deadmanRuns
      ? await deps.deadmanRuns({ tenantId: job.tenant_id, check, state, miss, slotMs: job.slot_ms })
      : [];
    return deps.recorder.record({
      ...common,
      ...(runs.length > 0
        ? { alsoCommit: [...(options.alsoCommit ? [options.alsoCommit] : []), ...runs] }
        : {}),
      success: false,
      status_code: 0,
      latency_ms: 0,
      error_message: miss.message,
      checkedAtMs: job.slot_ms,
      synthetic: true,
      ...(miss.endsRun ? { endsRun: true } : {}),
      // The next expected run's deadline (the claim's next_run_at_ms is only a placeholder for push).
      nextRunAtMs: miss.nextAtMs,
    });
  }
  // A check moved into a cell since this job was queued (the migration): its cell runs it now.
  if (check.cell) return { status: 'skipped', reason: 'the check runs in a cell' };
  const def = probeDefinition(check);
  if (!def) return { status: 'skipped', reason: `${check.check_type} checks are not probed` };
  if (probesFromLocations(check)) return runLocatedProbe(job, run, def, deps, options);
  if (deps.elsewhere?.takes(def)) {
    await deps.elsewhere.send(job, def);
    return { status: 'sent', check_type: def.check_type };
  }
  const { outcome, startedMs } = await deps.prober(def);
  options.onProbeStart?.(startedMs);
  options.onProbed?.();
  // Its screenshots go under the slot's result id (the recorder's for a job's slot) before the result.
  const details = await detailsWithEvidence(deps, slotScope(job), outcome);
  return deps.recorder.record({
    ...common,
    ...(job.manual ? { manual: true } : {}),
    success: outcome.success,
    ...(outcome.degraded ? { degraded: true } : {}),
    status_code: outcome.status_code,
    latency_ms: outcome.latency_ms,
    error_message: outcome.error_message,
    checkedAtMs: startedMs,
    ...(details ? { details } : {}),
  });
}

/** A probe job's queue id (its idempotency key in both runtimes): one per check, kind and slot. */
export function probeJobId(job: ProbeJob): string {
  return `${job.kind}:${job.check_id}:${job.slot_ms}`;
}

/** A probe's result as it comes back from where it ran (lib/agent/protocol.ts ProbeResult, parsed). */
export interface ProbedResult {
  success: boolean;
  degraded?: true | undefined;
  status_code: number;
  latency_ms: number;
  error_message: string;
  /** When the probe began (ms). */
  checkedAtMs: number;
  details?: Record<string, unknown> | undefined;
}

/**
 * Records the result of a probe job that ran elsewhere (`ProbeElsewhere`) as the job itself would
 * have: for its slot, idempotently (a result delivered twice answers `duplicate`), a located
 * check's as its `default` location's; a check disabled, deleted or moved into a cell meanwhile
 * records nothing.
 */
export async function recordProbed(
  job: ProbeJob,
  result: ProbedResult,
  deps: Pick<JobRunnerDeps, 'recorder' | 'checks' | 'decider'>,
): Promise<ProbeJobOutcome> {
  const run = await deps.checks.run(job.tenant_id, job.check_id);
  if (!run?.definition.enabled) return { status: 'gone' };
  if (run.definition.cell) return { status: 'skipped', reason: 'the check runs in a cell' };
  if (probesFromLocations(run.definition)) return reportDefaultLeg(job, run, result, deps);
  return deps.recorder.record({
    tenantId: job.tenant_id,
    checkId: job.check_id,
    slotMs: job.slot_ms,
    run,
    ...(job.manual ? { manual: true } : {}),
    success: result.success,
    ...(result.degraded ? { degraded: true } : {}),
    status_code: result.status_code,
    latency_ms: result.latency_ms,
    error_message: result.error_message,
    checkedAtMs: result.checkedAtMs,
    ...(result.details ? { details: { ...result.details } } : {}),
  });
}
