import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { defineRoute } from '../../lib/http/define-route.ts';
import { createRouter } from '../../lib/http/router.ts';
import type { HttpRequest, Route, RouteContext } from '../../lib/http/types.ts';
import { createLogger, type Logger } from '../../lib/platform/logger.ts';

/**
 * The router's log lines: one `request` line per request, carrying its request_id right after the
 * base fields; a handler's own lines carry the request_id and its caller (tenant and key). The
 * request's loggers are made only when something logs through them (issue 78), the lines the same.
 */

const principal: Principal = {
  tenantId: 'tnt_a',
  userId: 'usr_a',
  keyId: 'key_a',
  role: 'member',
  readOnly: false,
};

function rig() {
  const lines: string[] = [];
  let children = 0;
  /** The logger, counting the child loggers made of it and of its children. */
  const counted = (inner: Logger): Logger => ({
    ...inner,
    child: (fields) => {
      children += 1;
      return counted(inner.child(fields));
    },
  });
  const logger = counted(createLogger({ base: { service: 'test' }, write: (line) => lines.push(line) }));
  const route = (path: string, auth: 'key' | 'none', logs: boolean): Route => ({
    method: 'GET',
    path,
    auth,
    ...(auth === 'none' ? { limit: 'none' as const } : {}),
    operationId: path,
    tag: 'Test',
    schemas: { responses: {} },
    handler: async (ctx: RouteContext) => {
      if (logs) ctx.logger.info('handled', { n: 1 });
      if (ctx.query.fail) throw new Error('store down');
      return { status: 200, body: { ok: true } };
    },
  });
  const defined = (path: string, logs: boolean) =>
    defineRoute({
      method: 'GET',
      path,
      auth: 'key',
      operationId: path,
      tag: 'Test',
      schemas: { responses: {} },
      handler: async (ctx) => {
        if (logs) ctx.logger.info('handled', { n: 1 });
        return { status: 200, body: { ok: true } };
      },
    });
  const router = createRouter({
    routes: [
      defined('/v1/defined-quiet', false),
      defined('/v1/defined-loud', true),
      route('/v1/quiet', 'key', false),
      route('/v1/loud', 'key', true),
      route('/open/quiet', 'none', false),
      route('/open/loud', 'none', true),
    ],
    authenticate: async () => principal,
    rateLimit: {
      admit: async (req, auth) => ({ principal: await auth(req.headers.authorization), headers: {} }),
      admitAddress: async () => ({}),
    },
    logger,
  });
  const get = async (path: string, requestId: string, query: Record<string, string> = {}) => {
    const req: HttpRequest = {
      method: 'GET',
      path,
      query,
      headers: { authorization: 'Bearer k' },
      body: Buffer.alloc(0),
      requestId,
    };
    const response = await router.handle(req);
    // The time and duration vary; everything else, its keys' order included, is compared.
    const logged = lines.splice(0).map((line) => {
      const { time: _time, duration_ms: _ms, ...rest } = JSON.parse(line);
      return Object.entries(rest);
    });
    const made = children;
    children = 0;
    return { status: response.status, logged, made };
  };
  return { get };
}

const requestLine = (requestId: string, path: string, status: number) => [
  ['level', 'info'],
  ['msg', 'request'],
  ['service', 'test'],
  ['request_id', requestId],
  ['method', 'GET'],
  ['path', path],
  ['status', status],
];

describe('the router logs', () => {
  it('one request line, its request_id after the base fields, for a request whose handler logs nothing', async () => {
    const { get } = rig();
    expect(await get('/v1/quiet', 'r1')).toEqual({
      status: 200,
      logged: [requestLine('r1', '/v1/quiet', 200)],
      made: 0,
    });
    expect(await get('/open/quiet', 'r2')).toEqual({
      status: 200,
      logged: [requestLine('r2', '/open/quiet', 200)],
      made: 0,
    });
  });

  it("a handler's lines with the request_id and its caller, then the same request line", async () => {
    const { get } = rig();
    expect(await get('/v1/loud', 'r3')).toEqual({
      status: 200,
      made: 2,
      logged: [
        [
          ['level', 'info'],
          ['msg', 'handled'],
          ['service', 'test'],
          ['request_id', 'r3'],
          ['tenant_id', 'tnt_a'],
          ['key_id', 'key_a'],
          ['n', 1],
        ],
        requestLine('r3', '/v1/loud', 200),
      ],
    });
    expect(await get('/open/loud', 'r4')).toEqual({
      status: 200,
      made: 1,
      logged: [
        [
          ['level', 'info'],
          ['msg', 'handled'],
          ['service', 'test'],
          ['request_id', 'r4'],
          ['n', 1],
        ],
        requestLine('r4', '/open/loud', 200),
      ],
    });
  });

  it('through a defined route (its request parsed), the same lines, and no child logger unless the handler logs', async () => {
    const { get } = rig();
    expect(await get('/v1/defined-quiet', 'r6')).toEqual({
      status: 200,
      logged: [requestLine('r6', '/v1/defined-quiet', 200)],
      made: 0,
    });
    const loud = await get('/v1/defined-loud', 'r7');
    expect(loud.made).toBe(2);
    expect(loud.logged[0]).toEqual([
      ['level', 'info'],
      ['msg', 'handled'],
      ['service', 'test'],
      ['request_id', 'r7'],
      ['tenant_id', 'tnt_a'],
      ['key_id', 'key_a'],
      ['n', 1],
    ]);
    expect(loud.logged[1]).toEqual(requestLine('r7', '/v1/defined-loud', 200));
  });

  it('a failed request: its error line with the request_id, then its request line', async () => {
    const { get } = rig();
    const { status, logged } = await get('/v1/quiet', 'r5', { fail: '1' });
    expect(status).toBe(500);
    expect(logged).toHaveLength(2);
    expect(Object.fromEntries(logged[0] ?? [])).toMatchObject({ level: 'error', request_id: 'r5' });
    expect(logged[1]).toEqual(requestLine('r5', '/v1/quiet', 500));
  });
});
