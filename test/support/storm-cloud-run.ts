import type { Context } from 'aws-lambda';
import { createApiHandler } from '../../functions/api.ts';
import { startReceiver } from '../notify/channels/receiver.ts';
import { apiEvent } from './lambda-context.ts';
import { withMeteredPipeline } from './metered-pipeline.ts';
import { createTlsFixtures } from './tls-fixtures.ts';

/**
 * Issue 35's storm in the cloud: `entities` entities of one tenant, one http check each (down at
 * the first failure), one tenant webhook channel and a route sending every alert to it, through the
 * cloud handlers over DynamoDB Local (./metered-pipeline.ts, as the cost run). One warm-up minute
 * (unmetered) takes every check up; then the target answers 500 and the metered minute runs: the
 * generator, each cell's probe job, the stream function, and the notifier, `notifierConcurrency`
 * invocations at once (Lambda scales the notifier out; one stream shard is one invocation at a time). Measured: wall-clock seconds from the failing minute's
 * generator until the HTTPS receiver on 127.0.0.1 has an alert for every entity, and the write
 * units per partition key per second (the cost meter).
 */

export interface StormCloudRun {
  entities: number;
  setupSeconds: number;
  /** Wall-clock seconds until every entity's alert reached the receiver. */
  alertSeconds: number;
  /** Distinct entities the receiver was told about. */
  entitiesAlerted: number;
  webhooks: number;
  hottestKeys: { pk: string; second: number; wcu: number }[];
  /** SQS requests by queue and operation during the storm. */
  sqsRequests: Record<string, number>;
  streamRecords: number;
}

const SECRET = 'whsec-storm-cloud';

export async function runStormCloud(options: {
  endpoint: string;
  entities: number;
  notifierConcurrency?: number;
  onProgress?: (line: string) => void;
}): Promise<StormCloudRun> {
  const { endpoint, entities } = options;
  const progress = options.onProgress ?? (() => {});
  const tls = createTlsFixtures();
  const receiver = await startReceiver(tls.valid, SECRET);
  try {
    return await withMeteredPipeline(
      {
        endpoint,
        name: 'storm',
        env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
        egress: { ca: [tls.caCert] },
        logLevelVariable: 'STORM_LOG_LEVEL',
        notifierConcurrency: options.notifierConcurrency ?? 10,
      },
      async (pipeline) => {
        const { meter } = pipeline;
        const setupStarted = Date.now();
        const api = createApiHandler(pipeline.cloud);
        const call = async (method: string, path: string, body: unknown) => {
          const event = apiEvent(method, path, {
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${pipeline.tenant.rawKey}`,
            },
            body: Buffer.from(JSON.stringify(body)),
            userAgent: 'bench',
            requestId: `storm-${path}`,
          });
          const out = await api(event, { awsRequestId: 'storm', functionName: 'api' } as unknown as Context);
          if ((out.statusCode ?? 500) >= 300)
            throw new Error(`${method} ${path}: ${out.statusCode} ${out.body}`);
          return JSON.parse(out.body ?? '{}') as { id: string };
        };
        const channel = await call('POST', '/v1/notify/channels', {
          name: 'storm receiver',
          channel_type: 'webhook',
          config: { url: `${receiver.origin}/webhook`, secret: SECRET },
        });
        await call('POST', '/v1/notify/routes', { match: {}, channel_ids: [channel.id] });
        await pipeline.createHttpChecks(entities, { slug: 'host', name: 'Host', entityName: 'Web' });
        progress(`${entities} entities created`);
        await pipeline.minute(0, 200);
        const setupSeconds = (Date.now() - setupStarted) / 1000;
        progress(`setup and warm-up minute: ${Math.round(setupSeconds)} s, every check up`);
        receiver.received.length = 0;

        const alerted = new Set<string>();
        let webhooks = 0;
        const tally = () => {
          for (const r of receiver.received.splice(0)) {
            webhooks += 1;
            const body = JSON.parse(r.body.toString('utf8')) as {
              entity_id?: string;
              events?: { entity_id: string }[];
            };
            // An alert names its entity; a digest (issue 35's fold) lists its events.
            for (const id of body.events?.map((e) => e.entity_id) ?? [body.entity_id ?? ''])
              if (id) alerted.add(id);
          }
        };
        meter.reset();
        meter.resume();
        const stormStarted = Date.now();
        let allAt: number | undefined;
        await pipeline.minute(1, 500, () => {
          tally();
          if (allAt === undefined && alerted.size >= entities) allAt = Date.now();
        });
        tally();
        if (allAt === undefined && alerted.size >= entities) allAt = Date.now();
        const snapshot = meter.snapshot();
        meter.detach();
        return {
          entities,
          setupSeconds,
          alertSeconds: ((allAt ?? Date.now()) - stormStarted) / 1000,
          entitiesAlerted: alerted.size,
          webhooks,
          hottestKeys: meter.hottestKeys(100),
          sqsRequests: snapshot.sqsRequests,
          streamRecords: pipeline.streamRecords(),
        };
      },
    );
  } finally {
    await receiver.close();
  }
}
