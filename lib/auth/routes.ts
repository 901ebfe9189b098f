import { z } from 'zod';
import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import { parseInput } from '../http/validation.ts';
import type { KeyService } from './key-service.ts';
import type { TenantStore } from './tenant-store.ts';

const createKeyBody = z.strictObject({
  label: z.string().trim().min(1).max(100),
  is_read_only: z.boolean().optional(),
});

/** GET /v1/me and the /v1/auth/keys routes. */
export function authRoutes(deps: { keyService: KeyService; tenants: TenantStore }): AuthedRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/me',
      auth: 'key',
      summary: 'The account and its plan limits',
      handler: async ({ principal }) => {
        const [tenant, user] = await Promise.all([
          deps.tenants.requireTenant(principal.tenantId),
          deps.tenants.getUser(principal.tenantId, principal.userId),
        ]);
        return ok({
          id: tenant.id,
          email: tenant.email,
          name: tenant.name,
          blueprint_limit: tenant.blueprint_limit,
          entity_limit_per_bp: tenant.entity_limit_per_bp,
          check_limit_per_entity: tenant.check_limit_per_entity,
          retention_days: tenant.retention_days,
          created_at: tenant.created_at,
          user: user ? { id: user.id, email: user.email, name: user.name, role: user.role } : null,
          key: { id: principal.keyId, is_read_only: principal.readOnly },
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/auth/keys',
      auth: 'key',
      denyReadOnly: true,
      summary: 'List API keys (never the raw key)',
      handler: async ({ principal }) => ok(await deps.keyService.list(principal)),
    },
    {
      method: 'POST',
      path: '/v1/auth/keys',
      auth: 'key',
      summary: 'Create an API key; the raw key is in this response only',
      handler: async ({ principal, body }) =>
        created(await deps.keyService.create(principal, parseInput(createKeyBody, body))),
    },
    {
      method: 'DELETE',
      path: '/v1/auth/keys/{id}',
      auth: 'key',
      summary: 'Delete an API key',
      handler: async ({ principal, params }) => {
        await deps.keyService.remove(principal, params.id ?? '');
        return noContent();
      },
    },
  ];
}
