/** What the cost meter (cost-meter.ts) counts, and what it costs at list prices. */

export interface EntityCost {
  /** Write request units of the table (transactional writes counted twice). */
  wru: number;
  /** Write request units of the global secondary indexes. */
  gsiWru: number;
  rru: number;
  /** Stream records: one per write that changed an item. */
  streamRecords: number;
}

export interface MeterSnapshot {
  /**
   * Per item type (the `entity` attribute); reads that found nothing are `(missing <sk prefix>)`
   * (the sort key up to its first `#`) and `(empty query <index>)`.
   */
  byEntity: Record<string, EntityCost>;
  /** DynamoDB calls by operation. */
  calls: Record<string, number>;
  /** Operations the meter saw but cannot price (none expected). */
  unpriced: Record<string, number>;
  /** SQS requests (a send counts one per started 64 KB of payload). */
  sqsRequests: Record<string, number>;
  /** Lambda invocations by function. */
  invocations: Record<string, number>;
  eventBridgeEntries: number;
  schedulerInvocations: number;
  /** Requests through API Gateway's HTTP API (the api function's callers). */
  apiRequests: number;
}

/**
 * List prices, us-east-1, on-demand, as published on the AWS pricing pages (free tiers left out):
 * https://aws.amazon.com/dynamodb/pricing/on-demand/, https://aws.amazon.com/sqs/pricing/,
 * https://aws.amazon.com/lambda/pricing/, https://aws.amazon.com/eventbridge/pricing/.
 */
export const PRICES = {
  /** DynamoDB write request unit (the price since November 2024). */
  writeRequestUnit: 0.625 / 1e6,
  readRequestUnit: 0.125 / 1e6,
  /**
   * DynamoDB Streams read request units: $0.02 per 100,000, but GetRecords calls made by a Lambda
   * trigger are free, and a Lambda trigger is the only reader of the stream: counted as 0.
   */
  streamReadRequestUnit: 0,
  /** SQS standard queue, per request (a send is one request per started 64 KB). */
  sqsRequest: 0.4 / 1e6,
  lambdaInvocation: 0.2 / 1e6,
  /** Lambda x86 compute. */
  lambdaGbSecond: 0.0000166667,
  schedulerInvocation: 1 / 1e6,
  /** EventBridge PutEvents, custom events, per entry (64 KB each). */
  eventBridgeEntry: 1 / 1e6,
  /**
   * API Gateway HTTP API, per request (the first 300 million a month; $0.90 past them), each
   * request metered in 512 KB increments: https://aws.amazon.com/api-gateway/pricing/.
   */
  apiGatewayRequest: 1 / 1e6,
} as const;

/** Every function's memory: infra/node-function.ts's default, which no construct overrides. */
export const LAMBDA_MEMORY_GB = 512 / 1024;

/**
 * Assumed billed duration per invocation (ms): a worker batch probes up to 10 targets at once and
 * records the results; the others only touch the table and queues. Over DynamoDB Local the
 * harness's own timings mean nothing, so these are stated, not measured.
 */
const ASSUMED_DURATION_MS: Record<string, number> = {
  generator: 1000,
  worker: 300,
  stream: 100,
  notifier: 200,
  actions: 200,
};

/**
 * The api function's billed time is modelled, not assumed flat: warm, it spends a few ms of its own
 * per request (routing, zod, JSON) and waits on DynamoDB, ~5 ms per call in-region (the calls the
 * meter counts, taken as sequential: the ones that run side by side make this an upper bound).
 */
export const API_MS_BASE = 5;
export const API_MS_PER_DYNAMODB_CALL = 5;
const DEFAULT_DURATION_MS = 200;

/** Functions that run once per minute whatever the number of checks (the fixed part of the bill). */
const PER_MINUTE_FUNCTIONS = ['generator'];

interface EntityFigures extends EntityCost {
  dollars: number;
}

export interface CostFigures {
  /** Check results the figures are divided by. */
  results: number;
  /** Per result, per item type. */
  byEntity: Record<string, EntityFigures>;
  /** Per result. */
  wru: number;
  rru: number;
  streamRecords: number;
  sqsRequests: number;
  invocations: Record<string, number>;
  eventBridgeEntries: number;
  /** Dollars per million results, at list prices. */
  dollarsPerMillion: {
    dynamodb: number;
    sqs: number;
    lambda: number;
    eventBridge: number;
    apiGateway: number;
    /** Scheduler and the once-a-minute generator invocation, spread over this run's checks. */
    fixed: number;
    total: number;
    /** Without the fixed part: what a large deployment pays per million. */
    atScale: number;
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const lambdaCost = (count: number, durationMs: number | undefined) =>
  count *
  (PRICES.lambdaInvocation +
    LAMBDA_MEMORY_GB * ((durationMs ?? DEFAULT_DURATION_MS) / 1000) * PRICES.lambdaGbSecond);

/**
 * The api function's modelled billed ms per invocation, from the DynamoDB calls it made; the ping
 * function (the same handler behind a function URL) by the same model, `fn` 'ping'.
 */
export function apiDurationMs(snap: MeterSnapshot, fn: 'api' | 'ping' = 'api'): number {
  const invocations = snap.invocations[fn] ?? 0;
  if (invocations === 0) return API_MS_BASE;
  return API_MS_BASE + (API_MS_PER_DYNAMODB_CALL * sum(Object.values(snap.calls))) / invocations;
}

/** What a meter snapshot costs per result at list prices. */
export function priceSnapshot(snap: MeterSnapshot, results: number): CostFigures {
  const per = (value: number) => value / results;
  const byEntity: Record<string, EntityFigures> = {};
  for (const [entity, c] of Object.entries(snap.byEntity).sort(([a], [b]) => a.localeCompare(b))) {
    const dollars = (c.wru + c.gsiWru) * PRICES.writeRequestUnit + c.rru * PRICES.readRequestUnit;
    byEntity[entity] = {
      wru: per(c.wru),
      gsiWru: per(c.gsiWru),
      rru: per(c.rru),
      streamRecords: per(c.streamRecords),
      dollars: per(dollars) * 1e6,
    };
  }
  const costs = Object.values(snap.byEntity);
  const wru = sum(costs.map((c) => c.wru + c.gsiWru));
  const rru = sum(costs.map((c) => c.rru));
  const sqsRequests = sum(Object.values(snap.sqsRequests));
  const dynamodb = wru * PRICES.writeRequestUnit + rru * PRICES.readRequestUnit;
  const sqs = sqsRequests * PRICES.sqsRequest;
  const invocations = Object.entries(snap.invocations);
  const durations: Record<string, number> = {
    ...ASSUMED_DURATION_MS,
    api: apiDurationMs(snap),
    ping: apiDurationMs(snap, 'ping'),
  };
  const variableLambda = sum(
    invocations
      .filter(([fn]) => !PER_MINUTE_FUNCTIONS.includes(fn))
      .map(([fn, n]) => lambdaCost(n, durations[fn])),
  );
  const fixedLambda = sum(
    invocations
      .filter(([fn]) => PER_MINUTE_FUNCTIONS.includes(fn))
      .map(([fn, n]) => lambdaCost(n, durations[fn])),
  );
  const eventBridge = snap.eventBridgeEntries * PRICES.eventBridgeEntry;
  const apiGateway = snap.apiRequests * PRICES.apiGatewayRequest;
  const fixed = fixedLambda + snap.schedulerInvocations * PRICES.schedulerInvocation;
  const million = (dollars: number) => per(dollars) * 1e6;
  const atScale = dynamodb + sqs + variableLambda + eventBridge + apiGateway;
  return {
    results,
    byEntity,
    wru: per(wru),
    rru: per(rru),
    streamRecords: per(sum(costs.map((c) => c.streamRecords))),
    sqsRequests: per(sqsRequests),
    invocations: Object.fromEntries(invocations.map(([fn, n]) => [fn, per(n)])),
    eventBridgeEntries: per(snap.eventBridgeEntries),
    dollarsPerMillion: {
      dynamodb: million(dynamodb),
      sqs: million(sqs),
      lambda: million(variableLambda),
      eventBridge: million(eventBridge),
      apiGateway: million(apiGateway),
      fixed: million(fixed),
      total: million(atScale + fixed),
      atScale: million(atScale),
    },
  };
}
