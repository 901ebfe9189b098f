import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../lib/http/types.ts';
import { createFixture, fillPath, type TenantFixture } from '../security/route-fixtures.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

// HEAD on every GET route of the route table answers like GET without a body (RFC 9110 9.3.2):
// the public pages and badge, /healthz, the ping URLs, the OpenAPI document and every /v1 read.

/** Routes whose GET answers an event stream that stays open: only HEAD is sent to them. */
const streams = (route: Route) => {
  const ok = route.schemas.responses[200];
  return (
    typeof ok === 'object' && ok !== null && 'contentType' in ok && ok.contentType === 'text/event-stream'
  );
};

describe.each(runtimes)('HEAD on every GET route ($runtime)', ({ start }) => {
  let api: ApiHarness;
  let fx: TenantFixture;
  let gets: Route[];

  beforeAll(async () => {
    api = await start();
    fx = await createFixture(api, api.adminKey);
    gets = api.app.routes.filter((route) => route.method === 'GET');
  }, 120_000);
  afterAll(() => api?.close());

  it('answers GET status and headers, Content-Length included, and no body', async () => {
    expect(gets.length).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const route of gets) {
      const path = fillPath(route, fx);
      const name = `${route.method} ${route.path}`;
      const head = await api.request('HEAD', path, { key: fx.key });
      if (head.text !== '') problems.push(`${name}: HEAD has a body`);
      if (streams(route)) {
        if (head.status !== 200 || !head.headers['content-type']?.startsWith('text/event-stream'))
          problems.push(`${name}: HEAD ${head.status} ${head.headers['content-type']}`);
        continue;
      }
      const get = await api.request('GET', path, { key: fx.key });
      if (head.status !== get.status) problems.push(`${name}: HEAD ${head.status}, GET ${get.status}`);
      if (head.headers['content-type'] !== get.headers['content-type'])
        problems.push(
          `${name}: content-type ${head.headers['content-type']} vs ${get.headers['content-type']}`,
        );
      if (get.text !== '' && !/^[1-9]\d*$/.test(head.headers['content-length'] ?? ''))
        problems.push(`${name}: HEAD without GET's Content-Length (${head.headers['content-length']})`);
    }
    expect(problems).toEqual([]);
  });

  it("gives a stable answer's exact length, and HEAD in Allow where GET is", async () => {
    for (const path of ['/healthz', '/v1/openapi.json']) {
      const get = await api.request('GET', path);
      const head = await api.request('HEAD', path);
      expect(head.headers['content-length'], path).toBe(String(Buffer.byteLength(get.text)));
    }
    const wrong = await api.request('DELETE', '/healthz');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow?.split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD']));
  });

  it('answers HEAD to a path or method that has no GET as GET would be refused, without a body', async () => {
    const missing = await api.request('HEAD', '/v1/nope');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('');
    const keyless = await api.request('HEAD', '/v1/checks');
    expect(keyless.status).toBe(401);
    expect(keyless.text).toBe('');
  });
});
