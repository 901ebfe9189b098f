import { createRateLimitGuard } from '../../../lib/auth/limits/rate-limit.ts';
import { createTenantStore } from '../../../lib/auth/tenants.ts';
import type { Principal } from '../../../lib/domain/principal.ts';
import { createRouter } from '../../../lib/http/router.ts';
import type { HttpRequest, Route } from '../../../lib/http/types.ts';
import { composeIntegrations } from '../../../lib/integrations/compose.ts';
import { type Clock, createFakeClock } from '../../../lib/platform/clock.ts';
import { UnauthorizedError } from '../../../lib/platform/errors.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { createMemoryRateLimiter } from '../../../lib/platform/rate-limiter.ts';
import { createSqliteTable, openSqliteDatabase } from '../../../lib/sqlite/sqlite-table.ts';
import { createCursorSeal } from '../../../lib/store/cursor-seal.ts';

/**
 * The integrations feature (lib/integrations/compose.ts) behind the router over SQLite, with two
 * tenants and three keys (`admin-a`, `reader-a` read-only, `admin-b`), and a catalog that knows one
 * entity, service/orders-db (`ent_orders`). `call` sends a request as the router gets it.
 */
let seq = 0;

export async function integrationsRig(options: { clock?: Clock } = {}) {
  const clock = options.clock ?? createFakeClock(Date.parse('2026-11-28T22:00:00Z'));
  const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  const tenants = createTenantStore(table, clock);
  const a = (await tenants.createTenant({ name: 'A', email: 'a@example.com' })).tenant;
  const b = (await tenants.createTenant({ name: 'B', email: 'b@example.com' })).tenant;
  const ownEntities = new Map<string, string>();
  const limits = createRateLimitGuard({
    limiter: createMemoryRateLimiter({ clock }),
    config: {
      rateLimit: { burst: 1000, perSecond: 100 },
      tenantRateLimit: undefined,
      authFailuresPerMinute: 10,
      authFailuresPerAddressPerMinute: 5,
    },
    logger: silentLogger,
  });
  const feature = composeIntegrations({
    table,
    clock,
    logger: silentLogger,
    cursors: createCursorSeal(async () => Buffer.alloc(32, 7)),
    hosts: { hosts: new Set(['localhost']), publicUrl: undefined },
    limits,
    tenants,
    // The catalog's two services as the feature calls them: the blueprint is there, entities are made by slug.
    catalog: {
      blueprints: { get: async () => ({}) as never, create: async () => ({}) as never },
      entities: {
        create: async (tenantId: string, _bp: string, input: { slug: string }) => {
          seq += 1;
          const id = `ent_own_${seq}`;
          ownEntities.set(`${tenantId}/${input.slug}`, id);
          return { id } as never;
        },
        remove: async (tenantId: string, _bp: string, slug: string) => {
          ownEntities.delete(`${tenantId}/${slug}`);
        },
      },
    },
    entities: {
      get: async (_t, bp, slug) =>
        bp === 'service' && slug === 'orders-db' ? { id: 'ent_orders' } : undefined,
    },
    egressAllow: [],
    outsideChecks: { record: async () => 'recorded' as const, remove: async () => undefined },
    acknowledgeIncident: async () => undefined,
  });
  const principals: Record<string, Principal> = {
    'admin-a': { tenantId: a.id, userId: 'usr_a', keyId: 'key_a', role: 'admin', readOnly: false },
    'reader-a': { tenantId: a.id, userId: 'usr_r', keyId: 'key_r', role: 'member', readOnly: true },
    'admin-b': { tenantId: b.id, userId: 'usr_b', keyId: 'key_b', role: 'admin', readOnly: false },
  };
  const router = createRouter({
    routes: [...feature.routes.authed, ...feature.routes.open] as Route[],
    authenticate: async (authorization) => {
      const principal = principals[authorization?.replace('Bearer ', '') ?? ''];
      if (!principal) throw new UnauthorizedError();
      return principal;
    },
    rateLimit: limits,
    logger: silentLogger,
  });
  const call = async (
    method: string,
    path: string,
    options: { key?: string; body?: unknown; raw?: Buffer; ip?: string } = {},
  ) => {
    seq += 1;
    const request: HttpRequest = {
      method,
      path,
      query: Object.fromEntries(new URL(path, 'http://x').searchParams),
      headers: {
        host: 'localhost',
        'content-type': 'application/json',
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      },
      body: options.raw ?? Buffer.from(options.body === undefined ? '' : JSON.stringify(options.body)),
      requestId: `req_${seq}`,
      sourceIp: options.ip ?? '192.0.2.1',
    };
    request.path = path.split('?')[0] ?? path;
    const response = await router.handle(request);
    return {
      status: response.status,
      body: response.body ? JSON.parse(response.body) : undefined,
      headers: response.headers,
    };
  };
  return { call, ownEntities, router };
}
