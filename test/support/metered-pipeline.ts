import { EventBridgeClient, PutEventsCommand, type PutEventsCommandInput } from '@aws-sdk/client-eventbridge';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createStreamHandler } from '../../functions/stream.ts';
import { createBlueprintService } from '../../lib/catalog/blueprints/blueprint-service.ts';
import { createBlueprintStore } from '../../lib/catalog/blueprints/blueprint-store.ts';
import { createEntityService } from '../../lib/catalog/entities/entity-service.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { createDynamoTable } from '../../lib/dynamodb/dynamodb-table.ts';
import { STREAM_ENTITIES } from '../../lib/events/consumers.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import type { Table } from '../../lib/store/table.ts';
import { type CostMeter, createCostMeter } from './cost-meter.ts';
import { createCountedQueue } from './cost-queues.ts';
import { createTestTable } from './dynamodb-local.ts';
import { createStreamReader } from './dynamodb-stream.ts';
import { lambdaContext } from './lambda-context.ts';
import { startStatusServer } from './status-server.ts';

/**
 * The cloud runtime's pull-check pipeline under the cost meter, as the cost run and the cloud storm
 * drive it: the generator (once a minute, as EventBridge Scheduler fires it) -> the probe queue ->
 * the worker (one job per invocation, as the event-source mapping delivers them once their delay has
 * passed) -> the table's stream (the records the event-source filter keeps, 100 a batch, one shard
 * at a time) -> the notifier (`notifierConcurrency` invocations at once: Lambda scales it out) and
 * the action worker, over DynamoDB Local, with in-memory SQS queues on the run's fake clock and
 * EventBridge mocked (no local engine). Targets are a loopback HTTP server. The meter starts paused:
 * setup is not counted.
 */

export interface MeteredPipelineOptions {
  endpoint: string;
  /** Names the table and the event bus (`vigil-<name>`). */
  name: string;
  /** Extra configuration (e.g. VIGIL_EGRESS_ALLOW) and the egress trust (a receiver's test CA). */
  env?: Record<string, string>;
  egress?: { ca: string[] };
  /** Logs at warn to stderr when this environment variable says `warn`; silent otherwise. */
  logLevelVariable: string;
  notifierConcurrency?: number;
}

const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;
const SETUP_CONCURRENCY = 8;
const QUEUE = (name: string) => `https://sqs.us-east-1.amazonaws.com/123456789012/vigil-${name}`;

const imageEntity = (r: DynamoDBRecord) =>
  r.dynamodb?.NewImage?.entity?.S ?? r.dynamodb?.OldImage?.entity?.S ?? '';

/**
 * Whether the deployed mapping's filters (infra/change-feed.ts) pass a record: a type the
 * consumers read whole, or an incident's acknowledgement (open before, acknowledged after).
 */
const passesStreamFilter = (r: DynamoDBRecord) => {
  const entity = imageEntity(r);
  return STREAM_ENTITIES.some((e) =>
    typeof e === 'string'
      ? e === entity
      : e.entity === entity &&
        r.dynamodb?.NewImage?.state?.S === 'acknowledged' &&
        r.dynamodb?.OldImage?.state?.S === 'open',
  );
};

type StatusServer = Awaited<ReturnType<typeof startStatusServer>>;

export interface MeteredPipeline {
  meter: CostMeter;
  clock: ReturnType<typeof createFakeClock>;
  target: StatusServer;
  cloud: ReturnType<typeof createCloudApp>;
  tenant: { id: string; rawKey: string };
  /** The table through an unmetered client: what a run reads to check itself is not counted. */
  peek: Table;
  /** Records the stream function was given since the last `resetStreamRecords`. */
  streamRecords(): number;
  resetStreamRecords(): void;
  /**
   * Drains the change feed until the stream has handed over at least `count` records since the last
   * reset: a record DynamoDB Local's stream shows late (a loaded machine) belongs to the phase that
   * wrote it, not to the next one. Throws after `timeoutMs` (default 120 s) saying how many came.
   */
  awaitStreamRecords(count: number, timeoutMs?: number): Promise<void>;
  /**
   * One entity per check in a new blueprint, each with an http check of the loopback target, down
   * at its first failure; created a few at a time (DynamoDB Local answers concurrent requests faster
   * than one by one). Answers the check ids in the entities' order.
   */
  createHttpChecks(
    count: number,
    blueprint: { slug: string; name: string; entityName: string },
  ): Promise<string[]>;
  /** Runs the stream function, then the queues' consumers, until nothing is left to do now. */
  drainChanges(): Promise<void>;
  /** Minute `index` (0 is the warm-up): the generator at its start, then every probe job visible before its end. */
  minute(index: number, status: number, onDrained?: () => void): Promise<void>;
}

export async function withMeteredPipeline<T>(
  options: MeteredPipelineOptions,
  body: (pipeline: MeteredPipeline) => Promise<T>,
): Promise<T> {
  const { endpoint, name } = options;
  const notifierConcurrency = options.notifierConcurrency ?? 1;
  const testTable = await createTestTable(endpoint, `vigil-${name}`);
  const metered = testTable.connect();
  const meter = createCostMeter({ client: metered, peek: testTable.client, tableName: testTable.tableName });
  meter.pause();
  const clock = createFakeClock(START_MS);
  const target = await startStatusServer();
  const probes = createCountedQueue('probes', meter, clock.now);
  const notify = createCountedQueue('notify', meter, clock.now);
  const actions = createCountedQueue('actions', meter, clock.now);
  const bridge = new EventBridgeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  const bridgeMock = mockClient(bridge);
  bridgeMock.on(PutEventsCommand).callsFake((input: PutEventsCommandInput) => {
    const entries = input.Entries ?? [];
    meter.countEventBridgeEntries(entries.length);
    return { FailedEntryCount: 0, Entries: entries.map((_, i) => ({ EventId: `evt-${i}` })) };
  });
  const reader = createStreamReader(testTable.client, endpoint, testTable.tableName);
  try {
    const warn = process.env[options.logLevelVariable] === 'warn';
    const config = loadConfig('cloud', {
      VIGIL_TABLE_NAME: testTable.tableName,
      VIGIL_PROBE_QUEUE_URL: QUEUE('probes'),
      VIGIL_NOTIFY_QUEUE_URL: QUEUE('notify'),
      VIGIL_ACTION_QUEUE_URL: QUEUE('actions'),
      VIGIL_EVENT_BUS_NAME: `vigil-${name}-events`,
      VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
      ...options.env,
      VIGIL_LOG_LEVEL: warn ? 'warn' : 'silent',
    });
    const cloud = createCloudApp(config, {
      dynamodb: metered,
      clock,
      logWrite: warn ? (line: string) => process.stderr.write(`${line}\n`) : () => {},
      sqs: notify.sqs,
      actionSqs: actions.sqs,
      probeSqs: probes.sqs,
      eventBridge: bridge,
      ...(options.egress ? { egress: options.egress } : {}),
    });
    const { app, table } = cloud;
    const generator = cloud.generatorHandler();
    const worker = cloud.workerHandler();
    const notifier = cloud.notifierHandler();
    const actionWorker = cloud.actionWorkerHandler();
    const stream = createStreamHandler({
      consumers: cloud.streamConsumers,
      batched: cloud.batchedConsumers,
      powertools: cloud.powertools,
    });
    const created = await app.tenants.createTenant({ name, email: `ops@${name}.test` });
    const tenantId = created.tenant.id;

    const run = async (fn: string, handler: () => Promise<{ batchItemFailures?: unknown[] } | undefined>) => {
      meter.countInvocation(fn);
      const response = await handler();
      const failures = response?.batchItemFailures ?? [];
      if (failures.length > 0) throw new Error(`${fn}: ${failures.length} records failed`);
    };
    let streamRecords = 0;
    const drainChanges = async () => {
      for (let round = 0; round < 1000; round += 1) {
        const records = (await reader.readNew()).filter(passesStreamFilter);
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

    return await body({
      meter,
      clock,
      target,
      cloud,
      tenant: { id: tenantId, rawKey: created.rawKey },
      peek: createDynamoTable({ client: testTable.client, tableName: testTable.tableName }),
      streamRecords: () => streamRecords,
      resetStreamRecords: () => {
        streamRecords = 0;
      },
      async awaitStreamRecords(count, timeoutMs = 120_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          await drainChanges();
          if (streamRecords >= count) return;
          if (Date.now() > deadline)
            throw new Error(`the stream handed over ${streamRecords} of ${count} records in ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      async createHttpChecks(count, blueprint) {
        await app.tenants.setLimits(tenantId, { entity_limit_per_bp: count });
        const catalog = { table, clock, blueprints: createBlueprintStore(table), entities: app.entities };
        await createBlueprintService(catalog).create(tenantId, {
          slug: blueprint.slug,
          name: blueprint.name,
          description: '',
          fields: [],
          is_default: false,
        });
        const entityService = createEntityService(catalog);
        const checkIds: string[] = [];
        let next = 0;
        const createOne = async (): Promise<void> => {
          for (let i = next++; i < count; i = next++) {
            const entity = await entityService.create(tenantId, blueprint.slug, {
              slug: `${blueprint.slug}-${i}`,
              name: `${blueprint.entityName} ${i}`,
              fields: {},
            });
            const check = await app.checkService.create(tenantId, {
              entity_id: entity.id,
              check_type: 'http',
              target_url: target.url,
              interval_seconds: 60,
              // Generous: on a loaded machine a 5 s probe of the loopback target can time out, and a
              // healthy minute would then record a state change.
              timeout_ms: 30_000,
              failure_threshold: 1,
            });
            checkIds[i] = check.id;
          }
        };
        await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, createOne));
        return checkIds;
      },
      drainChanges,
      async minute(index, status, onDrained) {
        const start = START_MS + (index + 1) * MINUTE;
        clock.set(start);
        target.set(status);
        meter.countSchedulerInvocation();
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
          // One job per invocation, as the worker's event source delivers them (infra/checks.ts).
          const event = probes.take(clock.now(), 1);
          if (!event) continue;
          await run('worker', () => worker(event, lambdaContext('worker')));
          await drainChanges();
          onDrained?.();
        }
      },
    });
  } finally {
    reader.close();
    bridgeMock.restore();
    bridge.destroy();
    for (const queue of [probes, notify, actions]) queue.restore();
    await target.close();
    metered.destroy();
    await testTable.drop();
  }
}
