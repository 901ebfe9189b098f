import { createTenantStore, type TenantStarter } from '../auth/tenants.ts';
import { inProcessProber } from '../check-types/run-probe.ts';
import type { JobRunnerDeps } from '../checks/probe-job.ts';
import { createCheckStore, createLocationDecider, createResultRecorder } from '../checks/probing.ts';
import type { ProbeSoon } from '../checks/services.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { ProbeDeps, Prober } from '../probes/types.ts';
import { deadmanRuns } from '../push/run-closing.ts';
import { slugChangeOps } from '../push/slug-claims.ts';
import type { Table } from '../store/table.ts';
import { listLocations } from './location-items.ts';
import { locationJobOp } from './location-job-items.ts';

export interface ProbingDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'dueShards' | 'allowPrivateTargets'> & Partial<Pick<Config, 'firstProbe'>>;
  /** Probe settings: extra trusted CAs (tests), the http probes' transport (the local runtime's choice). */
  probe?: Pick<ProbeDeps, 'tlsCa' | 'transport' | 'browserRunner'>;
  /** Where probes run; default on the event loop (the local runtime may hand them to probe threads). */
  prober?: Prober;
  /** Queues a check's one-off probe (the runtime's probe queue); absent: none is queued. */
  probeSoon?: ProbeSoon;
  /** Written with each new tenant (the app's: its starter skill); absent: nothing more. */
  tenantStarter?: TenantStarter;
}

/**
 * The job runner's `decideLater` until a runtime's scheduler or worker puts its probe queue there
 * (lib/local/scheduler.ts, lib/cloud/workers/worker.ts): without a queue a located slot cannot wait.
 */
const noProbeQueue = async (): Promise<void> => {
  throw new Error('no probe queue to schedule the decision of a located check on');
};

/**
 * What runs and records a probe at any location (`default`, the runtime's own workers; an agent; a
 * region): the tenant and check stores, the result recorder, the located checks' decider (the agent
 * routes report to it too) and the job runner. The app builds its check and location routes on
 * these; the probe worker function (lib/cloud/worker-composition.ts) needs nothing else. It lives
 * in lib/locations, not lib/checks, because it wires the locations' items and push's slug claims
 * and runs into the checks engine, and both of those build on lib/checks.
 */
export function composeProbing(deps: ProbingDeps) {
  const tenants = createTenantStore(deps.table, deps.clock, { starter: deps.tenantStarter });
  const checks = createCheckStore(deps.table, (input) => slugChangeOps(deps.table, input));
  const checkDeps = {
    table: deps.table,
    checks,
    tenants,
    clock: deps.clock,
    dueShards: deps.config.dueShards,
    logger: deps.logger,
    // A new, enabled or re-targeted check's first probe, and a located check's manual run.
    probeSoon: deps.probeSoon,
    firstProbe: deps.config.firstProbe,
    /** The names of the tenant's stored locations: a check names only these (and `default`). */
    locationNames: async (tenantId: string) =>
      new Set((await listLocations(deps.table, tenantId)).map((location) => location.name)),
  };
  const recorder = createResultRecorder(checkDeps);
  const decider = createLocationDecider({ ...checkDeps, recorder });
  const jobRunner: JobRunnerDeps = {
    table: deps.table,
    checks,
    recorder,
    decider,
    decideLater: noProbeQueue,
    locationJobOp,
    prober:
      deps.prober ??
      inProcessProber({
        clock: deps.clock,
        allowPrivate: deps.config.allowPrivateTargets,
        ...deps.probe,
      }),
    logger: deps.logger,
    // A push check's missed deadline closes its overdue runs and tells a missed one.
    deadmanRuns: deadmanRuns({ table: deps.table, tenants }),
  };
  return { tenants, checks, checkDeps, recorder, decider, jobRunner };
}
