import type { RouteContext } from '../../http/types.ts';

/**
 * What a ping URL names, once resolved: the check a ping is for. The routes (ping-routes.ts) read
 * the URL's form; a UUID or legacy token resolves through the token service, a `<ping key>/<slug>`
 * pair through a SlugResolver (slug URLs and `?create=1`, DECISIONS.md "Heartbeats").
 */
export interface PingTarget {
  tenantId: string;
  checkId: string;
  /** True when `?create=1` created the check for this ping (answered 201 `Created`). */
  created?: boolean;
}

/** Resolves `/ping/<ping key>/<slug>`; throws UnknownPingTokenError (404 `not found`) for anything unknown. */
export interface SlugResolver {
  resolve(
    ctx: RouteContext,
    pingKey: string,
    slug: string,
    options: { create: boolean },
  ): Promise<PingTarget>;
}
