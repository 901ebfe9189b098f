import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { createRoute, deleteRoute } from '../http/handlers.ts';
import { type AuthedRoute, type LocationRoute, ok } from '../http/types.ts';
import type { Heartbeat } from './heartbeat.ts';
import type { LocationService } from './location-service.ts';
import {
  createdLocationSchema,
  createLocationBody,
  heartbeatBody,
  heartbeatReplySchema,
  locationKeyListSchema,
  locationKeyParams,
  locationListSchema,
  locationParams,
  newLocationKeySchema,
} from './responses.ts';

const tag = 'Locations';

/**
 * The Locations API (admins write; anyone with a key lists) and the agent's heartbeat, which only a
 * location key authenticates (docs/locations.md).
 */
export function locationRoutes(deps: {
  locations: LocationService;
  heartbeat: Heartbeat;
}): Array<AuthedRoute | LocationRoute> {
  const { locations, heartbeat } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/locations',
      auth: 'key',
      operationId: 'listLocations',
      tag,
      summary:
        'The tenant’s probe locations, `default` (the runtime’s own workers) first, each online or offline',
      schemas: { responses: { 200: locationListSchema } },
      handler: async ({ principal }) => ok({ locations: await locations.list(principal.tenantId) }),
    }),
    createRoute({
      path: '/v1/locations',
      role: 'admin',
      operationId: 'createLocation',
      tag,
      summary: 'Create a location (a private agent or an AWS region) and its first key, shown this once',
      body: createLocationBody,
      response: createdLocationSchema,
      errors: ['CONFLICT', 'LIMIT_EXCEEDED'],
      create: (tenantId, { body }) => locations.create(tenantId, body),
    }),
    deleteRoute({
      path: '/v1/locations/{id}',
      role: 'admin',
      operationId: 'deleteLocation',
      tag,
      summary: 'Delete a location and every key of it',
      params: locationParams,
      errors: ['CONFLICT'],
      remove: (tenantId, params) => locations.remove(tenantId, params.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/locations/{id}/keys',
      auth: 'key',
      role: 'admin',
      denyReadOnly: true,
      operationId: 'listLocationKeys',
      tag,
      summary: 'The location’s keys: ids and prefixes, never the keys',
      schemas: { params: locationParams, responses: { 200: locationKeyListSchema } },
      handler: async ({ principal, params }) =>
        ok({ keys: await locations.keys(principal.tenantId, params.id) }),
    }),
    createRoute({
      path: '/v1/locations/{id}/keys',
      role: 'admin',
      operationId: 'createLocationKey',
      tag,
      summary: 'Another key of the location (to rotate keys), shown this once',
      params: locationParams,
      // Nothing to send: an empty body or {}.
      body: z.strictObject({}).optional(),
      response: newLocationKeySchema,
      errors: ['LIMIT_EXCEEDED'],
      create: (tenantId, { params }) => locations.addKey(tenantId, params.id),
    }),
    deleteRoute({
      path: '/v1/locations/{id}/keys/{key_id}',
      role: 'admin',
      operationId: 'revokeLocationKey',
      tag,
      summary: 'Revoke a location key: its next request is refused',
      params: locationKeyParams,
      remove: (tenantId, params) => locations.revokeKey(tenantId, params.id, params.key_id),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/agent/heartbeat',
      auth: 'location',
      operationId: 'agentHeartbeat',
      tag: 'Agent',
      summary: 'An agent’s heartbeat (location key): marks its location seen, records its version',
      schemas: { body: heartbeatBody, responses: { 200: heartbeatReplySchema } },
      handler: async ({ location, body }) => {
        const { versionChangedFrom, ...reply } = await heartbeat(location, body.version);
        // The audit log records an agent's first version and each change, not every beat (docs/auth.md).
        if (versionChangedFrom === undefined) return { ...ok(reply), audit: { skip: true } };
        const summary = `version: ${body.version.slice(0, 64)} (was ${versionChangedFrom?.slice(0, 64) ?? 'none'})`;
        return {
          ...ok(reply),
          audit: {
            action: 'location.agent_version',
            target: { type: 'location', id: location.locationId },
            summary,
          },
        };
      },
    }),
  ];
}
