import { EventBridgeClient, PutEventsCommand, type PutEventsCommandInput } from '@aws-sdk/client-eventbridge';
import type { APIGatewayProxyEventV2, Context, DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createApiHandler } from '../../functions/api.ts';
import { createStreamHandler } from '../../functions/stream.ts';
import { STREAM_ENTITIES } from '../../lib/app.ts';
import { createBlueprintService } from '../../lib/catalog/blueprint-service.ts';
import { createBlueprintStore } from '../../lib/catalog/blueprint-store.ts';
import { createEntityService } from '../../lib/catalog/entity-service.ts';
import { createCloudApp } from '../../lib/cloud/composition.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { startReceiver } from '../notify/channels/receiver.ts';
import { createCostMeter } from './cost-meter.ts';
import { createCountedQueue } from './cost-queues.ts';
import { createTestTable, localClient } from './dynamodb-local.ts';
import { createStreamReader } from './dynamodb-stream.ts';
import { lambdaContext } from './lambda-context.ts';
import { startStatusServer } from './status-server.ts';
import { createTlsFixtures } from './tls-fixtures.ts';

/**
 * Issue 35's storm in the cloud: `entities` entities of one tenant, one http check each (down at
 * the first failure), one tenant webhook channel and a route sending every alert to it, through the
 * cloud handlers over DynamoDB Local (the cost run's harness: in-memory SQS queues on the run's fake
 * clock, the stream read from DynamoDB Local's stream in batches of 100, as the event-source mapping
 * delivers them). One warm-up minute (unmetered) takes every check up; then the target answers 500
 * and the metered minute runs: the generator, each cell's probe job, the stream function, and the
 * notifier, `notifierConcurrency` invocations at once (Lambda scales the notifier out; one stream
 * shard is one invocation at a time). Measured: wall-clock seconds from the failing minute's
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

const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;
const SETUP_CONCURRENCY = 8;
const SECRET = 'whsec-storm-cloud';
const QUEUE = (name: string) => `https://sqs.us-east-1.amazonaws.com/123456789012/vigil-${name}`;
const imageEntity = (r: DynamoDBRecord) =>
  r.dynamodb?.NewImage?.entity?.S ?? r.dynamodb?.OldImage?.entity?.S ?? '';

export async function runStormCloud(options: {
  endpoint: string;
  entities: number;
  notifierConcurrency?: number;
  onProgress?: (line: string) => void;
}): Promise<StormCloudRun> {
  const { endpoint, entities } = options;
  const progress = options.onProgress ?? (() => {});
  const notifierConcurrency = options.notifierConcurrency ?? 10;
  const testTable = await createTestTable(endpoint, 'vigil-storm');
  const metered = localClient(endpoint);
  const meter = createCostMeter({ client: metered, peek: testTable.client, tableName: testTable.tableName });
  meter.pause();
  const clock = createFakeClock(START_MS);
  const target = await startStatusServer();
  const tls = createTlsFixtures();
  const receiver = await startReceiver(tls.valid, SECRET);
  const probes = createCountedQueue('probes', meter, clock.now);
  const notify = createCountedQueue('notify', meter, clock.now);
  const actions = createCountedQueue('actions', meter, clock.now);
  const bridge = new EventBridgeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  const bridgeMock = mockClient(bridge);
  bridgeMock.on(PutEventsCommand).callsFake((input: PutEventsCommandInput) => ({
    FailedEntryCount: 0,
    Entries: (input.Entries ?? []).map((_, i) => ({ EventId: `evt-${i}` })),
  }));
  const reader = createStreamReader(testTable.client, endpoint, testTable.tableName);
  try {
    const config = loadConfig('cloud', {
      VIGIL_TABLE_NAME: testTable.tableName,
      VIGIL_PROBE_QUEUE_URL: QUEUE('probes'),
      VIGIL_NOTIFY_QUEUE_URL: QUEUE('notify'),
      VIGIL_ACTION_QUEUE_URL: QUEUE('actions'),
      VIGIL_EVENT_BUS_NAME: 'vigil-storm-events',
      VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      VIGIL_LOG_LEVEL: process.env.STORM_LOG_LEVEL === 'warn' ? 'warn' : 'silent',
    });
    const cloud = createCloudApp(config, {
      dynamodb: metered,
      clock,
      logWrite:
        process.env.STORM_LOG_LEVEL === 'warn'
          ? (line: string) => process.stderr.write(`${line}\n`)
          : () => {},
      sqs: notify.sqs,
      actionSqs: actions.sqs,
      probeSqs: probes.sqs,
      eventBridge: bridge,
      egress: { ca: [tls.caCert] },
    });
    const { app, table } = cloud;
    const api = createApiHandler(cloud);
    const generator = cloud.generatorHandler();
    const worker = cloud.workerHandler();
    const notifier = cloud.notifierHandler();
    const actionWorker = cloud.actionWorkerHandler();
    const stream = createStreamHandler({ consumers: cloud.streamConsumers, powertools: cloud.powertools });

    const setupStarted = Date.now();
    const created = await app.tenants.createTenant({ name: 'Storm', email: 'ops@storm.test' });
    const tenantId = created.tenant.id;
    const call = async (method: string, path: string, body: unknown) => {
      const event: APIGatewayProxyEventV2 = {
        version: '2.0',
        routeKey: '$default',
        rawPath: path,
        rawQueryString: '',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${created.rawKey}` },
        requestContext: {
          accountId: '123456789012',
          apiId: 'api',
          domainName: 'api.example.com',
          domainPrefix: 'api',
          http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
          requestId: `storm-${path}`,
          routeKey: '$default',
          stage: '$default',
          time: new Date().toISOString(),
          timeEpoch: Date.now(),
        },
        body: JSON.stringify(body),
        isBase64Encoded: false,
      };
      const out = await api(event, { awsRequestId: 'storm', functionName: 'api' } as unknown as Context);
      if ((out.statusCode ?? 500) >= 300) throw new Error(`${method} ${path}: ${out.statusCode} ${out.body}`);
      return JSON.parse(out.body ?? '{}') as { id: string };
    };
    await app.tenants.setLimits(tenantId, { entity_limit_per_bp: entities });
    const catalog = { table, clock, blueprints: createBlueprintStore(table), entities: app.entities };
    await createBlueprintService(catalog).create(tenantId, {
      slug: 'host',
      name: 'Host',
      description: '',
      fields: [],
      is_default: false,
    });
    const channel = await call('POST', '/v1/notify/channels', {
      name: 'storm receiver',
      channel_type: 'webhook',
      config: { url: `${receiver.origin}/webhook`, secret: SECRET },
    });
    await call('POST', '/v1/notify/routes', { match: {}, channel_ids: [channel.id] });
    const entityService = createEntityService(catalog);
    let next = 0;
    const createOne = async (): Promise<void> => {
      for (let i = next++; i < entities; i = next++) {
        const entity = await entityService.create(tenantId, 'host', {
          slug: `web-${i}`,
          name: `Web ${i}`,
          fields: {},
        });
        await app.checkService.create(tenantId, {
          entity_id: entity.id,
          check_type: 'http',
          target_url: target.url,
          interval_seconds: 60,
          timeout_ms: 30_000,
          failure_threshold: 1,
        });
        if ((i + 1) % 1000 === 0) progress(`${i + 1} of ${entities} entities created`);
      }
    };
    await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, createOne));

    const run = async (fn: string, handler: () => Promise<{ batchItemFailures?: unknown[] } | undefined>) => {
      meter.countInvocation(fn);
      const response = await handler();
      const failures = response?.batchItemFailures ?? [];
      if (failures.length > 0) throw new Error(`${fn}: ${failures.length} records failed`);
    };
    let streamRecords = 0;
    /** The stream function (one batch at a time, as one shard), then the queues' consumers, until idle. */
    const drainChanges = async () => {
      for (let round = 0; round < 1000; round += 1) {
        const records = (await reader.readNew()).filter((r) => STREAM_ENTITIES.includes(imageEntity(r)));
        streamRecords += records.length;
        for (let i = 0; i < records.length; i += 100) {
          const batch = records.slice(i, i + 100);
          await run('stream', () => stream({ Records: batch }, lambdaContext('stream')));
        }
        let batches = 0;
        for (const [fn, queue, handler, width] of [
          ['notifier', notify, notifier, notifierConcurrency],
          ['actions', actions, actionWorker, 1],
        ] as const) {
          for (;;) {
            const events = [];
            while (events.length < width) {
              const event = queue.take(clock.now());
              if (!event) break;
              events.push(event);
            }
            if (events.length === 0) break;
            await Promise.all(events.map((event) => run(fn, () => handler(event, lambdaContext(fn)))));
            batches += events.length;
          }
        }
        if (records.length === 0 && batches === 0) return;
      }
      throw new Error('the change feed did not settle');
    };
    const minute = async (index: number, status: number, onDrained?: () => void) => {
      const start = START_MS + (index + 1) * MINUTE;
      clock.set(start);
      target.set(status);
      await run('generator', async () => {
        await generator({ scheduled_time: isoTime(start) });
        return undefined;
      });
      for (
        let at = probes.nextVisibleAt();
        at !== undefined && at < start + MINUTE;
        at = probes.nextVisibleAt()
      ) {
        clock.set(Math.max(clock.now(), at));
        const event = probes.take(clock.now(), 1);
        if (!event) continue;
        await run('worker', () => worker(event, lambdaContext('worker')));
        await drainChanges();
        onDrained?.();
      }
    };
    await minute(0, 200);
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
    await minute(1, 500, () => {
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
      streamRecords,
    };
  } finally {
    reader.close();
    bridgeMock.restore();
    bridge.destroy();
    for (const queue of [probes, notify, actions]) queue.restore();
    await receiver.close();
    await target.close();
    metered.destroy();
    await testTable.drop();
  }
}
