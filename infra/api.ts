import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { z } from 'zod';
import { VigilFunction } from './node-function.ts';
import { grantTable } from './table.ts';

/** The default stage's throttling when the deployment sets none (`vigil:apiRateLimit`, `vigil:apiBurstLimit`). */
export const DEFAULT_API_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

/** API Gateway's own account quotas (per region) bound what a stage may be given. */
const throttleSchema = z.object({
  rateLimit: z.coerce.number().positive().max(10_000).default(DEFAULT_API_THROTTLE.rateLimit),
  burstLimit: z.coerce.number().int().min(1).max(5_000).default(DEFAULT_API_THROTTLE.burstLimit),
});

/** The deployment's throttling settings, validated at synth; a bad value fails the synth naming its context key. */
export function apiThrottle(settings: {
  apiRateLimit?: string | number | undefined;
  apiBurstLimit?: string | number | undefined;
}): Required<ThrottleSettings> {
  const parsed = throttleSchema.safeParse({
    rateLimit: settings.apiRateLimit,
    burstLimit: settings.apiBurstLimit,
  });
  if (parsed.success) return parsed.data;
  const key = { rateLimit: 'vigil:apiRateLimit', burstLimit: 'vigil:apiBurstLimit' } as Record<
    string,
    string
  >;
  const lines = parsed.error.issues.map(
    (i) => `  ${key[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`,
  );
  throw new Error(`invalid deployment settings:\n${lines.join('\n')}`);
}

/**
 * One JSON line per request. Who asked (the source address: behind the console's CloudFront
 * distribution, its edge), which route, the answer and how long it took; never headers, query
 * strings, bodies or the path, where keys and tokens travel (a ping URL's path is its credential).
 * The function's own request log has the path with credentials hidden, under the same
 * `requestId`.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    method: '$context.httpMethod',
    routeKey: '$context.routeKey',
    protocol: '$context.protocol',
    status: '$context.status',
    responseLength: '$context.responseLength',
    latency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationStatus: '$context.integrationStatus',
    error: '$context.error.message',
    integrationError: '$context.integrationErrorMessage',
    userAgent: '$context.identity.userAgent',
  }),
);

/**
 * The keyless ping URLs of push checks, every form of the Pinging API (lib/push/pings/ping-routes.ts):
 * `/ping/<token>`, `/ping/<token>/<suffix>` (start, fail, log, an exit status; or a ping key and
 * a slug) and `/ping/<ping key>/<slug>/<suffix>`, each with HEAD, GET and POST.
 */
const PING_ROUTE_PATHS = ['/ping/{token}', '/ping/{token}/{suffix}', '/ping/{key}/{slug}/{suffix}'] as const;

/** The methods of the Pinging API (Healthchecks' clients use all three). */
const PING_METHODS = [HttpMethod.HEAD, HttpMethod.GET, HttpMethod.POST] as const;

/** What the API needs from the rest of the stack. */
export interface VigilApiProps {
  readonly table: ITable;
  /** Runtime settings every function shares (table name, due index shards). */
  readonly environment: Record<string, string>;
  /** Requests per second and burst for every route of the default stage (apiThrottle). */
  readonly throttle: Required<ThrottleSettings>;
}

/**
 * The public REST API: an HTTP API whose `$default` route sends every method and path to one
 * Lambda (functions/api.ts); the shared router inside it does the routing. Its `$default` stage
 * throttles every route (past the limit API Gateway answers 429 itself, before the function runs)
 * and writes an access log to CloudWatch Logs.
 */
export class VigilApi extends Construct {
  readonly handler: NodejsFunction;
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLog: LogGroup;

  constructor(scope: Construct, id: string, props: VigilApiProps) {
    super(scope, id);
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'functions/api.ts',
      environment: props.environment,
      tracing: true,
    }).function;
    grantTable(props.table, this.handler);

    const integration = new HttpLambdaIntegration('Lambda', this.handler, {
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
    });
    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${Stack.of(this).stackName}-api`,
      description: 'Vigil REST API',
      defaultIntegration: integration,
      // HttpApi's own default stage takes no throttling or access log: the stage below replaces it.
      createDefaultStage: false,
    });
    // The ping URLs (lib/push/pings/ping-routes.ts) by name, though `$default` would reach the same
    // function: their access log lines carry their own routeKey (pings told apart from API calls
    // without reading paths), and a stage may throttle them on their own (routeSettings).
    for (const path of PING_ROUTE_PATHS) {
      this.httpApi.addRoutes({ path, methods: [...PING_METHODS], integration });
    }
    this.accessLog = new LogGroup(this, 'AccessLog', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Same construct path as HttpApi's own default stage, so a deployed stack keeps its stage (an
    // update in place; a replacement would clash on the `$default` name).
    this.stage = new HttpStage(this.httpApi, 'DefaultStage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLog),
        format: ACCESS_LOG_FORMAT,
      },
    });
  }
}
