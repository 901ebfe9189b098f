import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { apiEvent, lambdaContext } from './lambda-context.ts';

/**
 * Requests through the api function's handler as API Gateway's HTTP API (payload v2) sends them
 * (or the ping function's, as its function URL sends the same payload),
 * on a run's fake clock, as the cost runs drive it (ping-cost-run.ts, ingest-cost-run.ts):
 * `request` answers the status and the parsed JSON body (undefined when it is not JSON); `setup`
 * is a keyed call that must succeed, at most 20 a fake second (the key's default rate).
 */
export function apiFunctionClient(
  api: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>,
  clock: { now(): number; set(ms: number): void },
  options: { key: string; userAgent: string },
) {
  let counter = 0;
  const request = async (method: string, path: string, body?: unknown, apiKey?: string) => {
    counter += 1;
    const encoded = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const event = apiEvent(method, path, {
      headers: {
        ...(encoded ? { 'content-type': 'application/json' } : {}),
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      ...(encoded ? { body: encoded } : {}),
      userAgent: options.userAgent,
      requestId: `req-${counter}`,
      nowMs: clock.now(),
    });
    const result = await api(event, lambdaContext('api'));
    const text = result.body ?? '';
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: result.statusCode ?? 200, body: parsed as Record<string, unknown> | undefined };
  };
  const setup = async (method: string, path: string, body?: unknown) => {
    clock.set(clock.now() + 50);
    const res = await request(method, path, body, options.key);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body ?? {};
  };
  return { request, setup };
}
