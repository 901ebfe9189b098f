import { EventBridgeClient, PutEventsCommand, type PutEventsCommandInput } from '@aws-sdk/client-eventbridge';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createStreamHandler } from '../../functions/stream.ts';
import { STREAM_ENTITIES } from '../../lib/app.ts';
import { createBlueprintService } from '../../lib/catalog/blueprint-service.ts';
import { createBlueprintStore } from '../../lib/catalog/blueprint-store.ts';
import { createEntityService } from '../../lib/catalog/entity-service.ts';
import { cellResultsPage } from '../../lib/checks/cell-result-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { latestResults } from '../../lib/checks/result-items.ts';
import { createCloudApp } from '../../lib/cloud/composition.ts';
import { createFakeClock, isoTime } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createDynamoTable } from '../../lib/store/dynamodb-table.ts';
import { createCostMeter } from './cost-meter.ts';
import { type CostFigures, type MeterSnapshot, priceSnapshot } from './cost-prices.ts';
import { createCountedQueue } from './cost-queues.ts';
import { createTestTable, localClient } from './dynamodb-local.ts';
import { createStreamReader } from './dynamodb-stream.ts';
import { lambdaContext } from './lambda-context.ts';
import { startStatusServer } from './status-server.ts';

/**
 * The pull-check path of the cloud runtime under the cost meter: the generator (once a minute, as
 * EventBridge Scheduler fires it) -> the probe queue -> the worker (one job per invocation, as the
 * event-source mapping delivers them when their delay has passed) -> the table's stream (the
 * records the event-source filter keeps, 100 a batch) -> the notifier and action worker, over
 * DynamoDB Local with a fake clock. Targets are a loopback HTTP server. One warm-up minute takes
 * every check from unknown to up unmetered; then two metered phases of `cycles` minutes each on the
 * same checks: `healthy` keeps every target at 200, `flapping` alternates 500 and 200 so every
 * result changes its check's state (and its entity's: one entity per check).
 * Shared by test/cost/pull-check-cost.test.ts and `npm run bench -- --only cost`.
 */

export type CostMode = 'healthy' | 'flapping';

export interface CostRunOptions {
  endpoint: string;
  checks: number;
  cycles: number;
  onProgress?: (line: string) => void;
}

export interface CostRun {
  mode: CostMode;
  checks: number;
  cycles: number;
  /** Probe jobs the worker ran in the metered minutes. */
  results: number;
  /** Results each check gained in the metered minutes, as stored (lowest and highest). */
  resultsPerCheck: { min: number; max: number };
  snapshot: MeterSnapshot;
  /** Stream records the event-source filter passes to the stream function (metered minutes). */
  keptStreamRecords: number;
  perResult: CostFigures;
  /** The partition keys that took the most write units in one (wall-clock) second, hottest first. */
  hottestKeys: { pk: string; second: number; wcu: number }[];
  /** Wall-clock seconds of the metered minutes. */
  seconds: number;
}

const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;
const SETUP_CONCURRENCY = 8;
const QUEUE = (name: string) => `https://sqs.us-east-1.amazonaws.com/123456789012/vigil-${name}`;

const imageEntity = (r: DynamoDBRecord) =>
  r.dynamodb?.NewImage?.entity?.S ?? r.dynamodb?.OldImage?.entity?.S ?? '';

export async function runPullCheckCost(options: CostRunOptions): Promise<Record<CostMode, CostRun>> {
  const { endpoint, checks, cycles } = options;
  const progress = options.onProgress ?? (() => {});
  const testTable = await createTestTable(endpoint, 'vigil-cost');
  const metered = localClient(endpoint);
  const meter = createCostMeter({ client: metered, peek: testTable.client, tableName: testTable.tableName });
  // Setup and the warm-up minute are not counted: no reads around their writes either.
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
    const config = loadConfig('cloud', {
      VIGIL_TABLE_NAME: testTable.tableName,
      VIGIL_PROBE_QUEUE_URL: QUEUE('probes'),
      VIGIL_NOTIFY_QUEUE_URL: QUEUE('notify'),
      VIGIL_ACTION_QUEUE_URL: QUEUE('actions'),
      VIGIL_EVENT_BUS_NAME: 'vigil-cost-events',
      VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
      VIGIL_LOG_LEVEL: process.env.COST_LOG_LEVEL === 'warn' ? 'warn' : 'silent',
    });
    const cloud = createCloudApp(config, {
      dynamodb: metered,
      clock,
      logWrite:
        process.env.COST_LOG_LEVEL === 'warn'
          ? (line: string) => process.stderr.write(`${line}\n`)
          : () => {},
      sqs: notify.sqs,
      actionSqs: actions.sqs,
      probeSqs: probes.sqs,
      eventBridge: bridge,
    });
    const { app, table } = cloud;
    const generator = cloud.generatorHandler();
    const worker = cloud.workerHandler();
    const notifier = cloud.notifierHandler();
    const actionWorker = cloud.actionWorkerHandler();
    const stream = createStreamHandler({ consumers: cloud.streamConsumers, powertools: cloud.powertools });

    // Setup (unmetered below): one entity per check, each check down at its first failure.
    const created = await app.tenants.createTenant({ name: 'Cost', email: 'ops@cost.test' });
    const tenantId = created.tenant.id;
    await app.tenants.setLimits(tenantId, { entity_limit_per_bp: checks });
    const catalog = { table, clock, blueprints: createBlueprintStore(table), entities: app.entities };
    await createBlueprintService(catalog).create(tenantId, {
      slug: 'service',
      name: 'Service',
      description: '',
      fields: [],
      is_default: false,
    });
    const entityService = createEntityService(catalog);
    const checkIds: string[] = [];
    // A few at a time: DynamoDB Local answers concurrent requests faster than one by one.
    let next = 0;
    const createOne = async (): Promise<void> => {
      for (let i = next++; i < checks; i = next++) {
        const entity = await entityService.create(tenantId, 'service', {
          slug: `svc-${i}`,
          name: `Service ${i}`,
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
        checkIds.push(check.id);
      }
    };
    await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, createOne));
    progress(`${checks} checks created`);

    const run = async (fn: string, handler: () => Promise<{ batchItemFailures?: unknown[] } | undefined>) => {
      meter.countInvocation(fn);
      const response = await handler();
      const failures = response?.batchItemFailures ?? [];
      if (failures.length > 0) throw new Error(`${fn}: ${failures.length} records failed`);
    };
    let kept = 0;
    /** The stream function, then the notifier and action worker, until nothing is left to do now. */
    const drainChanges = async () => {
      for (let round = 0; round < 100; round += 1) {
        const records = (await reader.readNew()).filter((r) => STREAM_ENTITIES.includes(imageEntity(r)));
        kept += records.length;
        for (let i = 0; i < records.length; i += 100) {
          const batch = records.slice(i, i + 100);
          await run('stream', () => stream({ Records: batch }, lambdaContext('stream')));
        }
        let batches = 0;
        for (const [fn, queue, handler] of [
          ['notifier', notify, notifier],
          ['actions', actions, actionWorker],
        ] as const) {
          for (let event = queue.take(clock.now()); event; event = queue.take(clock.now())) {
            const delivered = event;
            await run(fn, () => handler(delivered, lambdaContext(fn)));
            batches += 1;
          }
        }
        if (records.length === 0 && batches === 0) return;
      }
      throw new Error('the change feed did not settle');
    };

    let results = 0;
    /** One minute: the generator at its start, then every probe job visible before its end. */
    const minute = async (index: number, status: number) => {
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
      }
    };

    const peekTable = createDynamoTable({ client: testTable.client, tableName: testTable.tableName });
    /** Results stored per check: push checks' own items, pull checks' entries in their cell's slots. */
    const stored = async () => {
      const definitions = await Promise.all(
        checkIds.map((id) => getCheckDefinition(peekTable, tenantId, id)),
      );
      const cellIds = [...new Set(definitions.flatMap((d) => (d?.cell ? [d.cell.cell_id] : [])))];
      const perCheck = new Map<string, number>();
      for (const cellId of cellIds) {
        const page = await cellResultsPage(peekTable, cellId, { limit: 100 });
        for (const slot of page.slots)
          for (const entry of slot.results) perCheck.set(entry.c, (perCheck.get(entry.c) ?? 0) + 1);
      }
      return Promise.all(
        definitions.map(async (d, i) =>
          d?.cell
            ? (perCheck.get(d.id) ?? 0)
            : (await latestResults(peekTable, checkIds[i] ?? '', 100)).length,
        ),
      );
    };
    await minute(0, 200);
    progress('warm-up minute done: every check up');
    let minutes = 1;
    /** `cycles` metered minutes; flapping: 500 then 200 and so on, so every result changes state. */
    const phase = async (mode: CostMode): Promise<CostRun> => {
      const before = await stored();
      meter.reset();
      meter.resume();
      const startedMs = Date.now();
      results = 0;
      kept = 0;
      for (let c = 1; c <= cycles; c += 1) {
        await minute(minutes, mode === 'flapping' && c % 2 === 1 ? 500 : 200);
        minutes += 1;
        progress(`${mode}: minute ${c} of ${cycles}`);
      }
      const snapshot = meter.snapshot();
      const hottestKeys = meter.hottestKeys(5);
      const seconds = (Date.now() - startedMs) / 1000;
      const gained = (await stored()).map((n, i) => n - (before[i] ?? 0));
      // Per check result: a cell's message carries up to 100.
      results = gained.reduce((sum, n) => sum + n, 0);
      return {
        mode,
        checks,
        cycles,
        results,
        resultsPerCheck: { min: Math.min(...gained), max: Math.max(...gained) },
        snapshot,
        keptStreamRecords: kept,
        perResult: priceSnapshot(snapshot, results),
        hottestKeys,
        seconds,
      };
    };
    const healthy = await phase('healthy');
    const flapping = await phase('flapping');
    meter.detach();
    return { healthy, flapping };
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
