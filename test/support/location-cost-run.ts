import { createApiHandler } from '../../functions/api.ts';
import { latestResults } from '../../lib/checks/items/result-items.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { type CostFigures, type MeterSnapshot, priceSnapshot } from './cost-prices.ts';
import { apiEvent, lambdaContext } from './lambda-context.ts';
import { withMeteredPipeline } from './metered-pipeline.ts';

/**
 * What a located check's slot costs in the cloud runtime (issue 40 item 4), under the cost meter:
 * `checks` http checks probed from `regions` AWS regions (no `default`) with quorum `quorum`, every
 * region reporting success (the steady state), for `slots` metered minutes after an unmetered one.
 * Everything runs as the cloud runs it, over DynamoDB Local: each minute the generator claims the
 * checks' slots and queues a probe job each; the worker fans each out (a location job per region)
 * and queues the slot's decide job at its deadline; each region, through the api function as API
 * Gateway invokes it with its location key, leases its jobs in batches (`POST /v1/agent/lease`,
 * `wait_seconds: 0`, until one answers none) and posts the results in batches (`POST
 * /v1/agent/results`: the location's result, the job's delete, the decision); the decide jobs
 * come back through the worker at their deadline, in the next minute (a duplicate decision). The
 * change feed is drained through the stream function's filter. The region functions themselves
 * are a fixed cost per region (test/support/location-cost-fixed.ts): not counted here, but the
 * idle leases a region asks meanwhile are metered apart (`idleLease`).
 * Shared by test/cost/location-cost.test.ts and `npm run bench -- --only locationcost`.
 */

export interface LocationCostOptions {
  endpoint: string;
  checks: number;
  slots: number;
  regions: number;
  quorum: number;
  /** Jobs one lease asks for: the region function's free concurrency (REGION_RUN.concurrency). */
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
  /** Every agent request's status, counted. */
  statuses: Record<string, number>;
  snapshot: MeterSnapshot;
  /** Per located slot. */
  perSlot: CostFigures;
  /**
   * Per idle lease: one that finds nothing (`wait_seconds: 0`), as a region short-polls while
   * nothing is due (lib/agent/region-function.ts), metered apart: the fixed cost's per-lease part.
   */
  idleLease: CostFigures;
}

const MINUTE = 60_000;
/** Idle leases metered per region (one a second, as REGION_RUN.idlePollMs paces them). */
const IDLE_LEASES = 5;
const REGION_NAMES = ['eu-west-1', 'ap-southeast-2', 'us-east-1', 'sa-east-1', 'ap-northeast-1'];

export async function runLocationCost(options: LocationCostOptions): Promise<LocationCostRun> {
  const { endpoint, checks: count, slots, quorum, leaseBatch, postBatch } = options;
  const regions = REGION_NAMES.slice(0, options.regions);
  const progress = options.onProgress ?? (() => {});
  return withMeteredPipeline(
    { endpoint, name: 'locationcost', logLevelVariable: 'COST_LOG_LEVEL' },
    async (pipeline) => {
      const { meter, clock, cloud, peek, target } = pipeline;
      const tenantId = pipeline.tenant.id;
      const api = createApiHandler(cloud);
      let requests = 0;
      /** One request through the api function, as API Gateway's HTTP API (payload v2) sends it. */
      const request = async (method: string, path: string, key: string, body?: unknown) => {
        requests += 1;
        const encoded = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        const event = apiEvent(method, path, {
          headers: {
            ...(encoded ? { 'content-type': 'application/json' } : {}),
            authorization: `Bearer ${key}`,
          },
          ...(encoded ? { body: encoded } : {}),
          sourceIp: '198.51.100.7',
          userAgent: 'vigil-agent',
          requestId: `req-${requests}`,
          nowMs: clock.now(),
        });
        const result = await api(event, lambdaContext('api'));
        const text = result.body ?? '';
        // biome-ignore lint/suspicious/noExplicitAny: answers are read freely
        const parsed: any = text ? JSON.parse(text) : undefined;
        return { status: result.statusCode ?? 200, body: parsed };
      };
      /** Setup through the API with the admin key (unmetered), at most 20 requests a fake second. */
      const setup = async (method: string, path: string, body?: unknown) => {
        clock.set(clock.now() + 50);
        const res = await request(method, path, pipeline.tenant.rawKey, body);
        if (res.status >= 300)
          throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body ?? {};
      };

      // Setup: the regions' locations and keys; the checks, probed from them (out of cells, in the
      // due index, as the API schedules a located check).
      const keys = new Map<string, string>();
      for (const name of regions)
        keys.set(name, String((await setup('POST', '/v1/locations', { name, kind: 'aws_region' })).key));
      await setup('POST', '/v1/blueprints', { slug: 'located', name: 'Located' });
      await cloud.app.tenants.setLimits(tenantId, { entity_limit_per_bp: count });
      const checkIds: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const entity = await setup('POST', '/v1/blueprints/located/entities', {
          slug: `located-${i}`,
          name: `Located ${i}`,
        });
        const check = await setup('POST', '/v1/checks', {
          entity_id: entity.id,
          check_type: 'http',
          target_url: target.url,
          interval_seconds: 60,
          timeout_ms: 5000,
          failure_threshold: 1,
          locations: regions,
          quorum,
        });
        const id = String(check.id);
        checkIds.push(id);
      }
      progress(`${count} checks located in ${regions.join(', ')} (quorum ${quorum})`);

      const statuses: Record<string, number> = {};
      /** A region's agent request: through API Gateway to the api function, with its location key. */
      const agentRequest = async (region: string, path: string, body: unknown) => {
        meter.countApiRequest();
        meter.countInvocation('api');
        const res = await request('POST', path, keys.get(region) ?? '', body);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status !== 200)
          throw new Error(`${region} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body;
      };
      /** Each region leases what is due, probes (every target up) and posts the results. */
      const regionsReport = async () => {
        for (const region of regions) {
          const leased: { job_id: string; slot: number }[] = [];
          for (;;) {
            const answer = await agentRequest(region, '/v1/agent/lease', {
              max: leaseBatch,
              wait_seconds: 0,
            });
            const jobs = answer.jobs as { job_id: string; slot: number }[];
            if (jobs.length === 0) break;
            leased.push(...jobs);
          }
          for (let i = 0; i < leased.length; i += postBatch) {
            const entries = leased.slice(i, i + postBatch).map(({ job_id, slot }) => ({
              job_id,
              slot,
              result: {
                success: true,
                status_code: 200,
                latency_ms: 80,
                error_message: '',
                checked_at: isoTime(clock.now()),
              },
            }));
            const answer = await agentRequest(region, '/v1/agent/results', entries);
            for (const r of answer.results as { status: string }[])
              if (r.status !== 'recorded') throw new Error(`${region}: a result answered ${r.status}`);
          }
        }
        await pipeline.drainChanges();
      };

      // Minute 0, unmetered, takes each check from unknown to up (a state change, not the steady
      // state); each minute's decide jobs run in the next minute, so minute 1 runs minute 0's.
      let meteredFrom = 0;
      for (let minute = 0; minute <= slots; minute += 1) {
        if (minute === 1) {
          meteredFrom = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE;
          meter.reset();
          pipeline.resetStreamRecords();
          meter.resume();
        }
        await pipeline.minute(minute, 200);
        // The regions report near the minute's end: every slot of the minute is due, none past its deadline.
        clock.set(Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE - 1000);
        await regionsReport();
        progress(minute === 0 ? 'minute 0 (unmetered)' : `minute ${minute} of ${slots}`);
      }
      meter.pause();
      const snapshot = meter.snapshot();
      // One more minute, unmetered: a slot due in the last second of a minute is leased in the next.
      await pipeline.minute(slots + 1, 200);
      clock.set(Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE - 1000);
      await regionsReport();
      // Idle: every job reported, each region's leases find nothing (metered apart).
      meter.reset();
      meter.resume();
      for (let i = 0; i < IDLE_LEASES; i += 1) {
        clock.set(clock.now() + 1000);
        for (const region of regions) {
          const answer = await agentRequest(region, '/v1/agent/lease', { max: leaseBatch, wait_seconds: 0 });
          if (answer.jobs.length > 0) throw new Error(`${region}: an idle lease found a job`);
        }
      }
      meter.pause();
      const idleLease = priceSnapshot(meter.snapshot(), IDLE_LEASES * regions.length);
      let decided = 0;
      for (const checkId of checkIds)
        decided += (await latestResults(peek, checkId, 1000)).filter((r) => {
          const at = Date.parse(r.checked_at);
          return r.locations !== undefined && at >= meteredFrom && at < meteredFrom + slots * MINUTE;
        }).length;
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
        statuses,
        snapshot,
        perSlot: priceSnapshot(snapshot, located),
        idleLease,
      };
    },
  );
}
