import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginSteps, PASSWORD } from '../check-types/support/login-api.ts';
import { useLoginApp } from '../check-types/support/login-app.ts';
import { type ApiHarness, bothRuntimes, runtimes } from '../support/api-harness.ts';
import { newEntity } from './check-fixtures.ts';

/**
 * POST /v1/checks/run-draft, the console editor's "Run now" before saving: a check that is not
 * stored yet is probed once as its saved form would be, and nothing is stored. Both runtimes (in
 * the cloud the API function probes, as POST /v1/checks/{id}/run does for a pull check).
 */
describe.each(bothRuntimes)('running a draft check ($runtime runtime)', ({ start }) => {
  const app = useLoginApp(start);
  const call = (method: string, path: string, options: { body?: unknown; key?: string } = {}) =>
    app.api.request(method, path, { key: options.key ?? app.api.adminKey, ...options });
  const steps = (password: string) => loginSteps(app.server.origin, password);
  const draft = (config: unknown, key?: string) =>
    call('POST', '/v1/checks/run-draft', {
      body: { entity_id: app.entityId, check_type: 'multistep', config },
      ...(key ? { key } : {}),
    });

  it("answers each step's outcome of a passing draft, and stores no check and no result", async () => {
    const before = app.server.requests.length;

    const run = await draft(steps(PASSWORD));

    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({
      stored: false,
      outcome: 'up',
      success: true,
      details: {
        steps: [
          { name: 'login', outcome: 'passed', status_code: 200 },
          { name: 'me', outcome: 'passed', status_code: 200 },
        ],
      },
    });
    expect(app.server.requests.length - before).toBe(2);
    expect((await call('GET', '/v1/checks')).body).toEqual([]);
  });

  it('names the failing step of a failing draft, the rest skipped, its secret nowhere in the answer', async () => {
    const run = await draft(steps('wrong-s3cret-value'));

    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({
      stored: false,
      outcome: 'down',
      success: false,
      details: {
        failed_step: 'login',
        steps: [
          { name: 'login', outcome: 'failed', status_code: 401 },
          { name: 'me', outcome: 'skipped' },
        ],
      },
    });
    expect(run.text).not.toContain('wrong-s3cret-value');
  });

  it("refuses what a create refuses: a bad config (400), another tenant's entity (404), a push check (409), a read-only key (403)", async () => {
    const other = await app.api.createTenant('Elsewhere');
    const readOnly = (await call('POST', '/v1/auth/keys', { body: { label: 'ro', is_read_only: true } })).body
      .key as string;
    const before = app.server.requests.length;

    const invalid = await draft({ steps: [] });
    const foreign = await draft(steps(PASSWORD), other.key);
    const push = await call('POST', '/v1/checks/run-draft', {
      body: { entity_id: app.entityId, check_type: 'push', interval_seconds: 3600 },
    });
    const denied = await draft(steps(PASSWORD), readOnly);

    expect(invalid.status, invalid.text).toBe(400);
    expect(foreign.status, foreign.text).toBe(404);
    expect(push.status, push.text).toBe(409);
    expect(denied.status, denied.text).toBe(403);
    expect(app.server.requests.length).toBe(before);
  });
});

/** What every probe's target passes: the SSRF guard refuses a draft's private target like a saved check's. */
describe.each(runtimes)('a draft check behind the SSRF guard ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;

  beforeAll(async () => {
    api = await start();
    entityId = await newEntity(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('answers the metadata address refused, as the probe reports it, and the tenant budget then 429', async () => {
    const run = () =>
      api.request('POST', '/v1/checks/run-draft', {
        key: api.adminKey,
        body: {
          entity_id: entityId,
          check_type: 'http',
          target_url: 'http://169.254.169.254/latest/meta-data/',
        },
      });

    const refused = await run();

    expect(refused.status, refused.text).toBe(200);
    expect(refused.body).toMatchObject({ stored: false, outcome: 'down', success: false, status_code: 0 });
    expect(String(refused.body.error_message)).toBe(
      'destination 169.254.169.254 is a cloud metadata address',
    );
    let last = refused;
    for (let i = 0; i < 25 && last.status === 200; i += 1) last = await run();
    expect(last.status, last.text).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});
