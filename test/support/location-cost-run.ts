import { createLocationDecider } from '../../lib/checks/results/location-decision.ts';
import { noLocationResultOp, slotLocationResults } from '../../lib/checks/results/location-result-items.ts';
import { latestResults } from '../../lib/checks/results/result-items.ts';
import { composeProbing } from '../../lib/compose-probing.ts';
import { slotDeadlineMs } from '../../lib/domain/quorum.ts';
import { createLocationAuthenticator } from '../../lib/locations/authenticate-location.ts';
import {
  getLocationJob,
  leaseLocationJobs,
  locationJobDeleteOp,
  locationJobOp,
} from '../../lib/locations/location-job-items.ts';
import { createLocationService } from '../../lib/locations/location-service.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { transactIf } from '../../lib/store/items.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import { type CostFigures, type MeterSnapshot, priceSnapshot } from './cost-prices.ts';
import { withMeteredPipeline } from './metered-pipeline.ts';

/**
 * What a located check's slot costs in the cloud runtime (issue 40 item 4), under the cost meter:
 * `checks` http checks probed from `regions` AWS regions (no `default`) with quorum `quorum`, for
 * `slots` minutes, every location reporting success (the steady state). Each slot runs the
 * deciding side's code over DynamoDB Local as the runtime runs it: the worker's fan-out (a
 * location job per region, put only if that region has not reported), the decide job scheduled
 * at the deadline, each region's leases (the location key's lookup, the jobs' query, a conditional
 * update per job and its check read) and result posts (the key's lookup, the job read, the location
 * result put with the job's delete, the decision: the slot's results read and the slot's one
 * result written), then the decide job at the deadline (a duplicate decision). The change feed is
 * drained through the stream function's filter after each minute. SQS requests, the worker's
 * invocations, API Gateway requests and the api function's invocations are counted as the
 * runtime makes them; the region functions are a fixed cost per region (formatLocationCost).
 * Shared by test/cost/location-cost.test.ts and `npm run bench -- --only locationcost`.
 */

export interface LocationCostOptions {
  endpoint: string;
  checks: number;
  slots: number;
  regions: number;
  quorum: number;
  /** Jobs one lease hands out: the region function's free concurrency (REGION_RUN.concurrency). */
  leaseBatch: number;
  /** Results one post carries: the outbox's size when a post leaves (at most 100). */
  postBatch: number;
  onProgress?: (line: string) => void;
}

export interface LocationCostRun {
  checks: number;
  slots: number;
  regions: string[];
  quorum: number;
  leaseBatch: number;
  postBatch: number;
  /** Located slots metered (checks x slots) and the decided results stored for them (read unmetered). */
  located: number;
  decided: number;
  snapshot: MeterSnapshot;
  /** Per located slot. */
  perSlot: CostFigures;
}

const MINUTE = 60_000;
const REGION_NAMES = ['eu-west-1', 'ap-southeast-2', 'us-east-1', 'sa-east-1', 'ap-northeast-1'];

export async function runLocationCost(options: LocationCostOptions): Promise<LocationCostRun> {
  const { endpoint, checks: count, slots, quorum, leaseBatch, postBatch } = options;
  const regions = REGION_NAMES.slice(0, options.regions);
  const progress = options.onProgress ?? (() => {});
  return withMeteredPipeline(
    { endpoint, name: 'locationcost', logLevelVariable: 'COST_LOG_LEVEL' },
    async (pipeline) => {
      const { meter, clock, cloud, peek } = pipeline;
      const table = cloud.table;
      const tenantId = pipeline.tenant.id;
      const probing = composeProbing({ table, clock, logger: silentLogger, config: cloud.config });
      const decider = createLocationDecider({
        table,
        recorder: probing.recorder,
        checks: probing.checks,
        tenants: probing.tenants,
        clock,
        logger: silentLogger,
      });
      const authenticate = createLocationAuthenticator({
        table,
        clock,
        getTenant: (id) => probing.tenants.getTenant(id),
      });
      const locations = createLocationService({
        table,
        clock,
        tenantCreatedAt: async (id) => (await probing.tenants.requireTenant(id)).created_at,
      });

      // Setup, unmetered: the checks, made located (the stored fields; the API's come with issue 40's
      // check fields), and a location with its key per region.
      const checkIds = await pipeline.createHttpChecks(count, {
        slug: 'located',
        name: 'Located',
        entityName: 'Located service',
      });
      for (const id of checkIds) {
        const key = { pk: tenantPk(tenantId), sk: `CHECK#${id}` };
        // Out of its cell too: a located check runs per slot (DECISIONS.md "Probe locations").
        await peek.transact([{ type: 'update', key, set: { locations: regions, quorum }, remove: ['cell'] }]);
      }
      const keys = new Map<string, string>();
      for (const name of regions)
        keys.set(name, (await locations.create(tenantId, { name, kind: 'aws_region' })).key);
      progress(`${count} checks located in ${regions.join(', ')} (quorum ${quorum})`);

      /** One request through API Gateway to the api function, with its location key checked. */
      const apiRequest = async <T>(region: string, handle: () => Promise<T>): Promise<T> => {
        meter.countApiRequest();
        meter.countInvocation('api');
        await authenticate(`Bearer ${keys.get(region)}`);
        return handle();
      };
      /** A probe job of the worker (one per invocation): the queue's send, receive and delete. */
      const workerJob = async (handle: () => Promise<unknown>) => {
        for (const op of ['SendMessage', 'ReceiveMessage', 'DeleteMessage']) meter.countSqs(op, 300);
        meter.countInvocation('worker');
        await handle();
      };

      const start = Math.ceil(clock.now() / MINUTE) * MINUTE + MINUTE;
      // Slot 0, unmetered, takes each check from unknown to up: a state change, not the steady state.
      for (let s = 0; s <= slots; s += 1) {
        const slotMs = start + s * MINUTE;
        clock.set(slotMs);
        if (s === 1) {
          meter.reset();
          pipeline.resetStreamRecords();
        }
        if (s > 0) meter.resume();
        // The slot's probe job per check: fan-out, the decide job scheduled, an early decision tried.
        for (const checkId of checkIds) {
          await workerJob(async () => {
            const run = await probing.checks.run(tenantId, checkId);
            if (!run) throw new Error(`${checkId} is gone`);
            const deadlineMs = slotDeadlineMs(slotMs, run.definition);
            const reported = new Set(
              (await slotLocationResults(table, checkId, slotMs)).map((r) => r.location),
            );
            for (const location of regions.filter((r) => !reported.has(r)))
              await transactIf(table, [
                noLocationResultOp(checkId, slotMs, location),
                locationJobOp({
                  tenant_id: tenantId,
                  location,
                  check_id: checkId,
                  slot_ms: slotMs,
                  deadline_ms: deadlineMs,
                  leased_until_ms: 0,
                }),
              ]);
            await decider.decide(tenantId, checkId, slotMs, false);
          });
        }
        // Each region leases its jobs in batches, probes them (a success, as the target answers)
        // and posts the results in batches.
        clock.set(slotMs + 2000);
        for (const region of regions) {
          const leased: { checkId: string; leasedAt: number }[] = [];
          for (;;) {
            const jobs = await apiRequest(region, async () => {
              const taken = await leaseLocationJobs(table, {
                tenantId,
                location: region,
                nowMs: clock.now(),
                max: leaseBatch,
                leaseMs: 45_000,
              });
              // The lease answers each job with its check's probe config, read now.
              for (const job of taken) await probing.checks.run(tenantId, job.check_id);
              return taken;
            });
            if (jobs.length === 0) break;
            leased.push(...jobs.map((j) => ({ checkId: j.check_id, leasedAt: clock.now() })));
          }
          for (let i = 0; i < leased.length; i += postBatch) {
            await apiRequest(region, async () => {
              for (const { checkId } of leased.slice(i, i + postBatch)) {
                const job = await getLocationJob(table, tenantId, region, checkId, slotMs);
                if (!job) throw new Error(`no job of ${region} for ${checkId}`);
                await decider.report({
                  tenantId,
                  checkId,
                  slotMs,
                  location: region,
                  result: {
                    success: true,
                    status_code: 200,
                    latency_ms: 80,
                    error_message: '',
                    checked_at: isoTime(slotMs + 2000),
                  },
                  alsoCommit: [locationJobDeleteOp(tenantId, region, checkId, slotMs)],
                });
              }
            });
          }
        }
        await pipeline.drainChanges();
        // The decide job at the slot's deadline: the slot was decided already (a duplicate).
        clock.set(slotMs + MINUTE - 1);
        for (const checkId of checkIds)
          await workerJob(() => decider.decide(tenantId, checkId, slotMs, true));
        await pipeline.drainChanges();
        meter.pause();
        progress(s === 0 ? 'warm-up slot (unmetered)' : `slot ${s} of ${slots}`);
      }
      const snapshot = meter.snapshot();
      let decided = 0;
      for (const checkId of checkIds)
        decided += (await latestResults(peek, checkId, 1000)).filter(
          (r) => Date.parse(r.checked_at) >= start + MINUTE && r.locations !== undefined,
        ).length;
      meter.detach();
      const located = count * slots;
      return {
        checks: count,
        slots,
        regions,
        quorum,
        leaseBatch,
        postBatch,
        located,
        decided,
        snapshot,
        perSlot: priceSnapshot(snapshot, located),
      };
    },
  );
}
