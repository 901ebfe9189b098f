import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { createRouter } from '../../lib/http/router.ts';
import { createReadGate } from '../../lib/http/routing/read-gate.ts';
import type { HttpRequest, HttpResponse, Route } from '../../lib/http/types.ts';
import { silentLogger } from '../../lib/platform/logger.ts';

/**
 * The per-tenant bound on expensive reads (issue 36 item 3), through the router: at most
 * `perTenant` of one tenant's expensive reads run, `queue` more wait up to `waitMs`, the rest are
 * 429 with Retry-After at once; other tenants, cheap routes and /healthz never wait on it.
 * Handlers block on a latch the test opens, so every count is exact; the wait runs on fake timers.
 */

const principal = (tenantId: string): Principal => ({
  tenantId,
  userId: `usr_${tenantId}`,
  keyId: `key_${tenantId}`,
  role: 'member',
  readOnly: false,
});

function rig(settings = { perTenant: 4, queue: 2, waitMs: 60_000 }) {
  let open!: () => void;
  const latch = new Promise<void>((resolve) => {
    open = resolve;
  });
  const entered: string[] = [];
  const route = (path: string, expensive: boolean): Route => ({
    method: 'GET',
    path,
    auth: 'key',
    expensive,
    operationId: path,
    tag: 'Test',
    schemas: { responses: {} },
    handler: async (ctx) => {
      entered.push(`${ctx.principal.tenantId} ${path}`);
      await latch;
      if (ctx.query.fail) throw new Error('store down');
      return { status: 200, body: { ok: true } };
    },
  });
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/healthz',
      auth: 'none',
      limit: 'none',
      operationId: 'health',
      tag: 'Meta',
      schemas: { responses: {} },
      handler: async () => ({ status: 200, body: { status: 'ok' } }),
    },
    route('/v1/heavy', true),
    route('/v1/cheap', false),
  ];
  const authenticate = async (authorization: string | undefined) =>
    principal(authorization?.replace('Bearer ', '') ?? 'none');
  const router = createRouter({
    routes,
    authenticate,
    rateLimit: {
      admit: async (req, auth) => ({ principal: await auth(req.headers.authorization), headers: {} }),
      admitAddress: async () => ({}),
    },
    logger: silentLogger,
    readGate: createReadGate(settings),
  });
  let n = 0;
  const get = (path: string, tenant?: string, query: Record<string, string> = {}) => {
    n += 1;
    const req: HttpRequest = {
      method: 'GET',
      path,
      query,
      headers: tenant ? { authorization: `Bearer ${tenant}` } : {},
      body: Buffer.alloc(0),
      requestId: `r${n}`,
    };
    return router.handle(req);
  };
  return { get, entered, open };
}

/** Settles `promises` into a live list of statuses (undefined while pending). */
function track(promises: Promise<HttpResponse>[]) {
  const answers: (HttpResponse | undefined)[] = promises.map(() => undefined);
  promises.forEach((p, i) => {
    void p.then((r) => {
      answers[i] = r;
    });
  });
  return {
    answers,
    statuses: () => answers.map((a) => a?.status),
    count: (status: number) => answers.filter((a) => a?.status === status).length,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the expensive-read bound', () => {
  it('runs 4 of a tenant’s expensive reads, queues 2, refuses the rest with 429 and Retry-After', async () => {
    const { get, entered, open } = rig();
    const heavy = track(Array.from({ length: 10 }, () => get('/v1/heavy', 'acme')));
    await vi.waitFor(() => expect(heavy.count(429)).toBe(4), { timeout: 5_000 });
    expect(entered).toHaveLength(4);
    const refused = heavy.answers.find((a) => a?.status === 429);
    expect(refused?.headers['Retry-After']).toBe('1');
    expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ code: 'RATE_LIMITED' });

    // While the tenant's reads hold every slot: /healthz, a cheap route and another tenant answer.
    expect((await get('/healthz')).status).toBe(200);
    const cheap = get('/v1/cheap', 'acme');
    const other = get('/v1/heavy', 'globex');
    await vi.waitFor(() => expect(entered).toHaveLength(6), { timeout: 5_000 });
    expect(entered.slice(4).sort()).toEqual(['acme /v1/cheap', 'globex /v1/heavy']);

    open();
    await vi.waitFor(() => expect(heavy.count(200)).toBe(6), { timeout: 5_000 });
    expect((await cheap).status).toBe(200);
    expect((await other).status).toBe(200);
    // The queued two ran once slots freed: six ran in all, never more than four at once.
    expect(entered.filter((e) => e === 'acme /v1/heavy')).toHaveLength(6);
  });

  it('refuses a queued read that waited its whole bound, and frees slots of failed handlers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { get, entered, open } = rig({ perTenant: 1, queue: 1, waitMs: 1_000 });
    const first = get('/v1/heavy', 'acme', { fail: '1' });
    await vi.waitFor(() => expect(entered).toHaveLength(1), { timeout: 5_000 });
    const queued = track([get('/v1/heavy', 'acme')]);
    // Let the queued request reach the gate (authentication first), then pass its bound.
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
      expect(queued.count(429)).toBe(1);
    });
    open();
    // The first handler throws: a 500, and its slot is free again.
    expect((await first).status).toBe(500);
    expect((await get('/v1/heavy', 'acme')).status).toBe(200);
  });
});
