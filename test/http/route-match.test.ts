import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from '../../lib/http/routing/route-match.ts';
import type { Route } from '../../lib/http/types.ts';
import { MethodNotAllowedError, NotFoundError } from '../../lib/platform/errors.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { queuelessApp } from '../support/queueless-app.ts';

/** The matcher without its candidate index: every route's regex (its own characters escaped), in the table's order. */
function linearMatcher(routes: Route[]) {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const pattern = route.path
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
    return { route, regex: new RegExp(`^${pattern}/?$`), names };
  });
  return (requestMethod: string, path: string) => {
    const allowed: string[] = [];
    let textHeaders: Record<string, string> | undefined;
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    for (const c of compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      if (c.route.method !== method) {
        textHeaders ??= c.route.textRefusalHeaders;
        allowed.push(c.route.method);
        if (c.route.method === 'GET') allowed.push('HEAD');
        continue;
      }
      const params: Record<string, string> = {};
      c.names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1] ?? '');
        } catch {
          throw new NotFoundError('path');
        }
      });
      return { route: c.route, params };
    }
    if (allowed.length > 0) throw new MethodNotAllowedError(allowed, textHeaders);
    throw new NotFoundError('route');
  };
}

/** What a match came to, comparable: the route (by its place in the table) and params, or the refusal. */
function outcome(
  routes: Route[],
  match: (method: string, path: string) => unknown,
  method: string,
  path: string,
) {
  try {
    const { route, params } = match(method, path) as { route: Route; params: Record<string, string> };
    return { route: routes.indexOf(route), params };
  } catch (err) {
    if (err instanceof MethodNotAllowedError)
      return { status: 405, message: err.message, headers: err.headers };
    if (err instanceof NotFoundError) return { status: 404, message: err.message };
    throw err;
  }
}

const routes = queuelessApp(createSqliteTable({ db: openSqliteDatabase(':memory:') })).routes;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const fill = (path: string, value: string) => path.replace(/\{[a-z_]+\}/g, value);

describe('the route matcher', () => {
  const indexed = createRouteMatcher(routes);
  const linear = linearMatcher(routes);
  const same = (method: string, path: string) =>
    expect(outcome(routes, indexed, method, path), `${method} ${path}`).toEqual(
      outcome(routes, linear, method, path),
    );

  it('answers every route of the table as the whole-table scan does, with each method and trailing slashes', () => {
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes)
      for (const value of ['chk_01ABC', 'a%20b', '%E0%A4%A', 'x.y'])
        for (const path of [
          fill(route.path, value),
          `${fill(route.path, value)}/`,
          `${fill(route.path, value)}//`,
        ])
          for (const method of METHODS) same(method, path);
  });

  it("matches a path's dot only as a dot: status.json is no pattern for status/json", () => {
    const match = createRouteMatcher(routes);
    expect(match('GET', '/p/x/status.json').route.path).toBe('/p/{slug}/status.json');
    expect(match('GET', '/ical/abc.ics').params).toEqual({ token: 'abc' });
    for (const path of ['/p/x/status/json', '/p/x/statusXjson', '/ical/abcXics', '/v1/config/schemaxjson']) {
      expect(() => match('GET', path), path).toThrow(NotFoundError);
    }
  });

  it('answers odd paths as the whole-table scan does: dots, empty segments, no leading slash', () => {
    for (const path of [
      '/',
      '//',
      '',
      'v1/checks',
      '/v1//checks',
      '/p/x/status/json',
      '/p/x/statusXjson',
      '/ical/a/b.ics',
      '/ical/abc.ics/',
      '/v1/checks/a/b/c/d/e/f/g/h/i/j',
      '/V1/checks',
    ])
      for (const method of METHODS) same(method, path);
  });

  it('answers any path made of the table words as the whole-table scan does', () => {
    const words = [...new Set(routes.flatMap((r) => r.path.split('/')))];
    const segment = fc.oneof(
      fc.constantFrom(...words),
      fc.constantFrom('', '.', 'x', 'status.json', 'a%2Fb', '%zz'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...METHODS),
        fc.array(segment, { minLength: 0, maxLength: 7 }),
        fc.boolean(),
        (method, segments, slash) => {
          same(method, `/${segments.join('/')}${slash ? '/' : ''}`);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
