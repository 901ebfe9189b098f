import type { ResultEntry, ResultsAnswer } from '../agent/protocol.ts';
import { type LocationDecider, slotLocationResults } from '../checks/probing.ts';
import type { LocationPrincipal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { parseLocationJobId } from './lease-service.ts';
import { getLocationJob, locationJobDeleteOp } from './location-job-items.ts';

type ResultStatus = ResultsAnswer['results'][number]['status'];

export interface ResultIntakeDeps {
  table: Table;
  clock: Clock;
  decider: Pick<LocationDecider, 'report'>;
}

/**
 * `POST /v1/agent/results`: each result of a batch is taken on its own, in order, and answered
 * `recorded` (stored, its job deleted after it, and its slot decided if it can be), `duplicate`
 * (this location's result for the slot is stored already) or `expired` (a job id this location
 * was never given, a job past its deadline or whose check no longer probes from here: nothing is
 * stored). Idempotent by (job, location): the same result posted again answers `duplicate`.
 */
export function createResultIntake(deps: ResultIntakeDeps) {
  const { table } = deps;

  /** Whether this location's result for the slot is stored (the job went with it). */
  const reportedBefore = async (location: LocationPrincipal, checkId: string, slotMs: number) =>
    (await slotLocationResults(table, checkId, slotMs)).some(
      (r) => r.location === location.locationName && r.tenant_id === location.tenantId,
    );

  const take = async (location: LocationPrincipal, entry: ResultEntry): Promise<ResultStatus> => {
    const named = parseLocationJobId(entry.job_id);
    if (!named || named.slotMs !== entry.slot) return 'expired';
    const { checkId, slotMs } = named;
    const { tenantId, locationName } = location;
    const job = await getLocationJob(table, tenantId, locationName, checkId, slotMs);
    if (!job) return (await reportedBefore(location, checkId, slotMs)) ? 'duplicate' : 'expired';
    const deleteJob = locationJobDeleteOp(tenantId, locationName, checkId, slotMs);
    if (job.deadline_ms <= deps.clock.now()) {
      // The slot is (or will be) decided without this location: its result would change nothing.
      await table.transact([deleteJob]);
      return 'expired';
    }
    const { result } = entry;
    const outcome = await deps.decider.report({
      tenantId,
      checkId,
      slotMs,
      location: locationName,
      result: {
        success: result.success,
        ...(result.degraded ? { degraded: true } : {}),
        status_code: result.status_code,
        latency_ms: result.latency_ms,
        error_message: result.error_message,
        checked_at: result.checked_at,
        ...(result.details ? { details: { ...result.details } } : {}),
        ...(job.manual ? { manual: true as const } : {}),
      },
    });
    // The job is of no use any more whatever the outcome. Deleted after the result, on its own (1
    // write unit; in the result's transaction it cost 2): if that delete is lost, the job is
    // leased again once its lease runs out, and its second result answers `duplicate` and deletes it.
    await table.transact([deleteJob]);
    if (outcome === 'recorded') return 'recorded';
    return outcome === 'duplicate' ? 'duplicate' : 'expired';
  };

  return {
    async post(location: LocationPrincipal, entries: readonly ResultEntry[]): Promise<ResultsAnswer> {
      const results: ResultsAnswer['results'] = [];
      for (const entry of entries) {
        results.push({ job_id: entry.job_id, slot: entry.slot, status: await take(location, entry) });
      }
      return { results };
    },
  };
}

export type ResultIntake = ReturnType<typeof createResultIntake>;
