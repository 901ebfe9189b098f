import type { LambdaFunctionURLEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpRequest, HttpResponse } from '../../lib/http/types.ts';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { functionUrlHandler } from '../../lib/lambda-http/stream-lambda.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';

/**
 * In the cloud the public pages are CloudFront's alone (issue 36 item 3): with VIGIL_EDGE_SECRET
 * set (the stack always sets it), /p/* without the edge's secret header is 404 on the HTTP API and
 * on a function URL, so no one skips the edge's cache; the API's own URLs keep every other route.
 */

const SECRET = 'edge-secret-0123456789abcdefghijklmnopqrstuvwxyz';

describe('the api function behind the edge', () => {
  let api: LambdaHarness;

  beforeAll(async () => {
    api = await startLambdaHarness({ env: { VIGIL_EDGE_SECRET: SECRET } });
    const made = await api.request('POST', '/v1/status-pages', {
      key: api.adminKey,
      body: { slug: 'edge-page', title: 'Edge' },
    });
    expect(made.status, made.text).toBe(201);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('refuses /p/* without the edge secret, or with a wrong one (404)', async () => {
    for (const path of ['/p/edge-page', '/p/edge-page/status.json', '/p/edge-page/badge.svg', '/p/nope']) {
      const bare = await api.request('GET', path);
      expect(bare.status, path).toBe(404);
      const wrong = await api.request('GET', path, { headers: { [EDGE_SECRET_HEADER]: `${SECRET}x` } });
      expect(wrong.status, path).toBe(404);
    }
    // A key does not open them either: the edge is the only way in.
    expect((await api.request('GET', '/p/edge-page', { key: api.adminKey })).status).toBe(404);
  });

  it('serves /p/* that came through the edge', async () => {
    const headers = { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.7' };
    const page = await api.request('GET', '/p/edge-page', { headers });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Edge');
    expect((await api.request('GET', '/p/edge-page/status.json', { headers })).status).toBe(200);
  });

  it('keeps the other routes on the API’s own URL', async () => {
    expect((await api.request('GET', '/healthz')).status).toBe(200);
    expect((await api.request('GET', '/v1/status-pages/edge-page', { key: api.adminKey })).status).toBe(200);
    // A path that only starts like one is not a public page.
    expect((await api.request('GET', '/pages')).status).toBe(404);
  });
});

describe('a function URL behind the edge', () => {
  const event = (rawPath: string, headers: Record<string, string>) =>
    ({
      version: '2.0',
      routeKey: '$default',
      rawPath,
      rawQueryString: '',
      headers,
      requestContext: {
        http: {
          method: 'GET',
          path: rawPath,
          protocol: 'HTTP/1.1',
          sourceIp: '198.51.100.1',
          userAgent: 't',
        },
        requestId: 'req-1',
      },
      isBase64Encoded: false,
    }) as unknown as LambdaFunctionURLEvent;

  it('answers 404 for /p/* without the secret, before the router sees it', async () => {
    const handle = vi.fn(
      async (_req: HttpRequest): Promise<HttpResponse> => ({ status: 200, headers: {}, body: 'page' }),
    );
    const handler = functionUrlHandler({ handle }, silentLogger, { edgeSecret: SECRET });
    expect((await handler(event('/p/edge-page', {}))).statusCode).toBe(404);
    expect(handle).not.toHaveBeenCalled();
    expect((await handler(event('/p/edge-page', { [EDGE_SECRET_HEADER]: SECRET }))).statusCode).toBe(200);
    // No edge configured (tests, a hand-made deployment): nothing to prove, served as before.
    const open = functionUrlHandler({ handle }, silentLogger, { edgeSecret: undefined });
    expect((await open(event('/p/edge-page', {}))).statusCode).toBe(200);
  });
});
