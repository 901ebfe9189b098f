import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isEventStream } from '../../lib/http/route-schemas.ts';
import type { Route } from '../../lib/http/types.ts';
import { createFixture, fillPath, sampleBody, type TenantFixture } from '../security/route-fixtures.ts';
import {
  type ApiHarness,
  type ApiResponse,
  type LambdaHarness,
  type LocalHarness,
  type RequestOptions,
  startLambdaHarness,
  startLocalHarness,
} from '../support/api-harness.ts';
import { sealedEgress } from '../support/sealed-egress.ts';

/**
 * The cloud path's coverage by construction: every route of the route table is sent once through
 * the api Lambda's handler (middy, the API Gateway adapter, the cloud composition over DynamoDB
 * Local and fauxqs) and once to the local runtime, with the same tenant fixture on each. Both must
 * answer alike, the Lambda path without a 5xx and from the route's own handler. A route added to the
 * table is walked without a change here; one whose request cannot be built fails the walk.
 *
 * Nothing leaves the machine: the local scheduler is off and the Lambda generator never runs (no
 * check is probed), every name resolves to 127.0.0.1 and every channel or action send goes through
 * a sealed transport that dials nothing.
 */

/**
 * Routes whose answers differ between the runtimes on purpose (in what shapeOf compares), and why.
 * An entry whose route answers alike again fails the walk. None today: the known differences (icmp
 * checks refused in the cloud, SMTP or SES, the Secure cookie, plain-HTTP agents from afar) lie in
 * requests the walk does not send or in what it does not compare (messages, headers).
 */
const DIFFERS_ON_PURPOSE: Record<string, string> = {};

/** Query parameters a route requires, by route; a required parameter missing here fails the walk. */
const QUERIES: Record<string, (fx: TenantFixture) => Record<string, string>> = {
  // A client id that is not a URL: a metadata document would be fetched.
  'GET /oauth/authorize': () => ({
    response_type: 'code',
    client_id: 'route-walk',
    redirect_uri: 'https://client.example/callback',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }),
  'GET /v1/sso/start': (fx) => ({ tenant: fx.ids.tenantId ?? '' }),
  'POST /v1/config/convert': () => ({ source: 'gatus' }),
  // Exactly one subject: the fixture's entity, owned by the fixture's team.
  'GET /v1/oncall': (fx) => ({ entity_id: fx.ids.entityId ?? '' }),
};

/** MCP's streamable HTTP transport wants both media types in Accept. */
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

/**
 * Requests of routes the security suites' sampleBody (route-fixtures.ts) does not cover (public
 * routes), or where another body reaches further into the handler. Every other write route takes
 * its sample body, and sampleBody fails for a route it does not know.
 */
const WALK_REQUESTS: Record<string, (fx: TenantFixture) => RequestOptions> = {
  'POST /ping/{token}': () => ({}),
  'POST /ping/{token}/{suffix}': () => ({}),
  'POST /ping/{token}/{slug}/{suffix}': () => ({}),
  'POST /v1/actions/executions/{exec_id}/events': () => ({ body: { status: 'running' } }),
  'POST /v1/mcp': () => ({
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    headers: MCP_ACCEPT,
  }),
  'POST /v1/config/convert': () => ({ rawBody: 'endpoints: []\n', headers: { 'content-type': 'text/yaml' } }),
  'POST /v1/status-pages/{slug}/subscribers/import': () => ({
    rawBody: 'email\nwalker@example.com\n',
    headers: { 'content-type': 'text/csv' },
  }),
  'POST /p/{slug}/subscribe': () => ({ body: { email: 'walker@example.com' } }),
  'POST /p/{slug}/confirm/{token}': () => ({ rawBody: '' }),
  'POST /p/{slug}/subscription/{token}': () => ({
    rawBody: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }),
  'POST /p/{slug}/access': () => ({
    rawBody: 'password=not+the+password',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }),
};

/** Reads first, then writes, deletes last (as the fuzzer's ORDER): deletions would empty the fixture early. */
const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Deletions that take others along go last: an entity its checks and relations, then its blueprint. */
const DELETE_LAST = ['/v1/blueprints/{blueprint_slug}/entities/{slug}', '/v1/blueprints/{slug}'];
const rank = (route: Route) =>
  ORDER.indexOf(route.method) * 10 + (route.method === 'DELETE' ? DELETE_LAST.indexOf(route.path) + 1 : 0);
/** Among the other deletions, deeper paths first: a check's push token before the check. */
const depth = (route: Route) => route.path.split('/').length;
const walkOrder = (routes: readonly Route[]) =>
  [...routes].sort((a, b) => rank(a) - rank(b) || (a.method === 'DELETE' ? depth(b) - depth(a) : 0));

const nameOf = (route: Route) => `${route.method} ${route.path}`;

/** The query parameters a route's schema requires. */
function requiredQuery(route: Route): string[] {
  if (!route.schemas.query) return [];
  const schema = z.toJSONSchema(route.schemas.query, { io: 'input', unrepresentable: 'any' });
  return z.object({ required: z.array(z.string()).optional() }).parse(schema).required ?? [];
}

interface WalkRequest {
  method: string;
  path: string;
  options: RequestOptions;
}

/**
 * The one request of `route` the walk sends: the path filled with the fixture's ids, the required
 * query, the credential the route takes and a valid body. An event stream is asked for with HEAD: its
 * GET through the api Lambda would be buffered until the stream ends.
 */
function walkRequest(route: Route, fx: TenantFixture): WalkRequest {
  const name = nameOf(route);
  const query = QUERIES[name]?.(fx) ?? {};
  const missing = requiredQuery(route).filter((param) => !(param in query));
  if (missing.length > 0)
    throw new Error(`no value for the required query ${missing.join(', ')} of ${name}: add it to QUERIES`);
  const search = new URLSearchParams(query).toString();
  const path = search ? `${fillPath(route, fx)}?${search}` : fillPath(route, fx);
  const checksKey = route.auth === 'none' && route.schemas.checksKey === true;
  const key =
    route.auth === 'location' ? fx.locationKey : route.auth === 'key' || checksKey ? fx.key : undefined;
  const own = WALK_REQUESTS[name]?.(fx);
  const body = own ?? (route.method === 'GET' ? {} : { body: sampleBody(route, fx) });
  const method = route.method === 'GET' && isEventStream(route.schemas) ? 'HEAD' : route.method;
  return { method, path, options: { ...body, ...(key ? { key } : {}) } };
}

/** A JSON error of the API: `{ error, code }`. */
const errorBody = z.object({ code: z.string() });

/**
 * What the walk compares of an answer: the status and media type, the top-level keys of a 2xx JSON
 * body (values differ: ids, times) and the code of a JSON error (its message may name the runtime's
 * settings, as a missing SMTP server or SES sender does).
 */
function shapeOf(res: ApiResponse): string {
  const type = res.headers['content-type']?.split(';')[0] ?? '';
  const head = `${res.status} ${type}`.trim();
  const body: unknown = res.body;
  if (type !== 'application/json' || typeof body !== 'object' || body === null) return head;
  if (res.status >= 300) return `${head} ${errorBody.safeParse(body).data?.code ?? ''}`.trim();
  const keys = (value: unknown) =>
    typeof value === 'object' && value !== null ? Object.keys(value).sort().join(',') : typeof value;
  // A list: the keys of its items (the same walk makes the same items on both runtimes).
  const shape = Array.isArray(body)
    ? `[${[...new Set(body.map(keys))].sort().join(' | ')}]`
    : `{${keys(body)}}`;
  return `${head} ${shape}`;
}

/** Spies on every route handler of `api`, so the walk can tell a handler's answer from the router's own refusal. */
function spyOnHandlers(api: ApiHarness): Map<Route, { mock: { calls: unknown[] } }> {
  return new Map(api.app.routes.map((route) => [route, vi.spyOn(route, 'handler')]));
}

interface Walked {
  name: string;
  local: ApiResponse;
  lambda: ApiResponse;
  /** Whether the route's handler ran for the request on each runtime. */
  handled: { local: boolean; lambda: boolean };
}

describe('a walk of the route table through the Lambda adapter and the local runtime', () => {
  let local: LocalHarness;
  let lambda: LambdaHarness;
  const walked: Walked[] = [];

  beforeAll(async () => {
    const egress = () => ({
      resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
      transport: sealedEgress().transport,
    });
    [local, lambda] = await Promise.all([
      startLocalHarness({ scheduler: false, env: { VIGIL_PROBE_THREADS: '0' }, egress: egress() }),
      startLambdaHarness({ egress: egress() }),
    ]);
    const [localFx, lambdaFx] = await Promise.all([
      createFixture(local, local.adminKey),
      createFixture(lambda, lambda.adminKey),
    ]);
    // The fixture's seeded incident and deliveries settle on both before the first read.
    await Promise.all([local.drainChanges(), lambda.drainChanges()]);
    // A spy counts one runtime's calls only if the two compositions share no route object.
    const shared = local.app.routes.filter((route) => lambda.app.routes.includes(route)).map(nameOf);
    if (shared.length > 0) throw new Error(`route objects shared by both runtimes: ${shared.join(', ')}`);
    const runtimes = [
      { api: local, fx: localFx, spies: spyOnHandlers(local) },
      { api: lambda, fx: lambdaFx, spies: spyOnHandlers(lambda) },
    ] as const;
    /** Sends the walk's request of `name` to one runtime; tells whether the route's handler ran for it. */
    const send = async ({ api, fx, spies }: (typeof runtimes)[number], name: string) => {
      const route = api.app.routes.find((r) => nameOf(r) === name);
      if (!route) throw new Error(`${name} is not in the ${api.runtime} route table`);
      const calls = () => spies.get(route)?.mock.calls.length ?? 0;
      const before = calls();
      const req = walkRequest(route, fx);
      const res = await api.request(req.method, req.path, req.options);
      const handled = calls() > before;
      // What a request sets off through the change feed (an entity's purge, a ping's transition,
      // notify and action jobs) settles before the next one, so both runtimes see the same state.
      await api.drainChanges();
      return { res, handled };
    };
    for (const route of walkOrder(local.app.routes)) {
      const name = nameOf(route);
      // Each runtime has its own store: the two answer the same request side by side.
      const [l, c] = await Promise.all(runtimes.map((runtime) => send(runtime, name)));
      if (!l || !c) throw new Error(`${name}: no answer`);
      walked.push({ name, local: l.res, lambda: c.res, handled: { local: l.handled, lambda: c.handled } });
    }
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await Promise.all([local?.close(), lambda?.close()]);
  });

  it('walks every route of both route tables once', () => {
    expect(walked.map((w) => w.name).sort()).toEqual(lambda.app.routes.map(nameOf).sort());
    expect(walked.length).toBeGreaterThanOrEqual(100);
  });

  it('reaches past validation: most routes succeed on the Lambda path', () => {
    // Alike answers prove little if most are refusals (a body table gone stale answers 400 on both).
    const refused = walked
      .filter((w) => w.lambda.status >= 400)
      .map((w) => `${w.name} -> ${w.lambda.status}`);
    expect(refused.length, refused.join('\n')).toBeLessThan(walked.length * 0.2);
  });

  it('answers every route through the Lambda adapter from its handler, without a 5xx', () => {
    const failures = walked.flatMap((w) => [
      ...(w.lambda.status >= 500 ? [`${w.name} -> ${w.lambda.status} on lambda: ${w.lambda.text}`] : []),
      ...(w.handled.lambda
        ? []
        : [`${w.name} -> ${w.lambda.status} on lambda without reaching its handler: ${w.lambda.text}`]),
      ...(w.handled.local
        ? []
        : [`${w.name} -> ${w.local.status} locally without reaching its handler: ${w.local.text}`]),
    ]);
    expect(failures).toEqual([]);
  });

  it('answers each route alike on both runtimes: the same status, the same keys of a JSON success', () => {
    const differing = walked
      .filter((w) => shapeOf(w.local) !== shapeOf(w.lambda))
      .filter((w) => !(w.name in DIFFERS_ON_PURPOSE))
      .map(
        (w) =>
          `${w.name}: local ${shapeOf(w.local)}, lambda ${shapeOf(w.lambda)}\n  local: ${w.local.text.slice(0, 300)}\n  lambda: ${w.lambda.text.slice(0, 300)}`,
      );
    expect(differing).toEqual([]);
  });

  it('still sees a difference on every route allowed to differ', () => {
    const stale = Object.keys(DIFFERS_ON_PURPOSE).filter((name) => {
      const w = walked.find((x) => x.name === name);
      return !w || shapeOf(w.local) === shapeOf(w.lambda);
    });
    expect(stale, 'remove these from DIFFERS_ON_PURPOSE: the runtimes answer them alike').toEqual([]);
  });
});
