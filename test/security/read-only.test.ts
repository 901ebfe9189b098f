import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEventStream } from '../../lib/http/route-schemas.ts';
import { deniesReadOnly, type Route } from '../../lib/http/types.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { createFixture, denialFailures, fillPath, type TenantFixture } from './route-fixtures.ts';

function deniedToReadOnly(routes: Route[]): Route[] {
  return routes.filter((r) => r.auth === 'key' && deniesReadOnly(r));
}

describe.each(bothRuntimes)('read-only keys over the whole route table ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let fx: TenantFixture;

  beforeAll(async () => {
    api = await start();
    fx = await createFixture(api, api.adminKey);
  });
  afterAll(async () => {
    await api.close();
  });

  it('covers every write route', () => {
    expect(deniedToReadOnly(api.app.routes).length).toBeGreaterThanOrEqual(12);
  });

  it('answers 403 READ_ONLY on every POST, PUT and DELETE (and key listing) and changes nothing', async () => {
    const failures = await denialFailures(api, deniedToReadOnly(api.app.routes), fx, fx.readOnlyKey, {
      status: 403,
      code: 'READ_ONLY',
    });
    expect(failures).toEqual([]);
  });

  it('lets a read-only key use every other GET route', async () => {
    const failures: string[] = [];
    // An event stream never ends, so its body cannot be read to the end here; read-only keys on
    // it are tested in test/status/stream.test.ts.
    for (const route of api.app.routes.filter(
      (r) => r.auth === 'key' && r.method === 'GET' && !r.denyReadOnly && !isEventStream(r.schemas),
    )) {
      const res = await api.request('GET', fillPath(route, fx), { key: fx.readOnlyKey });
      if (res.status !== 200) failures.push(`${route.path} -> ${res.status} ${res.text}`);
    }
    expect(failures).toEqual([]);
  });
});
