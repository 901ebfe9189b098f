import type { Clock } from '../../platform/clock.ts';
import { ConflictError, RateLimitedError } from '../../platform/errors.ts';
import type { RateLimiter, RatePolicy } from '../../platform/rate-limiter.ts';
import { entryResult } from '../cells/cell-view.ts';
import { publicResult } from '../records.ts';
import { type CellRunnerDeps, createCellRunner } from '../runner/cell-runner.ts';
import type { CheckService } from './check-service.ts';
import { oneOffJob, type ProbeSoon } from './probe-soon.ts';

/** Manual runs of one check: two at once, then one every 30 s. */
export const RUN_PER_CHECK: RatePolicy = { burst: 2, perSecond: 1 / 30 };
/** Manual runs of one tenant's checks together: twenty at once, then one every 5 s. */
const RUN_PER_TENANT: RatePolicy = { burst: 20, perSecond: 1 / 5 };

async function spend(limiter: RateLimiter, bucket: string, policy: RatePolicy, what: string) {
  const decision = await limiter.take(bucket, policy);
  if (!decision.allowed) {
    throw new RateLimitedError(decision.retryAfterSeconds, { message: `too many manual runs of ${what}` });
  }
}

/** A manual run's share of its tenant's budget: a saved check's run and a draft's (draft-run.ts) alike. */
export const spendManualRun = (limiter: RateLimiter, tenantId: string) =>
  spend(limiter, `RUN#${tenantId}`, RUN_PER_TENANT, "this account's checks");

/** The cell runner's deps (a pull check's run is its one-off slot, probed in this process; its screenshots kept) and: */
export interface RunNowDeps
  extends Pick<CellRunnerDeps, 'table' | 'prober' | 'tenants' | 'artifacts' | 'logger'> {
  checkService: Pick<CheckService, 'requireCheck'>;
  /** The app's shared limiter (memory locally, the table in the cloud). */
  limiter: RateLimiter;
  /** Dispatches a located check's slot to its locations (the probe queue). */
  probeSoon?: ProbeSoon | undefined;
  clock: Clock;
}

/** What a manual run answers: its stored result, or where the located slot went. */
export type RunNowAnswer =
  | { status: 'completed'; result: ReturnType<typeof publicResult> }
  | { status: 'dispatched'; check_id: string; results: string };

/**
 * POST /v1/checks/{id}/run: one probe now, stored as a normal result with `manual: true` (it counts
 * for state like any other). A pull check is probed in this process and answered with its result
 * (bounded by the check's timeout); a located check's slot is dispatched to its locations and
 * answered at once (202). Limited per check and per tenant (429 with Retry-After).
 */
export function createRunNow(deps: RunNowDeps) {
  const cells = createCellRunner(deps);

  return async (tenantId: string, checkId: string): Promise<RunNowAnswer> => {
    const check = await deps.checkService.requireCheck(tenantId, checkId);
    const job = oneOffJob(check, deps.clock.now(), true);
    if (!job) {
      throw new ConflictError(
        check.check_type === 'outside'
          ? "outside checks are not probed: their integration's alerts are their results"
          : check.execution_mode === 'push'
            ? 'push checks are not probed: their agent reports results'
            : 'the check is disabled: enable it to run it',
      );
    }
    await spend(deps.limiter, `RUN#${tenantId}#${checkId}`, RUN_PER_CHECK, 'this check');
    await spendManualRun(deps.limiter, tenantId);
    if (job.kind !== 'cell') {
      if (!deps.probeSoon) throw new ConflictError('no probe queue here to dispatch a located check to');
      await deps.probeSoon(job);
      return { status: 'dispatched', check_id: checkId, results: `/v1/checks/${checkId}/results` };
    }
    const outcome = await cells.run(job);
    const entry = outcome.status === 'gone' ? undefined : outcome.record.results.find((r) => r.c === checkId);
    if (outcome.status === 'gone' || !entry)
      throw new ConflictError('the check left its cell meanwhile: run it again');
    return { status: 'completed', result: publicResult(entryResult(outcome.record, entry)) };
  };
}

export type RunNow = ReturnType<typeof createRunNow>;
