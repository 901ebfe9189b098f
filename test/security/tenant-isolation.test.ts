import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../lib/http/types.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { createFixture, denialFailures, type TenantFixture } from './route-fixtures.ts';

/** Routes that reference another object only through the body: sent with tenant A's ids. */
const BODY_REFERENCES = new Set(['POST /v1/relations', 'POST /v1/checks', 'POST /v1/notify/simulate']);

/** Routes whose path parameter names the same thing for every tenant (a built-in toolset), not an object of one. */
const SHARED_NAMES = new Set(['POST /v1/skills/builtin/{toolset}']);

function isolationCases(routes: Route[]): Route[] {
  return routes.filter(
    (r) =>
      r.auth === 'key' &&
      !SHARED_NAMES.has(`${r.method} ${r.path}`) &&
      (r.path.includes('{') || BODY_REFERENCES.has(`${r.method} ${r.path}`)),
  );
}

describe.each(bothRuntimes)('tenant isolation over the whole route table ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let owner: TenantFixture;
  let intruderKey: string;

  beforeAll(async () => {
    api = await start();
    owner = await createFixture(api, api.adminKey);
    intruderKey = (await api.createTenant('Intruder')).key;
    // The intruder has objects of its own, so a 404 is not just "this tenant has nothing".
    await createFixture(api, intruderKey, 'intruder');
  });
  afterAll(async () => {
    await api.close();
  });

  it('covers every route that takes an id, slug or reference', () => {
    expect(isolationCases(api.app.routes).length).toBeGreaterThanOrEqual(10);
  });

  it("answers 404 to another tenant's ids on every route and changes nothing", async () => {
    const failures = await denialFailures(api, isolationCases(api.app.routes), owner, intruderKey, {
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(failures).toEqual([]);
  });
});
