import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationPaths, search } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { type BrowserInvoke, browserLegProber, lambdaBrowserInvoke } from '../agent/region-browser.ts';
import { type App, createApp } from '../app.ts';
import { createStoreRateLimiter } from '../auth/limits.ts';
import { probeJobId } from '../checks/probe-job.ts';
import { artifactBucketStore, cellJobId } from '../checks/probing.ts';
import { batchedConsumers } from '../events/consumers.ts';
import { apiGatewayHandler } from '../lambda-http/lambda-adapter.ts';
import type { LegacyStreamSettings } from '../mcp/legacy-sse.ts';
import { createSesTransport } from '../notify/ses-transport.ts';
import { createSnsSmsTransport } from '../notify/sms-transport.ts';
import type { Clock } from '../platform/clock.ts';
import { type Config, loadConfig } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Prober } from '../probes/types.ts';
import type { StatusStreamSettings } from '../status/stream-service.ts';
import { createStoreStreamSlots } from '../streams/store-stream-slots.ts';
import { composeActionFunction } from './action-composition.ts';
import { type CloudBaseOverrides, createCloudBase } from './cloud-base.ts';
import { containerEgress } from './edge/container-egress.ts';
import { internalErrorFallback } from './edge/lambda-edge.ts';
import { tracedRouter, traceInvocations } from './edge/tracing.ts';
import { composeGeneratorFunction } from './generator-composition.ts';
import { composeNotifierFunction } from './notifier-composition.ts';
import { notifyQueueOf } from './queues/notify-queue.ts';
import { streamConsumersOf } from './stream-composition.ts';
import { composeWorkerFunction } from './worker-composition.ts';

/** What tests replace in the cloud composition; a deployment passes nothing but `statusStream`. */
export interface CloudOverrides extends CloudBaseOverrides {
  /** How GET /v1/status/stream polls and when it ends; default STATUS_STREAM_VIA_API_GATEWAY. */
  statusStream?: StatusStreamSettings;
  /** When the legacy MCP SSE stream ends and how it polls the relay; default MCP_SSE_VIA_API_GATEWAY. */
  mcpSse?: Partial<LegacyStreamSettings>;
  /** How the api function invokes the draft browser function; default Lambda's, to VIGIL_DRAFT_BROWSER_FUNCTION. */
  draftBrowserInvoke?: BrowserInvoke;
}

/**
 * Through API Gateway the stream is buffered until it ends, and the api function has 29 s: it
 * answers with what arrived in 20 s. The status-stream function (a function URL) streams for longer.
 */
const STATUS_STREAM_VIA_API_GATEWAY: StatusStreamSettings = { follow: 'poll', maxDurationMs: 20_000 };

/**
 * A browser check's draft through API Gateway, whose integration has 29 s: its steps get 15 s
 * (a saved check's get up to 60 s), the draft browser function's invoke 25 s with Chromium's start
 * and close, so that a late run is answered as one, not as the gateway's 503.
 */
const BROWSER_DRAFT_VIA_API_GATEWAY = { runMs: 15_000, invokeMs: 25_000 };

/**
 * Where the api function runs a browser check's draft: the draft browser function (the region
 * browser function's code, deployed in the home stack: infra/browser.ts), invoked synchronously,
 * its answer carrying the run's screenshots; none configured, such a draft is refused.
 */
function draftBrowserOf(config: Config, overrides: CloudOverrides, clock: Clock): Prober | undefined {
  const functionName = config.draftBrowserFunction;
  const invoke =
    overrides.draftBrowserInvoke ??
    (functionName ? lambdaBrowserInvoke({ functionName, region: config.region }) : undefined);
  if (!invoke) return undefined;
  const { runMs, invokeMs } = BROWSER_DRAFT_VIA_API_GATEWAY;
  const legs = browserLegProber({ invoke, clock, boundMs: invokeMs, screenshots: true });
  return (def) => legs({ ...def, timeout_ms: Math.min(def.timeout_ms, runMs) });
}

/**
 * The MCP function (functions/mcp.ts, a function URL) times out at Lambda's maximum; a legacy SSE
 * stream ends 30 s before that, so the client reconnects instead of being cut off.
 */
export const MCP_FUNCTION_TIMEOUT_MS = 900_000;
/** How long the MCP function holds a legacy SSE stream open. */
export const MCP_SSE_FUNCTION_MS = MCP_FUNCTION_TIMEOUT_MS - 30_000;
/**
 * A legacy SSE GET reaching the api function through API Gateway is buffered until it ends: it
 * ends in 20 s, inside the 29 s limit, and its session with it. Clients stream from the MCP function.
 */
const MCP_SSE_VIA_API_GATEWAY: Partial<LegacyStreamSettings> = { maxDurationMs: 20_000 };

/**
 * The composition root of the HTTP functions (api, mcp, status-stream, config): the shared app
 * (lib/app.ts) with its routes, over the cloud's base (./cloud-base.ts). Each queue-driven function
 * has a root of its own that composes only what it runs (./<name>-composition.ts); the handler
 * factories here build those same compositions over this one's table, logger and queues (tests).
 */
export function createCloudApp(
  config: Config = loadConfig('cloud'),
  overrides: CloudOverrides = {},
  /**
   * The function's Tracer: the DynamoDB and SQS clients become X-Ray subsegments (a no-op outside
   * Lambda). `sendsEmail: false` for a function whose role may not call ses:SendEmail (the mcp and
   * status-stream functions: nothing they serve sends email or SMS), so it holds no SES or SNS client.
   */
  edge: { tracer?: Tracer; sendsEmail?: boolean } = {},
) {
  const { tracer } = edge;
  const base = createCloudBase(config, overrides, {
    ...(tracer ? { traceClient: (client) => tracer.captureAWSv3Client(client) } : {}),
    // The HTTP edges name where their events carry the correlation id (injectLambdaContext).
    correlationIdSearchFn: search,
  });
  const { table, clock, logger } = base;
  // Rate limits hold across Lambda instances: every instance counts in the same table items.
  const rateLimiter = createStoreRateLimiter({ table, clock });
  const app = createApp({
    table,
    clock,
    logger,
    config,
    rateLimiter,
    // Each instance holds streams of its own: their caps are counted in lease items of the table.
    streamSlots: createStoreStreamSlots({ table, clock, logger, caps: config.streamCaps }),
    statusStream: overrides.statusStream ?? STATUS_STREAM_VIA_API_GATEWAY,
    mcpSse: overrides.mcpSse ?? MCP_SSE_VIA_API_GATEWAY,
    notifyQueue: notifyQueueOf(base).notifyQueue,
    actionQueue: base.actionQueue,
    // The artifacts bucket (the api function's only): GET .../artifacts/{name} reads the screenshots there.
    artifacts: artifactBucketStore(config, { s3: overrides.s3, traced: base.traced }),
    // A new, enabled or re-targeted check's first probe, and a located check's manual run, go to the workers.
    probeSoon: async (job) => {
      const queue = base.probeQueue('first probes and manual runs of located checks are queued there');
      const id = job.kind === 'cell' ? cellJobId(job) : probeJobId(job);
      const { failed } = await queue.enqueue([{ id, body: job, delaySeconds: 0 }]);
      if (failed.length > 0) throw new Error(`the probe queue did not take ${id}`);
    },
    egress: containerEgress(overrides.egress),
    draftBrowser: draftBrowserOf(config, overrides, clock),
    // Test sends to email channels go through SES, as the notifier's alerts do (the api function).
    ...(edge.sendsEmail === false ? {} : { email: createSesTransport({ region: config.region }) }),
    // Test sends to sms channels with provider sns go through SNS (the api function may sns:Publish).
    ...(edge.sendsEmail === false ? {} : { smsTransport: createSnsSmsTransport({ region: config.region }) }),
  });
  return {
    config,
    /** The Powertools logger the edges hand to `injectLambdaContext`; `logger` writes through it. */
    powertools: base.powertools,
    logger,
    table,
    app,
    sqs: base.sqs,
    /** What the stream function feeds each change to (the app's consumers, then the event bus). */
    streamConsumers: streamConsumersOf(base, app.changeConsumers),
    /** Those of them the stream function hands a whole batch at once. */
    batchedConsumers: batchedConsumers(app.changeConsumers),
    /** The generator Lambda's handler (lib/cloud/generator-composition.ts). */
    generatorHandler: () => composeGeneratorFunction(base).generatorHandler(),
    /** The probe worker Lambda's SQS batch handler (lib/cloud/worker-composition.ts). */
    workerHandler: () => composeWorkerFunction(base).workerHandler(),
    /** The notifier Lambda's SQS batch handler (lib/cloud/notifier-composition.ts). */
    notifierHandler: () => composeNotifierFunction(base).notifierHandler(),
    /** The action worker Lambda's SQS batch handler (lib/cloud/action-composition.ts). */
    actionWorkerHandler: () => composeActionFunction(base).actionWorkerHandler(),
  };
}
export interface ApiHandlerDeps {
  app: Pick<App, 'router'>;
  powertools: PowertoolsLogger;
  logger: Logger;
  config?: Pick<Config, 'edgeSecret'>;
  tracer?: Tracer;
}

/**
 * API Gateway HTTP API (payload v2) -> the shared router; the request id is the correlation id.
 * Without `config` (or its edgeSecret) the console edge's viewer address is never believed;
 * with `tracer`, each invocation is an X-Ray subsegment annotated with its route and status.
 */
export function createApiHandler(deps: ApiHandlerDeps) {
  const router = deps.tracer ? tracedRouter(deps.app.router, deps.tracer) : deps.app.router;
  const lambda = middy(apiGatewayHandler(router, deps.logger, { edgeSecret: deps.config?.edgeSecret }));
  // First in, last out: the subsegment spans the other middlewares too.
  if (deps.tracer) lambda.use(traceInvocations(deps.tracer));
  return lambda
    .use(
      injectLambdaContext(deps.powertools, {
        correlationIdPath: correlationPaths.API_GATEWAY_HTTP,
        resetKeys: true,
      }),
    )
    .use(httpErrorHandler(internalErrorFallback(deps.logger)));
}

/** What a path outside the Pinging API gets from the ping function, before any routing. */
const NOT_A_PING: APIGatewayProxyStructuredResultV2 = {
  statusCode: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: 'not found',
};

/**
 * The ping function's handler (functions/ping.ts, infra/ping.ts): the Pinging API (`/ping/*`,
 * lib/push/pings/ping-routes.ts) behind a Lambda function URL, so a heartbeat pays no API Gateway
 * request (docs/aws.md "Ping URLs"). A function URL hands the function the same payload v2 event as
 * the HTTP API, so the api handler serves it; every other path answers 404 before any routing, so
 * the keyless URL reaches nothing but pings. Its guard rails are the app's own (each check's ping
 * bucket, the failed-authentication limits, the body cut) and the function's reserved concurrency,
 * in place of API Gateway's stage throttle.
 */
export function createPingHandler(deps: ApiHandlerDeps) {
  const api = createApiHandler(deps);
  return async (
    event: APIGatewayProxyEventV2,
    context: Context,
  ): Promise<APIGatewayProxyStructuredResultV2> =>
    event.rawPath.startsWith('/ping/') ? api(event, context) : NOT_A_PING;
}

// What the functions take of this composition's parts too (edge/ and workers/ are private).
export { createStreamingUrlHandler } from './edge/function-url-stream.ts';
export { createFunctionTracer } from './edge/tracing.ts';
