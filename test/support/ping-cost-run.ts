import { createApiHandler, createPingHandler } from '../../lib/cloud/http-composition.ts';
import { apiFunctionClient } from './api-function-client.ts';
import { type CostFigures, type MeterSnapshot, priceSnapshot } from './cost-prices.ts';
import { withMeteredPipeline } from './metered-pipeline.ts';

/**
 * The cost of one heartbeat in the cloud runtime, under the cost meter: `checks` push checks, each
 * with a ping URL, reported `pings` times each, one report per check every `everyMinutes` (default 1) of a fake clock,
 * through the api Lambda handler (functions/api.ts's createApiHandler, as API Gateway's HTTP API
 * invokes it) over DynamoDB Local, rate limits on at their defaults. After each minute the change
 * feed is drained through the stream function's filter (metered-pipeline.ts), so any stream record
 * a report produces, and the invocations it causes, are counted. Three modes on separate checks:
 * `pingUrl` (GET /ping/<token> through the ping function's URL, functions/ping.ts: no API
 * Gateway request; the ping URLs the API shows), `ping` (the same through the API's /ping/* route,
 * the ping URLs users already have) and `keyed` (POST /v1/checks/{id}/results with an API key, the
 * keyed push route, for comparison). Every
 * report is a success and every check stays up: the steady state of a healthy cron job.
 * Shared by test/cost/ping-cost.test.ts and `npm run bench -- --only pingcost`.
 */

export type PingCostMode = 'pingUrl' | 'ping' | 'keyed';

const MODES: readonly PingCostMode[] = ['pingUrl', 'ping', 'keyed'];

export interface PingCostOptions {
  endpoint: string;
  checks: number;
  pings: number;
  /** Minutes between a check's reports (default 1): from 5, each report closes a 5-minute rollup bucket. */
  everyMinutes?: number;
  onProgress?: (line: string) => void;
}

export interface PingCostRun {
  mode: PingCostMode;
  checks: number;
  /** Reports per check. */
  pings: number;
  /** Minutes between a check's reports. */
  everyMinutes: number;
  /** Reports sent in the metered minutes (checks x pings). */
  requests: number;
  /** Their answers' statuses, counted. */
  statuses: Record<string, number>;
  /** Push results stored by them (read back unmetered). */
  stored: number;
  snapshot: MeterSnapshot;
  /** Stream records the event-source filter passes to the stream function. */
  keptStreamRecords: number;
  /** Per report: the meter's figures plus API Gateway and the api function. */
  perPing: CostFigures;
}

const MINUTE = 60_000;
/** The checks' push config: a job run every `everyMinutes`, with 10 minutes of silence allowed past it. */
const GRACE_SECONDS = 600;

export async function runPingCost(options: PingCostOptions): Promise<Record<PingCostMode, PingCostRun>> {
  const { endpoint, checks, pings } = options;
  const everyMinutes = options.everyMinutes ?? 1;
  const progress = options.onProgress ?? (() => {});
  return withMeteredPipeline(
    { endpoint, name: 'pingcost', logLevelVariable: 'COST_LOG_LEVEL' },
    async (pipeline) => {
      const { meter, clock, cloud } = pipeline;
      const key = pipeline.tenant.rawKey;
      const { request, setup } = apiFunctionClient(createApiHandler(cloud), clock, {
        key,
        userAgent: 'curl',
      });
      const pingFunction = apiFunctionClient(createPingHandler(cloud), clock, { key, userAgent: 'curl' });

      await setup('POST', '/v1/blueprints', { slug: 'job', name: 'Job' });
      const created: { checkId: string; token: string }[] = [];
      for (let i = 0; i < MODES.length * checks; i += 1) {
        const entity = await setup('POST', '/v1/blueprints/job/entities', {
          slug: `job-${i}`,
          name: `Job ${i}`,
        });
        const check = await setup('POST', '/v1/checks', {
          entity_id: entity.id,
          check_type: 'push',
          interval_seconds: everyMinutes * 60,
          failure_threshold: 1,
          config: { grace_seconds: GRACE_SECONDS },
        });
        const token = await setup('POST', `/v1/checks/${check.id}/push-tokens`);
        created.push({ checkId: String(check.id), token: String(token.token) });
      }
      // Each check's first report (unmetered) takes it from unknown to up: a state change, not the steady state.
      pipeline.resetStreamRecords();
      for (const c of created) await request('GET', `/ping/${c.token}`);
      // Two transitions each (the check and its own entity), all handed to the stream function
      // before a phase counts: one the stream shows late would be counted as the phase's.
      await pipeline.awaitStreamRecords(2 * created.length);
      progress(`${MODES.length * checks} push checks created and up`);

      const storedResults = async (ids: string[]) => {
        let total = 0;
        for (const id of ids) {
          const res = await setup('GET', `/v1/checks/${id}/results?limit=100`);
          total += Array.isArray(res.results) ? res.results.length : 0;
        }
        return total;
      };
      let minute = Math.ceil(clock.now() / MINUTE);
      const phase = async (mode: PingCostMode, group: typeof created): Promise<PingCostRun> => {
        const ids = group.map((c) => c.checkId);
        const before = await storedResults(ids);
        const statuses: Record<string, number> = {};
        meter.reset();
        pipeline.resetStreamRecords();
        for (let p = 0; p < pings; p += 1) {
          minute += everyMinutes;
          clock.set(minute * MINUTE);
          meter.resume();
          for (const c of group) {
            // The ping function's URL is no API Gateway request; its invocation is priced as the api function's.
            if (mode !== 'pingUrl') meter.countApiRequest();
            meter.countInvocation(mode === 'pingUrl' ? 'ping' : 'api');
            const res =
              mode === 'pingUrl'
                ? await pingFunction.request('GET', `/ping/${c.token}`)
                : mode === 'ping'
                  ? await request('GET', `/ping/${c.token}`)
                  : await request(
                      'POST',
                      `/v1/checks/${c.checkId}/results`,
                      { success: true, latency_ms: 5 },
                      key,
                    );
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          }
          await pipeline.drainChanges();
          meter.pause();
          progress(`${mode}: minute ${p + 1} of ${pings}`);
        }
        const snapshot = meter.snapshot();
        const requests = group.length * pings;
        return {
          mode,
          checks: group.length,
          pings,
          everyMinutes,
          requests,
          statuses,
          stored: (await storedResults(ids)) - before,
          snapshot,
          keptStreamRecords: pipeline.streamRecords(),
          perPing: priceSnapshot(snapshot, requests),
        };
      };
      const runs = {} as Record<PingCostMode, PingCostRun>;
      for (const [i, mode] of MODES.entries())
        runs[mode] = await phase(mode, created.slice(i * checks, (i + 1) * checks));
      meter.detach();
      return runs;
    },
  );
}
