import { PassThrough } from 'node:stream';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { createStreamingUrlHandler } from '../../lib/cloud/edge/function-url-stream.ts';
import { createPowertoolsLogger, fromPowertools } from '../../lib/cloud/edge/lambda-edge.ts';
import type { HttpRequest } from '../../lib/http/types.ts';
import {
  EDGE_SECRET_HEADER,
  parseViewerAddress,
  VIEWER_ADDRESS_HEADER,
  VIEWER_HOST_HEADER,
} from '../../lib/lambda-http/edge-address.ts';
import { fromApiGatewayEvent } from '../../lib/lambda-http/lambda-adapter.ts';
import { lambdaContext } from '../cloud/support.ts';
import { fakeStreamingRuntime, functionUrlEvent, readStreamedResponse } from '../status/stream-drivers.ts';
import { apiEvent } from '../support/lambda-context.ts';

// The test drivers import functions/status-stream.ts, whose module-scope handler needs the Lambda global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

// The Lambda adapters' view of the client address behind the console's CloudFront edge: the
// viewer's address only with the configured secret, the connection's address otherwise.

const SECRET = 'edge-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const EDGE_IP = '130.176.1.1';

function event(headers: Record<string, string>): APIGatewayProxyEventV2 {
  return apiEvent('GET', '/v1/me', { headers, sourceIp: EDGE_IP, requestId: 'req-1', nowMs: 0 });
}

const viaEdge = (viewer: string, secret = SECRET) =>
  event({ [EDGE_SECRET_HEADER]: secret, [VIEWER_ADDRESS_HEADER]: viewer, authorization: 'Bearer k' });

describe('client address behind the console edge', () => {
  it('is the viewer address when the secret matches: IPv4 and IPv6', () => {
    const trust = { edgeSecret: SECRET };
    expect(fromApiGatewayEvent(viaEdge('203.0.113.9'), trust).sourceIp).toBe('203.0.113.9');
    expect(fromApiGatewayEvent(viaEdge('2001:db8::1'), trust).sourceIp).toBe('2001:db8::1');
    expect(fromApiGatewayEvent(viaEdge(' 2001:db8:0:0:0:0:0:443 '), trust).sourceIp).toBe(
      '2001:db8:0:0:0:0:0:443',
    );
  });

  it('is the connection address when the secret is wrong, missing, or not configured', () => {
    expect(fromApiGatewayEvent(viaEdge('203.0.113.9', `${SECRET}x`), { edgeSecret: SECRET }).sourceIp).toBe(
      EDGE_IP,
    );
    expect(fromApiGatewayEvent(viaEdge('203.0.113.9', 'short'), { edgeSecret: SECRET }).sourceIp).toBe(
      EDGE_IP,
    );
    const noSecret = event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.9' });
    expect(fromApiGatewayEvent(noSecret, { edgeSecret: SECRET }).sourceIp).toBe(EDGE_IP);
    // A deployment without VIGIL_EDGE_SECRET believes no header, whatever the request carries.
    expect(fromApiGatewayEvent(viaEdge('203.0.113.9'), { edgeSecret: undefined }).sourceIp).toBe(EDGE_IP);
    expect(fromApiGatewayEvent(viaEdge('203.0.113.9')).sourceIp).toBe(EDGE_IP);
  });

  it('is the connection address when the viewer address is malformed, even with the secret', () => {
    const trust = { edgeSecret: SECRET };
    for (const value of [
      '',
      'not-an-ip',
      '203.0.113.9:443',
      '[2001:db8::1]:443',
      '203.0.113.9, 198.51.100.1',
      '203.0.113.256',
      '2001:db8::1%eth0x',
    ]) {
      expect(fromApiGatewayEvent(viaEdge(value), trust).sourceIp, value).toBe(EDGE_IP);
    }
    expect(fromApiGatewayEvent(event({ [EDGE_SECRET_HEADER]: SECRET }), trust).sourceIp).toBe(EDGE_IP);
  });

  it('strips the edge headers before the router sees the request, believed or not', () => {
    for (const secret of [SECRET, 'wrong']) {
      const { headers } = fromApiGatewayEvent(
        event({
          'X-Vigil-Edge-Secret': secret,
          'X-Vigil-Viewer-Address': '203.0.113.9',
          Authorization: 'Bearer k',
        }),
        { edgeSecret: SECRET },
      );
      expect(headers).toEqual({ authorization: 'Bearer k' });
    }
    const { headers } = fromApiGatewayEvent(
      event({ 'X-Vigil-Viewer-Host': 'evil.example', host: 'abc.lambda-url.eu-west-1.on.aws' }),
      { edgeSecret: SECRET },
    );
    expect(headers).toEqual({ host: 'abc.lambda-url.eu-west-1.on.aws' });
  });
});

describe('request Host behind the console edge', () => {
  const ORIGIN_HOST = 'abc.lambda-url.eu-west-1.on.aws';
  const viaEdgeHost = (viewerHost: string, secret = SECRET) =>
    event({ [EDGE_SECRET_HEADER]: secret, [VIEWER_HOST_HEADER]: viewerHost, host: ORIGIN_HOST });

  it("is the viewer's Host (the console's domain) when the secret matches", () => {
    const { headers } = fromApiGatewayEvent(viaEdgeHost('d111111abcdef8.cloudfront.net'), {
      edgeSecret: SECRET,
    });
    expect(headers).toEqual({ host: 'd111111abcdef8.cloudfront.net' });
    expect(
      fromApiGatewayEvent(viaEdgeHost('vigil.example.com:8443'), { edgeSecret: SECRET }).headers.host,
    ).toBe('vigil.example.com:8443');
  });

  it("stays the origin's own when the secret is wrong or unset, or the viewer's Host is malformed", () => {
    const host = (e: APIGatewayProxyEventV2, edgeSecret: string | undefined) =>
      fromApiGatewayEvent(e, { edgeSecret }).headers.host;
    expect(host(viaEdgeHost('evil.example', 'wrong'), SECRET)).toBe(ORIGIN_HOST);
    expect(host(viaEdgeHost('evil.example'), undefined)).toBe(ORIGIN_HOST);
    for (const bad of ['', 'a b', 'evil.example/x', 'user@evil.example', 'evil.example, other'])
      expect(host(viaEdgeHost(bad), SECRET), bad).toBe(ORIGIN_HOST);
  });
});

describe('client address at a function URL edge (status stream, MCP)', () => {
  /** The address the router sees through createStreamingUrlHandler with this configuration. */
  async function seen(
    config: { edgeSecret: string | undefined } | undefined,
    headers: Record<string, string>,
  ) {
    const router = {
      handle: async (req: HttpRequest) => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sourceIp: req.sourceIp, headers: Object.keys(req.headers) }),
      }),
    };
    const powertools = createPowertoolsLogger({ level: 'silent', write: () => {} });
    const handler = createStreamingUrlHandler({
      app: { router },
      powertools,
      logger: fromPowertools(powertools),
      runtime: fakeStreamingRuntime(),
      ...(config ? { config } : {}),
    });
    const out = new PassThrough();
    const done = Promise.resolve(
      handler(functionUrlEvent('/v1/status/stream', headers), out, lambdaContext('s')),
    );
    const read = readStreamedResponse(out, done);
    await done;
    return JSON.parse(read.text()) as { sourceIp: string; headers: string[] };
  }

  it('believes the viewer address with the configured secret only, and strips both headers', async () => {
    const headers = { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '2001:db8::5' };
    const trusted = await seen({ edgeSecret: SECRET }, headers);
    expect(trusted.sourceIp).toBe('2001:db8::5');
    expect(trusted.headers).not.toContain(EDGE_SECRET_HEADER);
    expect(trusted.headers).not.toContain(VIEWER_ADDRESS_HEADER);
    expect((await seen({ edgeSecret: 'another-secret-0123456789abcdefghijkl' }, headers)).sourceIp).toBe(
      '127.0.0.1',
    );
    expect((await seen(undefined, headers)).sourceIp).toBe('127.0.0.1');
  });
});

describe('parseViewerAddress', () => {
  it('accepts bare addresses only', () => {
    expect(parseViewerAddress('198.51.100.7')).toBe('198.51.100.7');
    expect(parseViewerAddress('::1')).toBe('::1');
    expect(parseViewerAddress(undefined)).toBeUndefined();
    expect(parseViewerAddress('198.51.100.7:80')).toBeUndefined();
    expect(parseViewerAddress('example.com')).toBeUndefined();
  });
});
