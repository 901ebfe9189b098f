import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEventStream } from '../../lib/http/route-schemas.ts';
import { readStream } from '../../lib/http/routing/stream-web.ts';
import type { Route } from '../../lib/http/types.ts';
import type { ApiHarness, LocalHarness } from '../support/api-harness.ts';
import { bothRuntimes } from '../support/api-harness.ts';
import { createFixture, fillPath, type TenantFixture } from './route-fixtures.ts';

/**
 * Every route of the route table that answers Server-Sent Events holds a connection for as long as
 * the client likes, so each is capped per API key and per tenant: found from the routes' schemas,
 * a streaming route added later is covered here without a change.
 */

const PER_KEY = 2;
const PER_TENANT = 3;
const CAPS = { VIGIL_STREAMS_PER_KEY: String(PER_KEY), VIGIL_STREAMS_PER_TENANT: String(PER_TENANT) };

interface Opened {
  status: number;
  headers: Record<string, string>;
  /** The body of a refused open (a JSON error); undefined for an open stream. */
  body: unknown;
  close(): Promise<void>;
}

/** Opens a stream and leaves it open: over real HTTP locally, through the shared router in the cloud composition. */
async function openStream(api: ApiHarness, path: string, key: string): Promise<Opened> {
  const headers = { authorization: `Bearer ${key}`, accept: 'text/event-stream' };
  if (api.runtime === 'local') {
    const abort = new AbortController();
    const res = await fetch(`${(api as LocalHarness).local.url}${path}`, { headers, signal: abort.signal });
    const refused = res.status !== 200;
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: refused ? await res.json() : undefined,
      close: async () => abort.abort(),
    };
  }
  // The streaming function URLs run this router; the api function's buffered path would wait for the end.
  // As a function URL hands it over: the Host it was called by is the one it routed by.
  const host = 'stream.lambda-url.us-east-1.on.aws';
  const res = await api.app.router.handle({
    method: 'GET',
    path,
    query: {},
    headers: { ...headers, host },
    platformHost: host,
    body: Buffer.alloc(0),
    requestId: 'stream-caps',
    sourceIp: '127.0.0.1',
  });
  return {
    status: res.status,
    headers: res.headers,
    // A refused open may come as a web Response too (a JSON-RPC error), then as a short stream.
    body:
      res.status === 200
        ? undefined
        : JSON.parse(res.stream ? (await readStream(res.stream)).toString('utf8') : res.body),
    close: async () => {
      await res.stream?.cancel();
    },
  };
}

function expectRateLimited(opened: Opened, what: string) {
  expect(opened.status, what).toBe(429);
  const retryAfter = Object.entries(opened.headers).find(
    ([name]) => name.toLowerCase() === 'retry-after',
  )?.[1];
  expect(retryAfter, what).toMatch(/^[1-9]\d*$/);
  // The API's error envelope, or a JSON-RPC error where the route speaks JSON-RPC (/v1/mcp).
  const body = opened.body as { code?: string; jsonrpc?: string; error?: unknown };
  expect(
    body.code === 'RATE_LIMITED' || (body.jsonrpc === '2.0' && typeof body.error === 'object'),
    what,
  ).toBe(true);
}

describe.each(bothRuntimes)('open streams over the whole route table ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let secondKey: string;
  let fx: TenantFixture | undefined;
  const held: Opened[] = [];
  const streaming = () =>
    api.app.routes.filter((route) => route.method === 'GET' && isEventStream(route.schemas));
  const pathOf = async (route: Route) => {
    if (!route.path.includes('{')) return route.path;
    fx ??= await createFixture(api, api.adminKey);
    return fillPath(route, fx);
  };
  const open = async (path: string, key: string) => {
    const opened = await openStream(api, path, key);
    held.push(opened);
    return opened;
  };
  const closeAll = async () => {
    for (const opened of held.splice(0)) await opened.close();
  };

  beforeAll(async () => {
    api = await start({ env: CAPS });
    const created = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'second' },
    });
    secondKey = created.body.key;
  });
  afterAll(async () => {
    await closeAll();
    await api.close();
  });

  it('finds the streaming routes', () => {
    expect(streaming().map((r) => r.path)).toEqual(expect.arrayContaining(['/v1/status/stream', '/v1/mcp']));
  });

  it(`answers 429 with Retry-After to stream ${PER_KEY + 1} of one key on every streaming route`, async () => {
    for (const route of streaming()) {
      const path = await pathOf(route);
      const accepted = [await open(path, api.adminKey), await open(path, api.adminKey)];
      expect(
        accepted.map((o) => o.status),
        path,
      ).toEqual([200, 200]);
      expectRateLimited(await open(path, api.adminKey), `${path}, one key`);
      await closeAll();
    }
  });

  it(`answers 429 to stream ${PER_TENANT + 1} of a tenant across its keys, and not to another tenant`, async () => {
    const other = await api.createTenant('Elsewhere');
    for (const route of streaming()) {
      const path = await pathOf(route);
      const accepted = [
        await open(path, api.adminKey),
        await open(path, api.adminKey),
        await open(path, secondKey),
      ];
      expect(
        accepted.map((o) => o.status),
        path,
      ).toEqual([200, 200, 200]);
      expectRateLimited(await open(path, secondKey), `${path}, a tenant's keys`);
      expect((await open(path, other.key)).status, `${path}, another tenant`).toBe(200);
      await closeAll();
    }
  });

  it('frees the slot of a stream that ends', async () => {
    for (const route of streaming()) {
      const path = await pathOf(route);
      const first = await open(path, api.adminKey);
      await open(path, api.adminKey);
      await first.close();
      await expect
        .poll(
          async () => {
            const again = await openStream(api, path, api.adminKey);
            if (again.status === 200) held.push(again);
            return again.status;
          },
          { timeout: 5000, interval: 100 },
        )
        .toBe(200);
      await closeAll();
    }
  });
});
