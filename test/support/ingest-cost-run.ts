import { createApiHandler } from '../../functions/api.ts';
import { alertmanagerWebhook } from './alertmanager-webhook.ts';
import { apiFunctionClient } from './api-function-client.ts';
import { type CostFigures, type MeterSnapshot, priceSnapshot } from './cost-prices.ts';
import { withMeteredPipeline } from './metered-pipeline.ts';

/**
 * The cost of outside alerts in the cloud runtime, under the cost meter (issue 77's benchmark):
 * `entities` entities and one Alertmanager integration; `alerts` critical alerts spread over the
 * entities arrive in requests of `perRequest` through the api Lambda handler (functions/api.ts, as
 * API Gateway's HTTP API invokes it) over DynamoDB Local; then their resolves. After each phase the
 * change feed is drained through the stream function's filter and the queues' consumers
 * (metered-pipeline.ts), so the outside checks' state changes, the incidents and the notify jobs
 * they cause are counted with the requests. Shared by test/cost/ingest-cost.test.ts and
 * `npm run bench -- --only ingestcost`.
 */

export interface IngestCostOptions {
  endpoint: string;
  entities: number;
  alerts: number;
  perRequest: number;
  onProgress?: (line: string) => void;
}

export type IngestPhaseName = 'fire' | 'resolve';

export interface IngestCostPhase {
  phase: IngestPhaseName;
  requests: number;
  alerts: number;
  /** The answers' statuses, counted. */
  statuses: Record<string, number>;
  /** Entities in the state the phase should leave: down after firing, up after resolving. */
  inState: number;
  snapshot: MeterSnapshot;
  /** Per alert: the meter's figures plus API Gateway and the functions. */
  perAlert: CostFigures;
}

export async function runIngestCost(
  options: IngestCostOptions,
): Promise<Record<IngestPhaseName, IngestCostPhase>> {
  const { endpoint, entities, alerts, perRequest } = options;
  const progress = options.onProgress ?? (() => {});
  return withMeteredPipeline(
    { endpoint, name: 'ingestcost', logLevelVariable: 'COST_LOG_LEVEL' },
    async (pipeline) => {
      const { meter, clock, cloud } = pipeline;
      const key = pipeline.tenant.rawKey;
      const { request, setup } = apiFunctionClient(createApiHandler(cloud), clock, {
        key,
        userAgent: 'Alertmanager/0.25.0',
      });

      await cloud.app.tenants.setLimits(pipeline.tenant.id, { entity_limit_per_bp: entities });
      await setup('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
      const slugs = Array.from({ length: entities }, (_, i) => `s${i}`);
      for (const slug of slugs)
        await setup('POST', '/v1/blueprints/svc/entities', { slug, name: slug, fields: {} });
      const made = await setup('POST', '/v1/integrations', {
        name: 'Prometheus',
        kind: 'alertmanager',
        entity_rules: [{ match: { service: '/.+/' }, entity: 'svc/{{labels.service}}' }],
      });
      const token = String(made.token);
      progress(`${entities} entities and the integration made`);

      const batches = Array.from({ length: Math.ceil(alerts / perRequest) }, (_, r) =>
        Array.from({ length: Math.min(perRequest, alerts - r * perRequest) }, (_, k) => r * perRequest + k),
      );
      /** Entities of the blueprint in `want` (the route answers them all, as an array). */
      const statesIn = async (want: string) => {
        const list = (await setup('GET', '/v1/blueprints/svc/entities')) as unknown as { state: string }[];
        return list.filter((e) => e.state === want).length;
      };

      const phase = async (name: IngestPhaseName): Promise<IngestCostPhase> => {
        const status = name === 'fire' ? 'firing' : 'resolved';
        const statuses: Record<string, number> = {};
        clock.set(clock.now() + 60_000);
        meter.reset();
        pipeline.resetStreamRecords();
        meter.resume();
        for (const batch of batches) {
          clock.set(clock.now() + 10);
          meter.countApiRequest();
          meter.countInvocation('api');
          const body = alertmanagerWebhook(
            batch.map((n) => ({
              status,
              fingerprint: `fp-${n}`,
              alertname: `A${n}`,
              service: slugs[n % entities] ?? 's0',
              severity: 'critical',
              summary: `alert ${n}`,
            })),
          );
          const res = await request('POST', `/in/${token}`, body);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
        await pipeline.drainChanges();
        meter.pause();
        const snapshot = meter.snapshot();
        const inState = await statesIn(name === 'fire' ? 'down' : 'up');
        progress(
          `${name}: ${alerts} alerts in ${batches.length} requests, ${inState}/${entities} entities moved`,
        );
        return {
          phase: name,
          requests: batches.length,
          alerts,
          statuses,
          inState,
          snapshot,
          perAlert: priceSnapshot(snapshot, alerts),
        };
      };
      const fire = await phase('fire');
      const resolve = await phase('resolve');
      meter.detach();
      return { fire, resolve };
    },
  );
}
