import { DEFAULT_LOCATION, locationsOf, slotDeadlineMs } from '../../domain/states.ts';
import { isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ProbeDefinition, ProbeOutcome, Prober } from '../../probes/types.ts';
import { transactIf } from '../../store/items.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import type { CheckRun } from '../definitions/check-store.ts';
import type { ProbeJob } from '../definitions/probe-job-schema.ts';
import { slotLocationResults } from '../items/location-result-items.ts';
import { detailsWithEvidence, slotScope } from './evidence.ts';
import type { LocationDecider } from './location-decision.ts';

/** One slot of a located check waiting for one location's agent (lib/locations/location-job-items.ts). */
interface LocationJob {
  tenant_id: string;
  location: string;
  check_id: string;
  slot_ms: number;
  deadline_ms: number;
  leased_until_ms: number;
  /** A manual run's slot: the location's result is marked, and so the decided one. */
  manual?: true;
}

/**
 * Where probes that do not run here go (the cloud's browser function, lib/cloud/browser-function.ts):
 * `takes` says which, `send` hands the slot's job and its probe there; the result comes back as a
 * job of its own and is recorded with `recordProbed` (../probe-job.ts), a located check's as its
 * `default` location's.
 */
export interface ProbeElsewhere {
  takes(def: ProbeDefinition): boolean;
  send(job: ProbeJob, def: ProbeDefinition): Promise<void>;
}

/** What the job runner needs for located checks (lib/domain/states/quorum.ts) beside what every job needs. */
export interface LocatedJobDeps {
  table: Table;
  /** Stores each location's result and decides the slot (lib/checks/results/location-decision.ts). */
  decider: LocationDecider;
  /** Runs `job` (a slot's `decide`) at `atMs`: the runtime's probe queue, idempotent by the job's id. */
  decideLater(job: ProbeJob, atMs: number): Promise<void>;
  /**
   * The put of a location's job, only if absent (lib/locations/location-job-items.ts, passed in
   * by the composition: lib/locations reads checks, so lib/checks does not import it).
   */
  locationJobOp(job: LocationJob): WriteOp;
}

/**
 * What a located check's job did. `acked`: the local queue's ack (`alsoCommit`) was committed
 * with the default location's result; otherwise the caller acks the job.
 */
export interface LocatedOutcome {
  status: 'located';
  step: string;
  acked: boolean;
}

/**
 * A located check's slot (DECISIONS.md "Probe locations (wave 4)"): puts a job for each other
 * location that has not reported (a failed condition: its job is there already),
 * schedules the slot's decision at its deadline, then probes from `default` when the check names it
 * and it has not reported, its result stored through the decider (which decides early when it can),
 * with its screenshots and trace stored first under the slot's result id, the id its location row
 * and the decided result answer with (the artifact route finds them there; retention sweeps them
 * by that id's time, as it does the row).
 * Every step is idempotent, so a redelivered job repeats none of them: the decision is scheduled
 * before the ack can commit with the default's result, and it runs even if the rest fails.
 */
export async function runLocatedProbe(
  job: ProbeJob,
  run: CheckRun,
  def: ProbeDefinition,
  deps: LocatedJobDeps & {
    prober: Prober;
    elsewhere?: ProbeElsewhere | undefined;
    artifacts?: ArtifactStore | undefined;
    logger: Logger;
  },
  options: { alsoCommit?: WriteOp; onProbeStart?: (startedMs: number) => void; onProbed?: () => void },
): Promise<LocatedOutcome> {
  const check = run.definition;
  const deadlineMs = slotDeadlineMs(job.slot_ms, check);
  const reported = new Set(
    (await slotLocationResults(deps.table, check.id, job.slot_ms)).map((r) => r.location),
  );
  const others = locationsOf(check).filter((l) => l !== DEFAULT_LOCATION && !reported.has(l));
  for (const location of others) {
    // One conditional put (1 write unit), not a transaction with a check that the location has not
    // reported (4): the read above already skipped those that had. A report landing between that
    // read and this put (a redelivered job racing the agent) leaves a job whose second result is
    // answered `duplicate` and deletes it: one probe too many, nothing stored twice.
    await transactIf(deps.table, [
      deps.locationJobOp({
        tenant_id: job.tenant_id,
        location,
        check_id: check.id,
        slot_ms: job.slot_ms,
        deadline_ms: deadlineMs,
        leased_until_ms: 0,
        ...(job.manual ? { manual: true as const } : {}),
      }),
    ]);
  }
  await deps.decideLater({ ...job, kind: 'decide' }, deadlineMs);
  if (!locationsOf(check).includes(DEFAULT_LOCATION) || reported.has(DEFAULT_LOCATION)) {
    // Nothing to probe here: decide now if the others' results already allow it.
    const decided = await deps.decider.decide(job.tenant_id, check.id, job.slot_ms, false);
    return { status: 'located', step: `fanned out; slot ${decided.status}`, acked: false };
  }
  if (deps.elsewhere?.takes(def)) {
    // Its `default` leg runs where such probes run; its result comes back as the default location's.
    await deps.elsewhere.send(job, def);
    return { status: 'located', step: 'default sent to where it runs', acked: false };
  }
  const { outcome, startedMs } = await deps.prober(def);
  options.onProbeStart?.(startedMs);
  options.onProbed?.();
  const details = await detailsWithEvidence(deps, slotScope(job), outcome);
  const leg = { ...outcome, details, checkedAtMs: startedMs };
  return reportDefaultLeg(job, run, leg, deps, options.alsoCommit);
}

/**
 * Stores a located check's `default` location result for the job's slot through the decider
 * (which decides early when it can): probed here, or come back from where it ran.
 */
export async function reportDefaultLeg(
  job: ProbeJob,
  run: CheckRun,
  /** Its details as stored: with `artifacts` when its screenshots or trace were (never their bytes). */
  outcome: Omit<ProbeOutcome, 'details'> & {
    details?: Record<string, unknown> | undefined;
    checkedAtMs: number;
  },
  deps: Pick<LocatedJobDeps, 'decider'>,
  alsoCommit?: WriteOp,
): Promise<LocatedOutcome> {
  const stored = await deps.decider.report({
    tenantId: job.tenant_id,
    checkId: run.definition.id,
    slotMs: job.slot_ms,
    location: DEFAULT_LOCATION,
    result: {
      success: outcome.success,
      ...(outcome.degraded ? { degraded: true } : {}),
      status_code: outcome.status_code,
      latency_ms: Math.max(0, Math.round(outcome.latency_ms)),
      error_message: outcome.error_message,
      checked_at: isoTime(outcome.checkedAtMs),
      ...(outcome.details ? { details: { ...outcome.details } } : {}),
      ...(job.manual ? { manual: true as const } : {}),
    },
    ...(alsoCommit ? { alsoCommit: [alsoCommit] } : {}),
    run,
  });
  return { status: 'located', step: `default ${stored}`, acked: stored === 'recorded' };
}
