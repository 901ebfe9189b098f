import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../lib/http/router.ts';
import type { HttpRequest, RouteContext } from '../../lib/http/types.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { UnauthorizedError } from '../../lib/platform/errors.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { pingRoutes } from '../../lib/push/pings/ping-routes.ts';
import type { PingTarget, SlugResolver } from '../../lib/push/pings/ping-target.ts';
import { createPushTokenService, UnknownPingTokenError } from '../../lib/push/tokens/token-service.ts';
import { type ApiHarness, type ApiResponse, runtimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/** A ping key as the "slug" feature makes them: 22 URL-safe characters. */
const PING_KEY = 'Qx7-Lm2_Zr9TkWb4Ys8NvA';

/**
 * Slug URLs (`/ping/<ping key>/<slug>[/<suffix>]`), the route side: the URL read, the
 * SlugResolver called, the ping recorded as for a token. The resolver here is the test's own (the
 * slug feature implements the real one, lib/push/slugs/slug-resolver.ts); the routes run in a router of
 * their own over each runtime's store and services.
 */
describe.each(runtimes)('Pinging API slug URLs ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const kit = pingKit(() => api);
  const slugs = new Map<string, string>();
  const calls: Array<{ pingKey: string; slug: string; create: boolean }> = [];
  let send: (method: string, path: string, body?: string) => Promise<ApiResponse>;

  const resolver: SlugResolver = {
    async resolve(_ctx: RouteContext, pingKey, slug, options): Promise<PingTarget> {
      calls.push({ pingKey, slug, create: options.create });
      if (pingKey !== PING_KEY) throw new UnknownPingTokenError();
      const known = slugs.get(slug);
      if (known) return { tenantId: api.tenantId, checkId: known };
      if (!options.create) throw new UnknownPingTokenError();
      const { checkId } = await kit.pushCheck({ name: slug });
      slugs.set(slug, checkId);
      return { tenantId: api.tenantId, checkId, created: true };
    },
  };

  beforeAll(async () => {
    api = await start();
    const { app } = api;
    const logger = createLogger({ level: 'error', write: () => undefined });
    const routes = pingRoutes({
      table: api.table,
      clock: systemClock,
      config: app.config,
      checkService: app.checkService,
      checks: app.checks,
      recorder: app.recorder,
      tenants: app.tenants,
      pushTokens: createPushTokenService({
        table: api.table,
        checkService: app.checkService,
        clock: systemClock,
        logger,
      }),
      logger,
      limits: {
        attempt: (_caller, _id, verify) => verify(),
        attemptPingKey: (_bucket, verify) => verify(),
        admitPing: async () => ({}),
        admitPingBody: async () => true,
      },
      slugs: resolver,
    });
    const router = createRouter({
      routes,
      authenticate: async () => {
        throw new UnauthorizedError();
      },
      rateLimit: {
        admit: async () => {
          throw new UnauthorizedError();
        },
        admitAddress: async () => ({}),
      },
      logger,
    });
    let n = 0;
    send = async (method, path, body) => {
      const [bare = path, search = ''] = path.split('?');
      n += 1;
      const req: HttpRequest = {
        method,
        path: bare,
        query: Object.fromEntries(new URLSearchParams(search)),
        headers: { 'user-agent': 'runitor/v1.3.0' },
        body: Buffer.from(body ?? ''),
        requestId: `slug-${n}`,
        sourceIp: '127.0.0.1',
      };
      const res = await router.handle(req);
      const text = res.stream
        ? Buffer.from(await new Response(res.stream).arrayBuffer()).toString()
        : res.body;
      return { status: res.status, headers: res.headers, body: undefined, text };
    };
  });
  afterAll(async () => {
    await api.close();
  });

  const slugCheck = async (slug: string) => {
    const { checkId } = await kit.pushCheck({ name: slug });
    slugs.set(slug, checkId);
    return checkId;
  };

  it('slug success (GET, POST, HEAD): 200 OK, a success result', async () => {
    const checkId = await slugCheck('nightly-backup');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/nightly-backup`), 200, 'OK');
    kit.expectText(await send('POST', `/ping/${PING_KEY}/nightly-backup`, 'all done'), 200, 'OK');
    const head = await send('HEAD', `/ping/${PING_KEY}/nightly-backup`);
    expect([head.status, head.text]).toEqual([200, '']);

    // Only the success with a body is logged: plain ones are their results only.
    expect((await kit.pings(checkId)).map((p) => [p.kind, p.method, p.body])).toEqual([
      ['success', 'POST', 'all done'],
    ]);
    expect(await kit.results(checkId)).toHaveLength(3);
    expect((await kit.state(checkId)).state).toBe('up');
    expect(calls.at(-1)).toEqual({ pingKey: PING_KEY, slug: 'nightly-backup', create: false });
  });

  it('slug /start, /log, /fail: the run started, a log entry, a failure with its duration', async () => {
    const checkId = await slugCheck('db-dump');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/db-dump/start`), 200, 'OK');
    expect((await kit.state(checkId)).run_started_at).toBeTruthy();
    kit.expectText(await send('POST', `/ping/${PING_KEY}/db-dump/log`, 'halfway'), 200, 'OK');
    kit.expectText(await send('POST', `/ping/${PING_KEY}/db-dump/fail`, 'disk full'), 200, 'OK');

    const pings = await kit.pings(checkId);
    expect(pings.map((p) => [p.kind, p.body])).toEqual([
      ['fail', 'disk full'],
      ['log', 'halfway'],
      ['start', ''],
    ]);
    expect(pings[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    expect((await kit.results(checkId)).map((r) => r.success)).toEqual([false]);
    expect((await kit.state(checkId)).state).toBe('down');
  });

  it('slug /<exit status>: 0 a success, 1-255 a failure, above 255 400 "invalid url format"', async () => {
    const checkId = await slugCheck('etl_job');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/etl_job/0`), 200, 'OK');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/etl_job/127`), 200, 'OK');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/etl_job/256`), 400, 'invalid url format');

    expect((await kit.results(checkId)).map((r) => [r.success, r.error_message])).toEqual([
      [false, 'exit status 127'],
      [true, ''],
    ]);
  });

  it('slug ?rid=: kept with the ping; not a UUID: 400 "invalid uuid format"', async () => {
    const checkId = await slugCheck('rid-job');
    const rid = '0b7e4f4e-5d0c-4c55-9d2f-1c1f0a9e7a11';
    kit.expectText(await send('GET', `/ping/${PING_KEY}/rid-job/start?rid=${rid}`), 200, 'OK');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/rid-job?rid=nope`), 400, 'invalid uuid format');
    expect((await kit.pings(checkId)).map((p) => p.rid)).toEqual([rid]);
  });

  it('?create=1: the resolver creates the check, 201 Created, then 200 OK', async () => {
    const created = await send('POST', `/ping/${PING_KEY}/fresh-job?create=1`, 'first run');
    kit.expectText(created, 201, 'Created');
    expect(calls.at(-1)).toEqual({ pingKey: PING_KEY, slug: 'fresh-job', create: true });
    const checkId = slugs.get('fresh-job') ?? '';
    expect((await kit.pings(checkId))[0]).toMatchObject({ kind: 'success', body: 'first run' });
    kit.expectText(await send('GET', `/ping/${PING_KEY}/fresh-job?create=1`), 200, 'OK');
  });

  it('an unknown slug or ping key: 404 "not found"; an upper-case slug: 400 "invalid url format"', async () => {
    await slugCheck('known');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/unknown-slug`), 404, 'not found');
    kit.expectText(await send('GET', `/ping/${PING_KEY.replace('Q', 'R')}/known`), 404, 'not found');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/Known`), 400, 'invalid url format');
    // Outside Django's slug alphabet, and forms that are none: 404 without asking the resolver.
    const before = calls.length;
    kit.expectText(await send('GET', `/ping/${PING_KEY}/kn%2Eown`), 404, 'not found');
    kit.expectText(await send('GET', `/ping/${PING_KEY}/known/finish`), 404, 'not found');
    expect(calls.length).toBe(before);
  });

  it('a token URL is never read as a slug URL: /ping/<uuid>/<slug>/<suffix> is 404 "not found"', async () => {
    const { token } = await kit.pushCheck();
    const before = calls.length;
    kit.expectText(await send('GET', `/ping/${token}/known/start`), 404, 'not found');
    kit.expectText(await send('GET', `/ping/${token}/known`), 404, 'not found');
    expect(calls.length).toBe(before);
  });

  it('through the app, a ping key it does not know: 404 "not found"', async () => {
    await slugCheck('unresolved');
    kit.expectText(await api.request('GET', `/ping/${PING_KEY}/unresolved`), 404, 'not found');
    kit.expectText(await api.request('POST', `/ping/${PING_KEY}/unresolved/fail`), 404, 'not found');
  });
});
