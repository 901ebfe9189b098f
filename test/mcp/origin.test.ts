import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER, VIEWER_HOST_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { bothRuntimes, type LambdaHarness, type LocalHarness } from '../support/api-harness.ts';

// MCP 2025-11-25: a server MUST answer 403 to a request with an invalid Origin. Requests without
// one (MCP clients, curl) and from the console's own origin pass; every other web page is refused.

const PUBLIC_URL = 'https://vigil.example.com';
const EDGE_SECRET = 'edge-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const CONSOLE_HOST = 'd111111abcdef8.cloudfront.net';
/** VIGIL_ALLOWED_HOSTS of these tests. */
const ALLOWED = 'vigil.lan';

/** A POST with any Host header (fetch will not send one of its own choosing). */
function rawPost(url: string, headers: Record<string, string>, body: unknown) {
  return new Promise<{ status: number; contentType: string | undefined; json: unknown }>(
    (resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], json });
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    },
  );
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'origin-test', version: '1' },
  },
};

describe.each(bothRuntimes)('MCP Origin policy ($runtime)', ({ runtime, start }) => {
  let api: LocalHarness | LambdaHarness;
  /** The request's own origin, and the headers that make the request go to it. */
  let own: { origin: string; headers: Record<string, string> };

  beforeAll(async () => {
    api = await start({
      env: { VIGIL_PUBLIC_URL: PUBLIC_URL, VIGIL_EDGE_SECRET: EDGE_SECRET, VIGIL_ALLOWED_HOSTS: ALLOWED },
    });
    own =
      'local' in api
        ? { origin: api.local.url, headers: {} }
        : // API Gateway and function URLs pass their own host name and https.
          {
            origin: 'https://api.example.com',
            headers: { host: 'api.example.com', 'x-forwarded-proto': 'https' },
          };
  });
  afterAll(() => api.close());

  const post = (headers: Record<string, string>) =>
    api.request('POST', '/v1/mcp', {
      key: api.adminKey,
      body: initialize,
      headers: { accept: 'application/json, text/event-stream', ...own.headers, ...headers },
    });

  it('answers a request without an Origin (an MCP client, not a browser)', async () => {
    const res = await post({});
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('"protocolVersion"');
  });

  it("answers a browser on the request's own origin (the console's) and on VIGIL_PUBLIC_URL's", async () => {
    for (const origin of [own.origin, PUBLIC_URL]) {
      const res = await post({ origin });
      expect(res.status, `${origin}: ${res.text}`).toBe(200);
    }
  });

  it('refuses any other origin with 403 and a JSON-RPC error, before the key is looked at', async () => {
    const otherPort = runtime === 'local' ? 'http://127.0.0.1:1' : 'http://api.example.com';
    for (const origin of [
      'https://evil.example',
      'null',
      otherPort,
      'https://vigil.example.com.evil.example',
    ]) {
      const res = await post({ origin });
      expect(res.status, origin).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringContaining('Origin') },
        // The answer to the request it refuses (its id).
        id: initialize.id,
      });
    }
    const noKey = await api.request('POST', '/v1/mcp', {
      body: initialize,
      headers: { origin: 'https://evil.example' },
    });
    expect(noKey.status).toBe(403);
    const stream = await api.request('GET', '/v1/mcp', {
      key: api.adminKey,
      headers: { origin: 'https://evil.example', accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(403);
    expect(stream.body.error.code).toBe(-32000);
  });

  /** An initialize with this Host and Origin, sent as the runtime receives it. */
  const withHost = async (host: string, origin: string) => {
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${api.adminKey}`,
      host,
      origin,
    };
    if ('local' in api) return rawPost(`${api.local.url}/v1/mcp`, headers, initialize);
    const res = await api.request('POST', '/v1/mcp', { body: initialize, headers });
    return { status: res.status, contentType: res.headers['content-type'], json: res.body };
  };

  it('refuses a DNS-rebinding page (its own Host and Origin, a valid key) with 403 and a JSON-RPC error', async () => {
    for (const host of ['evil.example.com', 'evil.example.com:8080', 'localhost.evil.example', '10.0.0.1']) {
      const res = await withHost(host, `http://${host}`);
      expect(res.status, host).toBe(403);
      expect(res.contentType).toMatch(/^application\/json/);
      expect(res.json).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringContaining('Host') },
        // The answer to the request it refuses (its id).
        id: initialize.id,
      });
    }
    // A known Host does not make another page's Origin acceptable.
    expect((await withHost('localhost:8080', 'http://evil.example.com')).status).toBe(403);
  });

  it("answers under the loopback names on any port, VIGIL_PUBLIC_URL's host and VIGIL_ALLOWED_HOSTS", async () => {
    for (const host of ['localhost:8080', '127.0.0.1:1', '[::1]:65000', 'LOCALHOST', `${ALLOWED}:9000`]) {
      const res = await withHost(host, `http://${host}`);
      expect(res.status, `${host}: ${JSON.stringify(res.json)}`).toBe(200);
    }
    const pub = await withHost('vigil.example.com', PUBLIC_URL);
    expect(pub.status, JSON.stringify(pub.json)).toBe(200);
  });

  if (runtime === 'lambda')
    it("behind the console's edge, takes the viewer's Host for the own origin only with the edge secret", async () => {
      const origin = `https://${CONSOLE_HOST}`;
      const edge = { origin, [VIEWER_HOST_HEADER]: CONSOLE_HOST };
      const proven = await post({ ...edge, [EDGE_SECRET_HEADER]: EDGE_SECRET });
      expect(proven.status, proven.text).toBe(200);
      const forged = await post({ ...edge, [EDGE_SECRET_HEADER]: 'wrong-secret-0123456789abcdefghijklmnop' });
      expect(forged.status).toBe(403);
      expect((await post(edge)).status).toBe(403);
    });
});
