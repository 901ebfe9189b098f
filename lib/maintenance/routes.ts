import { defineRoute } from '../http/define-route.ts';
import { answerOk, createRoute, deleteRoute, readRoute } from '../http/handlers.ts';
import { type AuthedRoute, ok } from '../http/types.ts';
import type { MaintenanceService } from './maintenance-service.ts';
import { windowBody, windowParams } from './request-schemas.ts';
import { publicWindowSchema, windowListSchema } from './responses.ts';

const tag = 'Maintenance';

/** GET/POST /v1/maintenance and GET/PUT/DELETE /v1/maintenance/{id} (members write, read-only keys read). */
export function maintenanceRoutes(deps: { maintenance: MaintenanceService }): AuthedRoute[] {
  const { maintenance } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/maintenance',
      auth: 'key',
      operationId: 'listMaintenanceWindows',
      tag,
      summary: 'The tenant’s maintenance windows, oldest first, each with `active` as of now',
      schemas: { responses: { 200: windowListSchema } },
      handler: async ({ principal }) => ok({ windows: await maintenance.list(principal.tenantId) }),
    }),
    createRoute({
      path: '/v1/maintenance',
      operationId: 'createMaintenanceWindow',
      tag,
      summary:
        'Create a window: starts_at + ends_at (one-off) or cron + duration_seconds + timezone (recurring); alerts of covered entities are skipped while it is on',
      body: windowBody,
      response: publicWindowSchema,
      errors: ['LIMIT_EXCEEDED'],
      create: (tenantId, { body }) => maintenance.create(tenantId, body),
    }),
    readRoute({
      path: '/v1/maintenance/{id}',
      operationId: 'getMaintenanceWindow',
      tag,
      summary: 'One maintenance window',
      params: windowParams,
      response: publicWindowSchema,
      read: (tenantId, { params }) => maintenance.get(tenantId, params.id),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/maintenance/{id}',
      auth: 'key',
      operationId: 'replaceMaintenanceWindow',
      tag,
      summary: 'Replace a maintenance window (the whole window, as created)',
      schemas: {
        params: windowParams,
        body: windowBody,
        responses: { 200: publicWindowSchema },
        errors: ['CONFLICT'],
      },
      handler: answerOk((tenantId, { params, body }) => maintenance.replace(tenantId, params.id, body)),
    }),
    deleteRoute({
      path: '/v1/maintenance/{id}',
      operationId: 'deleteMaintenanceWindow',
      tag,
      summary: 'Delete a maintenance window',
      params: windowParams,
      remove: (tenantId, params) => maintenance.remove(tenantId, params.id),
    }),
  ];
}
