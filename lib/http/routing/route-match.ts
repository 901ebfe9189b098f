import { MethodNotAllowedError, NotFoundError } from '../../platform/errors.ts';
import type { Route } from '../types.ts';

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const pattern = route.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, regex: new RegExp(`^${pattern}/?$`), names };
}

function decodeParam(raw: string): string {
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
 * The route table's matcher, shared by the router and the in-process invoker
 * (lib/http/routing/route-invoker.ts): the first route whose path and method match; 405 naming the
 * allowed methods when only the path does; 404 when nothing does.
 */
export function createRouteMatcher(routes: Route[]): (method: string, path: string) => MatchedRoute {
  const compiled = routes.map(compile);
  return (requestMethod, path) => {
    const allowed: string[] = [];
    let textHeaders: Record<string, string> | undefined;
    // HEAD is GET without the body (RFC 9110 9.3.2): every GET route answers it.
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
        params[name] = decodeParam(m[i + 1] ?? '');
      });
      return { route: c.route, params };
    }
    if (allowed.length > 0) throw new MethodNotAllowedError(allowed, textHeaders);
    throw new NotFoundError('route');
  };
}
