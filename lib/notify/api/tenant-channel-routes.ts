import { defineRoute } from '../../http/define-route.ts';
import { createRoute } from '../../http/handlers.ts';
import { type AuthedRoute, noContent, ok } from '../../http/types.ts';
import { tenantChannelInputSchema } from '../api-schemas/channel-config.ts';
import {
  channelTestBody,
  tenantChannelParams,
  tenantChannelUpdateBody,
} from '../api-schemas/request-schemas.ts';
import { publicChannelSchema } from '../api-schemas/responses.ts';
import type { RouteService } from '../channel-setup/route-service.ts';
import type { TenantChannelService } from '../channel-setup/tenant-channel-service.ts';
import { publicDeliverySchema } from '../deliveries/delivery-responses.ts';
import type { Caller } from '../policy/policy-service.ts';
import {
  publicRouteSchema,
  routeInputSchema,
  routeParams,
  routesListSchema,
} from '../routing/route-schemas.ts';
import type { Warned } from './routes.ts';

const tag = 'Notifications';

const callerOf = (principal: { tenantId: string; readOnly: boolean }): Caller => ({
  tenantId: principal.tenantId,
  readOnly: principal.readOnly,
});

/**
 * Tenant channels (`/v1/notify/channels`, the list itself is routes.ts's) and alert routes
 * (`/v1/notify/routes`): DECISIONS.md "Operations features (wave 3)".
 */
export function sharedChannelRoutes(deps: {
  tenantChannels: TenantChannelService;
  routes: RouteService;
  warned: Warned;
}): AuthedRoute[] {
  const { tenantChannels, routes, warned } = deps;
  return [
    createRoute({
      path: '/v1/notify/channels',
      operationId: 'createTenantChannel',
      tag,
      summary: 'Create a tenant channel (at most 100), attachable to many checks and named by routes',
      body: tenantChannelInputSchema,
      response: publicChannelSchema,
      errors: ['LIMIT_EXCEEDED'],
      create: async (_tenantId, { principal, body }) =>
        warned(await tenantChannels.create(callerOf(principal), body)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/notify/channels/{id}',
      auth: 'key',
      operationId: 'getTenantChannel',
      tag,
      summary: 'A tenant channel with the checks it is attached to (attached_check_ids)',
      schemas: { params: tenantChannelParams, responses: { 200: publicChannelSchema } },
      handler: async ({ principal, params }) => ok(await tenantChannels.get(callerOf(principal), params.id)),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/notify/channels/{id}',
      auth: 'key',
      operationId: 'updateTenantChannel',
      tag,
      summary:
        'Rename a tenant channel and/or replace its channel_type and config (******** keeps a stored secret)',
      schemas: {
        params: tenantChannelParams,
        body: tenantChannelUpdateBody,
        responses: { 200: publicChannelSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        ok(warned(await tenantChannels.update(callerOf(principal), params.id, body))),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/notify/channels/{id}',
      auth: 'key',
      operationId: 'deleteTenantChannel',
      tag,
      summary: 'Delete a tenant channel: detached from every check and taken out of every route',
      schemas: { params: tenantChannelParams, responses: { 204: null } },
      handler: async ({ principal, params }) => {
        await tenantChannels.remove(callerOf(principal), params.id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/notify/channels/{id}/test',
      auth: 'key',
      operationId: 'testTenantChannel',
      tag,
      summary:
        'Send a test message to a tenant channel now (one attempt, in the delivery log), about check_id or the first attached check',
      schemas: {
        params: tenantChannelParams,
        body: channelTestBody,
        responses: { 200: publicDeliverySchema },
        errors: ['NOT_FOUND'],
      },
      handler: async ({ principal, params, body }) =>
        ok(await tenantChannels.test(callerOf(principal), params.id, body?.check_id)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/notify/routes',
      auth: 'key',
      operationId: 'listNotificationRoutes',
      tag,
      summary: 'The tenant’s alert routes, oldest first (at most 50): {routes}',
      schemas: { responses: { 200: routesListSchema } },
      handler: async ({ principal }) => ok(await routes.list(callerOf(principal))),
    }),
    createRoute({
      path: '/v1/notify/routes',
      operationId: 'createNotificationRoute',
      tag,
      summary:
        'Create an alert route: alerts matching it also go to its tenant channels (each channel once per event)',
      body: routeInputSchema,
      response: publicRouteSchema,
      errors: ['LIMIT_EXCEEDED', 'CONFLICT'],
      create: (_tenantId, { principal, body }) => routes.create(callerOf(principal), body),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/notify/routes/{id}',
      auth: 'key',
      operationId: 'deleteNotificationRoute',
      tag,
      summary: 'Delete an alert route',
      schemas: { params: routeParams, responses: { 204: null } },
      handler: async ({ principal, params }) => {
        await routes.remove(callerOf(principal), params.id);
        return noContent();
      },
    }),
  ];
}
