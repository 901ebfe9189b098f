import * as z from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { idSchema } from '../../http/route-schemas.ts';
import { type AuthedRoute, created, noContent, ok } from '../../http/types.ts';
import { DEFAULT_LIMITS } from '../tenants/tenant-items.ts';
import type { TenantStore } from '../tenants/tenant-store.ts';
import type { KeyService } from './key-service.ts';
import { createdKeySchema, meSchema, publicKeySchema } from './responses.ts';

const createKeyBody = z.strictObject({
  label: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(100),
  is_read_only: z.boolean().optional(),
});

const tag = 'Account';

/** GET /v1/me and the /v1/auth/keys routes. */
export function authRoutes(deps: {
  keyService: KeyService;
  tenants: TenantStore;
  /** Whether the user has two-factor authentication on (lib/people, composed in lib/people/compose.ts). */
  totpEnabled?: (tenantId: string, userId: string) => Promise<boolean>;
}): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/me',
      auth: 'key',
      operationId: 'getMe',
      tag,
      summary: 'The account and its plan limits',
      schemas: { responses: { 200: meSchema } },
      handler: async ({ principal }) => {
        const [tenant, user, totpEnabled] = await Promise.all([
          deps.tenants.requireTenant(principal.tenantId),
          deps.tenants.getUser(principal.tenantId, principal.userId),
          deps.totpEnabled ? deps.totpEnabled(principal.tenantId, principal.userId) : false,
        ]);
        return ok({
          id: tenant.id,
          email: tenant.email,
          name: tenant.name,
          blueprint_limit: tenant.blueprint_limit,
          entity_limit_per_bp: tenant.entity_limit_per_bp,
          check_limit_per_entity: tenant.check_limit_per_entity,
          retention_days: tenant.retention_days,
          email_daily_limit: tenant.email_daily_limit ?? DEFAULT_LIMITS.email_daily_limit,
          created_at: tenant.created_at,
          user: user ? { id: user.id, email: user.email, name: user.name, role: user.role } : null,
          key: { id: principal.keyId, is_read_only: principal.readOnly },
          credential: principal.credential ?? 'key',
          csrf_token: principal.credential === 'session' ? (principal.csrfToken ?? null) : null,
          totp_enabled: totpEnabled,
        });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/auth/keys',
      auth: 'key',
      denyReadOnly: true,
      operationId: 'listApiKeys',
      tag,
      summary: 'List API keys (never the raw key)',
      schemas: { responses: { 200: z.array(publicKeySchema) } },
      handler: async ({ principal }) => ok(await deps.keyService.list(principal)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/auth/keys',
      auth: 'key',
      operationId: 'createApiKey',
      tag,
      summary: 'Create an API key; the raw key is in this response only',
      schemas: { body: createKeyBody, responses: { 201: createdKeySchema } },
      handler: async ({ principal, body }) => created(await deps.keyService.create(principal, body)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/auth/keys/{id}',
      auth: 'key',
      operationId: 'deleteApiKey',
      tag,
      summary: "Delete an API key; the account's last read-write key of an admin cannot be deleted (409)",
      schemas: {
        params: z.object({ id: idSchema('key') }),
        responses: { 204: null },
        // The last admin key (a read-write key of an admin) is kept: lib/auth/key-count.ts.
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params }) => {
        await deps.keyService.remove(principal, params.id);
        return noContent();
      },
    }),
  ];
}
