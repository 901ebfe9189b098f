import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { Context, DynamoDBRecord } from 'aws-lambda';
import { Agent } from 'undici';
import { inject } from 'vitest';
import { createActionWorkerLambda } from '../../functions/actions.ts';
import { createApiHandler } from '../../functions/api.ts';
import { composeBrowserFunction, createBrowserLambda } from '../../functions/browser.ts';
import { createNotifierLambda } from '../../functions/notifier.ts';
import { createStreamHandler } from '../../functions/stream.ts';
import type { App, CoreDeps } from '../../lib/app.ts';
import { runOperatorCommand } from '../../lib/cli/operator.ts';
import { type CloudOverrides, createCloudApp } from '../../lib/cloud/http-composition.ts';
import type { GeneratorCounts } from '../../lib/cloud/workers/generator.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import type { SchedulerOptions } from '../../lib/local/scheduler.ts';
import { type Clock, isoTime, systemClock } from '../../lib/platform/clock.ts';
import { type Config, loadConfig } from '../../lib/platform/config.ts';
import type { RetrySchedule } from '../../lib/platform/job-queue.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { createBrowserRunner } from '../../lib/probes/browser-runner.ts';
import type { Table } from '../../lib/store/table.ts';
import { createTestTable } from './dynamodb-local.ts';
import { createStreamReader } from './dynamodb-stream.ts';
import { DEPLOYED_QUEUES, type FauxqsEngine, startFauxqsEngine, type TestQueue } from './fauxqs.ts';
import { apiEvent } from './lambda-context.ts';
import { createSqsEventSource, type SqsEventSource } from './sqs-event-source.ts';

/** One API surface, driven either over real HTTP (local runtime) or through the Lambda handler. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
  body: any;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as-is instead of JSON. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * The source address the server sees: locally the client binds to it (any of 127.0.0.0/8, all
   * loopback), the Lambda harness puts it in the event's `sourceIp`. Default 127.0.0.1.
   */
  sourceIp?: string;
}

export interface ApiHarness {
  runtime: 'local' | 'lambda';
  /** The composed core (services, route table) behind this harness. */
  app: App;
  adminKey: string;
  tenantId: string;
  table: Table;
  /** Every log line written so far. */
  logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Creates another tenant through the operator path; returns its admin key. */
  createTenant(name?: string): Promise<{ tenantId: string; key: string }>;
  /** Feeds every pending change-feed record to the app's consumers until none are left. */
  drainChanges(): Promise<void>;
  /**
   * Runs the notify jobs visible now until none is left (delayed ones, retries and repeats, stay
   * queued): the local job runner going idle, or the notifier Lambda polling the notify queue (fauxqs).
   */
  runNotifyJobs(): Promise<void>;
  /** Runs an operator CLI command against this harness's store. */
  operator(argv: string[]): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /**
   * Local runtime only: scheduler tuning and hooks (e.g. onJobStart), or false for no background
   * scheduler. Default: running, except on a caller's clock (fake time is driven by hand).
   */
  scheduler?: SchedulerOptions | false;
  /**
   * Local runtime only: the scheduled actions' tick (default every second). A test that moves fake
   * timers by hand in long steps ticks it once a step instead of once a fake second.
   */
  actionScheduleTickMs?: number;
  /** Outbound TLS trust and name resolution of the channels (a test CA for HTTPS receivers). */
  egress?: CoreDeps['egress'];
  /** Lambda runtime only: the EventBridge client the stream function publishes with (set VIGIL_EVENT_BUS_NAME). */
  eventBridge?: EventBridgeClient;
  /** Lambda runtime only: a DynamoDB Local of the test's own (default: the global setup's). */
  dynamodbEndpoint?: string;
  /**
   * Lambda runtime only: the notify and action queues' retry schedule (default OUTAGE_RETRIES);
   * their maxReceiveCount follows it.
   */
  queueRetries?: RetrySchedule;
  /** Lambda runtime only: how the api function invokes the draft browser function (test/support/browser-function.ts). */
  draftBrowserInvoke?: CloudOverrides['draftBrowserInvoke'];
}

/** One queue of the Lambda harness on its SQS engine (fauxqs). */
export interface HarnessQueue extends TestQueue {
  /** Messages in the queue: ready, delayed and in flight. */
  size(): number;
  /** Bodies of the messages its redrive policy moved to the DLQ. */
  deadLetterBodies(): string[];
  /** Bodies of every message sent to the queue so far, oldest first. */
  sentBodies(): string[];
  /** When each in-flight message becomes visible again (epoch ms). */
  inflightUntil(): number[];
}

/**
 * The Lambda harness also exposes its SQS engine (fauxqs, test/support/fauxqs.ts) and the notify,
 * action and probe queues on it, shaped like the deployed ones (visibility, redrive to a DLQ).
 */
export interface LambdaHarness extends ApiHarness {
  sqs: FauxqsEngine;
  /** The DynamoDB client every function of the harness uses (a test may add middleware). */
  dynamodb: DynamoDBClient;
  /** The harness's table on DynamoDB Local (a test composing a function of its own points it there). */
  tableName: string;
  /** Feeds the stream records written since the last call to the stream handler; answers how many. */
  runStreamOnce(): Promise<number>;
  /**
   * Reads the stream records written since the last read without feeding them (a store loaded as
   * an earlier release left it: that release handled its own changes); answers how many.
   */
  skipChanges(): Promise<number>;
  notifySqs: HarnessQueue;
  actionSqs: HarnessQueue;
  probeSqs: HarnessQueue;
  /** The browser function's queue (browser checks' slots the worker sends there). */
  browserSqs: HarnessQueue;
  /**
   * Runs the browser jobs visible now through the browser Lambda (its own composition, no table;
   * Debian's Chromium standing in for the Lambda's) until none is left.
   */
  runBrowserJobs(): Promise<void>;
  /** Runs the action jobs visible now through the action worker Lambda until none is left (delayed ones stay queued). */
  runActionJobs(): Promise<void>;
  /** Runs the probe jobs visible now through the worker Lambda (batch size 1) until none is left. */
  runProbeJobs(): Promise<void>;
  /** The event-source mappings of the notifier, the action worker and the probe worker (their invocations). */
  eventSources: {
    notify: SqsEventSource;
    action: SqsEventSource;
    probe: SqsEventSource;
    browser: SqsEventSource;
  };
  /**
   * Runs the generator handler as the schedule invokes it for the minute of `scheduledMs` (default:
   * now): due checks go to the probe queue, due scheduled actions' runs to the action queue.
   */
  runGenerator(scheduledMs?: number): Promise<GeneratorCounts>;
}

/** The local harness also exposes the running runtime (scheduler, table) and its data dir. */
export interface LocalHarness extends ApiHarness {
  local: LocalRuntime;
  dataDir: string;
}

/**
 * Rate limits are off unless a test sets them: tests send many requests with one key, and many
 * failed authentications, from one address in a moment. test/auth/rate-limit*.test.ts turn them on.
 */
const NO_RATE_LIMITS = { VIGIL_RATE_LIMIT_RPS: '0', VIGIL_AUTH_FAILURE_LIMIT: '0' };
/** A created check waits for its slots unless a test asks for its first probe (VIGIL_FIRST_PROBE). */
const NO_FIRST_PROBE = { VIGIL_FIRST_PROBE: 'false' };

function testConfig(runtime: 'local' | 'cloud', dataDir: string, env: Record<string, string> = {}): Config {
  return {
    ...loadConfig(runtime, { VIGIL_LOG_LEVEL: 'info', ...NO_RATE_LIMITS, ...NO_FIRST_PROBE, ...env }),
    dataDir,
    port: 0,
  };
}

function encodeBody(options: RequestOptions): { body: Buffer | undefined; contentType?: string } {
  if (options.rawBody !== undefined) return { body: Buffer.from(options.rawBody) };
  if (options.body === undefined) return { body: undefined };
  return { body: Buffer.from(JSON.stringify(options.body)), contentType: 'application/json' };
}

function headersFor(options: RequestOptions, contentType?: string): Record<string, string> {
  return {
    ...(contentType ? { 'content-type': contentType } : {}),
    ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
    ...options.headers,
  };
}

/** An answer as the harnesses give it: its body parsed as JSON, undefined when it is not JSON. */
export function parseResponse(status: number, headers: Record<string, string>, text: string): ApiResponse {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status, headers, body, text };
}

/** One undici agent per local source address (RequestOptions.sourceIp), its connections bound to it. */
const boundAgents = new Map<string, Agent>();
function boundAgent(address: string): Agent {
  let agent = boundAgents.get(address);
  if (agent === undefined) {
    agent = new Agent({ connect: { localAddress: address } });
    boundAgents.set(address, agent);
  }
  return agent;
}

/** The local runtime on an ephemeral loopback port, data in a temp dir, driven with fetch. */
export async function startLocalHarness(options: HarnessOptions = {}): Promise<LocalHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  const config = testConfig('local', dataDir, options.env);
  const runtime = await startLocalRuntime({
    config,
    logger,
    clock: options.clock ?? systemClock,
    host: '127.0.0.1',
    scheduler: options.scheduler ?? (options.clock ? false : {}),
    ...(options.actionScheduleTickMs ? { actionSchedule: { tickMs: options.actionScheduleTickMs } } : {}),
    ...(options.egress ? { egress: options.egress } : {}),
  });
  const adminKey = runtime.bootstrapKey ?? '';
  const tenantId = (await runtime.app.tenants.listTenants())[0]?.id ?? '';
  return {
    runtime: 'local',
    app: runtime.app,
    adminKey,
    tenantId,
    table: runtime.table,
    logs,
    dataDir,
    local: runtime,
    async request(method, path, opts = {}) {
      const { body, contentType } = encodeBody(opts);
      // Redirects come back as they are (SSO's 302s), as the Lambda harness answers them.
      const res = await fetch(`${runtime.url}${path}`, {
        method,
        headers: headersFor(opts, contentType),
        body,
        redirect: 'manual',
        ...(opts.sourceIp ? { dispatcher: boundAgent(opts.sourceIp) } : {}),
      });
      // Several Set-Cookie headers joined in order, as the Lambda harness joins payload v2's `cookies`.
      const cookies = res.headers.getSetCookie();
      const headers = Object.fromEntries(res.headers);
      if (cookies.length > 0) headers['set-cookie'] = cookies.join(', ');
      return parseResponse(res.status, headers, await res.text());
    },
    async createTenant(name = 'Other') {
      const created = await runtime.app.tenants.createTenant({
        name,
        email: `${name.toLowerCase()}@example.com`,
      });
      return { tenantId: created.tenant.id, key: created.rawKey };
    },
    drainChanges: () => runtime.drainChanges(),
    runNotifyJobs: () => runtime.notifyRunner.idle(),
    operator: (argv) => runOperatorCommand(argv, { table: runtime.table, clock: systemClock }),
    async close() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  } satisfies LocalHarness;
}

let requestCounter = 0;
/** How many times the harness's stream mapping delivers a failed batch again (deployed: for an hour). */
const STREAM_REDELIVERIES = 3;

/** The api Lambda handler over a fresh DynamoDB Local table, driven with API Gateway v2 events. */
export async function startLambdaHarness(options: HarnessOptions = {}): Promise<LambdaHarness> {
  const endpoint = options.dynamodbEndpoint ?? inject('dynamodbEndpoint');
  const testTable = await createTestTable(endpoint);
  const logs: string[] = [];
  const engine = await startFauxqsEngine();
  const harnessQueue = (name: string, shape: TestQueue['shape']): HarnessQueue => {
    const queue = engine.createQueue(name, shape);
    return {
      ...queue,
      size: () => engine.size(name),
      deadLetterBodies: () => engine.bodies(queue.dlqName),
      sentBodies: () => engine.sentBodies(name),
      inflightUntil: () =>
        (engine.server.inspectQueue(name)?.messages.inflight ?? []).map((m) => m.visibilityDeadline),
    };
  };
  const retried = (shape: TestQueue['shape']) =>
    options.queueRetries ? { ...shape, maxReceiveCount: options.queueRetries.maxAttempts } : shape;
  const notifySqs = harnessQueue('vigil-notify', retried(DEPLOYED_QUEUES.notify));
  const actionSqs = harnessQueue('vigil-actions', retried(DEPLOYED_QUEUES.action));
  const probeSqs = harnessQueue('vigil-probes', DEPLOYED_QUEUES.probe);
  const browserSqs = harnessQueue('vigil-browser', DEPLOYED_QUEUES.browser);
  const config = testConfig('cloud', '/nonexistent', {
    VIGIL_TABLE_NAME: testTable.tableName,
    VIGIL_NOTIFY_QUEUE_URL: notifySqs.url,
    VIGIL_ACTION_QUEUE_URL: actionSqs.url,
    VIGIL_PROBE_QUEUE_URL: probeSqs.url,
    // Screenshots in a bucket of the same engine (fauxqs speaks S3 too).
    VIGIL_ARTIFACT_BUCKET: engine.server.createBucket('vigil-artifacts').bucketName,
    VIGIL_BROWSER_QUEUE_URL: browserSqs.url,
    ...options.env,
  });
  // The same composition and middy edges as the deployed functions, over DynamoDB Local.
  const cloud = createCloudApp(
    { ...config, logLevel: 'debug' },
    {
      dynamodb: testTable.client,
      clock: options.clock ?? systemClock,
      logWrite: (line) => logs.push(line),
      sqs: engine.sqs,
      s3: engine.s3,
      ...(options.egress ? { egress: options.egress } : {}),
      ...(options.eventBridge ? { eventBridge: options.eventBridge } : {}),
      ...(options.queueRetries ? { queueRetries: options.queueRetries } : {}),
      ...(options.draftBrowserInvoke ? { draftBrowserInvoke: options.draftBrowserInvoke } : {}),
    },
  );
  const { app, table } = cloud;
  const handler = createApiHandler(cloud);
  const streamHandler = createStreamHandler({
    consumers: cloud.streamConsumers,
    batched: cloud.batchedConsumers,
    powertools: cloud.powertools,
  });
  const notifierHandler = createNotifierLambda(cloud);
  const actionWorkerHandler = createActionWorkerLambda(cloud);
  // The composition's handler itself: importing functions/generator.ts would build a second app
  // from process.env at module load, where no probe queue is configured.
  const generatorHandler = cloud.generatorHandler();
  const stream = createStreamReader(testTable.client, endpoint, testTable.tableName);
  /**
   * As the deployed event-source mapping (ReportBatchItemFailures, infra/change-feed.ts): a batch
   * whose answer names a failed record is delivered again from that record on, with the records
   * written since; here at most STREAM_REDELIVERIES times (then dropped, as its DLQ would take it).
   */
  let redeliver: { records: DynamoDBRecord[]; times: number } = { records: [], times: 0 };
  const feedStream = async (): Promise<number> => {
    const records = [...redeliver.records, ...(await stream.readNew())];
    const times = redeliver.records.length > 0 ? redeliver.times + 1 : 0;
    redeliver = { records: [], times: 0 };
    if (records.length === 0) return 0;
    const answer = await streamHandler({ Records: records }, context);
    const failed = new Set((answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    const from = records.findIndex((r) => failed.has(r.dynamodb?.SequenceNumber ?? ''));
    if (from >= 0 && times < STREAM_REDELIVERIES) redeliver = { records: records.slice(from), times };
    return records.length;
  };
  const first = await app.tenants.createTenant({ name: 'Local', email: 'admin@localhost' });
  const context = { awsRequestId: 'test', functionName: 'api' } as unknown as Context;
  // The notifier's and the action worker's event-source mappings, polled when a test asks.
  const notifySource = createSqsEventSource({
    sqs: engine.sqs,
    queue: notifySqs,
    handler: notifierHandler,
    functionName: 'notifier',
  });
  const actionSource = createSqsEventSource({
    sqs: engine.sqs,
    queue: actionSqs,
    handler: actionWorkerHandler,
    functionName: 'actions',
  });
  const probeSource = createSqsEventSource({
    sqs: engine.sqs,
    queue: probeSqs,
    handler: cloud.workerHandler(),
    functionName: 'worker',
  });
  // The browser function as deployed but for its Chromium: the runner's child with Debian's.
  const browserSource = createSqsEventSource({
    sqs: engine.sqs,
    queue: browserSqs,
    handler: createBrowserLambda(
      composeBrowserFunction({ ...config, logLevel: 'debug' }, createBrowserRunner({ concurrency: 1 }), {
        sqs: engine.sqs,
        s3: engine.s3,
        ...(options.clock ? { clock: options.clock } : {}),
        logWrite: (line) => logs.push(line),
      }),
    ),
    functionName: 'browser',
  });

  return {
    runtime: 'lambda',
    app,
    adminKey: first.rawKey,
    tenantId: first.tenant.id,
    table,
    logs,
    sqs: engine,
    dynamodb: testTable.client,
    tableName: testTable.tableName,
    runStreamOnce: feedStream,
    skipChanges: async () => (await stream.readNew()).length,
    notifySqs,
    actionSqs,
    probeSqs,
    browserSqs,
    async request(method, path, opts = {}) {
      const { body, contentType } = encodeBody(opts);
      requestCounter += 1;
      // As API Gateway's payload v2: the Cookie header arrives split, in `cookies`, not in `headers`.
      const sent = headersFor(opts, contentType);
      const cookieName = Object.keys(sent).find((name) => name.toLowerCase() === 'cookie');
      const cookie = cookieName === undefined ? undefined : sent[cookieName];
      if (cookieName !== undefined) delete sent[cookieName];
      const event = apiEvent(method, path, {
        headers: sent,
        ...(cookie !== undefined ? { cookies: cookie.split(/;\s*/) } : {}),
        ...(body !== undefined ? { body } : {}),
        ...(opts.sourceIp ? { sourceIp: opts.sourceIp } : {}),
        requestId: `req-${requestCounter}`,
      });
      const result = await handler(event, context);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
      // Payload v2's `cookies` become Set-Cookie headers (one here: the harness keeps one value per name).
      if (result.cookies?.[0] !== undefined) headers['set-cookie'] = result.cookies.join(', ');
      return parseResponse(result.statusCode ?? 200, headers, result.body ?? '');
    },
    async createTenant(name = 'Other') {
      const created = await app.tenants.createTenant({ name, email: `${name.toLowerCase()}@example.com` });
      return { tenantId: created.tenant.id, key: created.rawKey };
    },
    async drainChanges() {
      // The stream function enqueues notify and action jobs; the notifier and the action worker
      // run the ones visible now, as deployed.
      for (let round = 0; round < 100; round += 1) {
        const records = await feedStream();
        const batches = (await notifySource.runVisible()) + (await actionSource.runVisible());
        if (records === 0 && batches === 0) return;
      }
      throw new Error('change feed did not settle after 100 rounds');
    },
    async runNotifyJobs() {
      await notifySource.runVisible();
    },
    async runActionJobs() {
      await actionSource.runVisible();
    },
    async runProbeJobs() {
      await probeSource.runVisible();
    },
    async runBrowserJobs() {
      await browserSource.runVisible();
    },
    eventSources: { notify: notifySource, action: actionSource, probe: probeSource, browser: browserSource },
    async runGenerator(scheduledMs = (options.clock ?? systemClock).now()) {
      const minute = Math.floor(scheduledMs / 60_000) * 60_000;
      return generatorHandler({ scheduled_time: isoTime(minute) });
    },
    operator: (argv) => runOperatorCommand(argv, { table, clock: systemClock }),
    async close() {
      stream.close();
      await engine.stop();
      await testTable.drop();
    },
  };
}

/** A request with the harness's admin key that must succeed (status < 300); answers its parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
export async function adminCall(api: ApiHarness, method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.request(method, path, { key: api.adminKey, ...(body === undefined ? {} : { body }) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

const LOCAL = { runtime: 'local', start: startLocalHarness } as const;
const LAMBDA = { runtime: 'lambda', start: startLambdaHarness } as const;
type RuntimeCase = typeof LOCAL | typeof LAMBDA;

/**
 * Both runtimes, for `describe.each`: a contract test, whose behaviour differs by engine on purpose
 * (the cookie's Secure flag, email by SMTP or SES, icmp refused on Lambda) or which proves the two
 * agree over the whole route table. Its file is in the cloud tier (test/tiers.ts).
 */
export const bothRuntimes: readonly RuntimeCase[] = [LOCAL, LAMBDA];

/**
 * The api tier's runtimes, for `describe.each`: the local runtime. The cloud path is proven by
 * construction in the cloud tier (CONTRIBUTING.md "Tiers": the Table contract on both engines, the
 * route walk through the Lambda adapter, every job kind and stream consumer through the queue engine,
 * an end-to-end test per cloud flow), not by running every api test twice.
 * `VIGIL_API_RUNTIMES=local,lambda npm run test:api` runs the api tier on both, as before.
 */
export const runtimes: readonly RuntimeCase[] = apiRuntimes(process.env.VIGIL_API_RUNTIMES);

function apiRuntimes(setting: string | undefined): readonly RuntimeCase[] {
  const names = (setting ?? 'local').split(',').map((name) => name.trim());
  const unknown = names.filter((name) => name !== 'local' && name !== 'lambda');
  if (unknown.length > 0)
    throw new Error(`VIGIL_API_RUNTIMES: unknown runtime ${unknown.join(', ')} (local, lambda)`);
  return bothRuntimes.filter((entry) => names.includes(entry.runtime));
}
