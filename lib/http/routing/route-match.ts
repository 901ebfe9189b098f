import { MethodNotAllowedError, NotFoundError } from '../../platform/errors.ts';
import type { Route } from '../types.ts';

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
  /** The path's segments: a plain word (letters, digits, `_`, `-`) is matched as it is; any other (a parameter, `{token}.ics`) by the regex alone. */
  segments: Array<string | undefined>;
}

/** A segment the regex matches only by itself: no parameter and no character the regex reads as more than itself. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_-]+$/;

const SLASH = 47; // '/'

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  // The path's own characters match only themselves (the `.` of `status.json` is no wildcard).
  const pattern = route.path
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const param = /^\{([a-z_]+)\}$/.exec(part);
      if (!param) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(param[1] as string);
      return '([^/]+)';
    })
    .join('');
  const segments = route.path
    .slice(1)
    .split('/')
    .map((s) => (PLAIN_SEGMENT.test(s) ? s : undefined));
  return { route, regex: new RegExp(`^${pattern}/?$`), names, segments };
}

function decodeParam(raw: string): string {
  // Without a '%' there is nothing to decode (an id, a slug): the text as it is.
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new NotFoundError('path');
  }
}

/** A route matched to a request: the route and its decoded path parameters. */
export interface MatchedRoute {
  route: Route;
  params: Record<string, string>;
}

/**
 * The routes whose regex may match a path, in the table's order: a route's regex matches only a
 * path of as many segments (one trailing `/` aside; a parameter never spans a `/`) whose segments
 * equal its plain ones (its own characters are escaped: no `.` spans a `/`). Candidates are kept
 * per segment count and first two segments (those not plain in any route folded into one), so a
 * request tries a handful of regexes, not the whole table.
 */
function createCandidates(compiled: CompiledRoute[]): (path: string) => CompiledRoute[] {
  const plainFirst = new Set(compiled.flatMap((c) => c.segments[0] ?? []));
  const plainSecond = new Set(compiled.flatMap((c) => c.segments[1] ?? []));
  const longest = Math.max(0, ...compiled.map((c) => c.segments.length));
  const lists = new Map<string, CompiledRoute[]>();
  const fits = (c: CompiledRoute, count: number, first: string | undefined, second: string | undefined) =>
    c.segments.length === count &&
    (c.segments[0] === undefined || c.segments[0] === first) &&
    (c.segments[1] === undefined || c.segments[1] === second);
  return (path) => {
    if (path.charCodeAt(0) !== SLASH) return compiled;
    // One trailing '/' is the regexes' own (`/?$`): left out of the count.
    const end = path.length > 1 && path.charCodeAt(path.length - 1) === SLASH ? path.length - 1 : path.length;
    let count = 1;
    let firstEnd = end;
    let secondEnd = end;
    for (let i = 1; i < end; i += 1) {
      if (path.charCodeAt(i) !== SLASH) continue;
      if (count === 1) firstEnd = i;
      else if (count === 2) secondEnd = i;
      count += 1;
    }
    if (count > longest) return [];
    // A segment no route names plainly can only meet parameters: one key stands for all of them.
    const firstText = path.slice(1, firstEnd);
    const first = plainFirst.has(firstText) ? firstText : undefined;
    const secondText = count > 1 ? path.slice(firstEnd + 1, secondEnd) : '';
    const second = count > 1 && plainSecond.has(secondText) ? secondText : undefined;
    const key = `${count}/${first ?? ''}/${second ?? ''}`;
    let list = lists.get(key);
    if (!list) {
      list = compiled.filter((c) => fits(c, count, first, second));
      lists.set(key, list);
    }
    return list;
  };
}

/**
 * The route table's matcher, shared by the router and the in-process invoker
 * (lib/http/routing/route-invoker.ts): the first route whose path and method match; 405 naming the
 * allowed methods when only the path does; 404 when nothing does.
 */
export function createRouteMatcher(routes: Route[]): (method: string, path: string) => MatchedRoute {
  const candidates = createCandidates(routes.map(compile));
  return (requestMethod, path) => {
    const allowed: string[] = [];
    let textHeaders: Record<string, string> | undefined;
    // HEAD is GET without the body (RFC 9110 9.3.2): every GET route answers it.
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    for (const c of candidates(path)) {
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
        params[name] = decodeParam(m[i + 1] ?? '');
      });
      return { route: c.route, params };
    }
    if (allowed.length > 0) throw new MethodNotAllowedError(allowed, textHeaders);
    throw new NotFoundError('route');
  };
}
