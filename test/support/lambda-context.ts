import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** A Lambda context with every field the type declares. */
export function lambdaContext(functionName: string): Context {
  const fail = () => {
    throw new Error('callback-style completion is not used');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: '2026/01/01/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => 60_000,
    done: fail,
    fail,
    succeed: fail,
  };
}

export interface ApiEventOptions {
  headers?: Record<string, string>;
  /** The request body, sent base64-encoded as API Gateway passes one. */
  body?: Buffer;
  /** The Cookie header as payload v2 splits it. */
  cookies?: string[];
  /** The client's address (127.0.0.1 unless given). */
  sourceIp?: string;
  userAgent?: string;
  requestId?: string;
  /** When API Gateway received the request (now unless given). */
  nowMs?: number;
}

/** An API Gateway HTTP API (payload v2) event, as the api function receives it; a query string is split off `path`. */
export function apiEvent(
  method: string,
  path: string,
  options: ApiEventOptions = {},
): APIGatewayProxyEventV2 {
  const [rawPath = path, rawQueryString = ''] = path.split('?');
  const nowMs = options.nowMs ?? Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: options.headers ?? {},
    ...(options.cookies ? { cookies: options.cookies } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: options.sourceIp ?? '127.0.0.1',
        userAgent: options.userAgent ?? 'vitest',
      },
      requestId: options.requestId ?? 'apigw-request-1',
      routeKey: '$default',
      stage: '$default',
      time: new Date(nowMs).toISOString(),
      timeEpoch: nowMs,
    },
    body: options.body?.toString('base64'),
    isBase64Encoded: options.body !== undefined,
  };
}
