import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { type AuthedRoute, created, noContent, ok } from '../http/types.ts';
import {
  onCallSchema,
  publicScheduleSchema,
  scheduleListSchema,
  shiftsSchema,
} from './schedule-responses.ts';
import {
  overrideBody,
  overrideParams,
  scheduleBody,
  scheduleParams,
  shiftsQuery,
} from './schedule-schemas.ts';
import type { ScheduleService } from './schedule-service.ts';

const tag = 'On-call';

/**
 * /v1/schedules (docs/on-call.md): everyone reads schedules and asks who is on call; admins create,
 * replace and delete them; a person overrides themselves (an admin anyone: the service's rule).
 */
export function scheduleRoutes(deps: { schedules: ScheduleService }): AuthedRoute[] {
  const { schedules } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/schedules',
      auth: 'key',
      operationId: 'listSchedules',
      tag,
      summary: 'The tenant’s on-call schedules, oldest first',
      schemas: { responses: { 200: scheduleListSchema } },
      handler: async ({ principal }) => ok({ schedules: await schedules.list(principal.tenantId) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/schedules',
      auth: 'key',
      role: 'admin',
      operationId: 'createSchedule',
      tag,
      summary:
        'Create a schedule: a time zone and layers (lowest first; the last listed wins where it has someone)',
      schemas: { body: scheduleBody, responses: { 201: publicScheduleSchema }, errors: ['LIMIT_EXCEEDED'] },
      handler: async ({ principal, body }) => created(await schedules.create(principal.tenantId, body)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/schedules/{id}',
      auth: 'key',
      operationId: 'getSchedule',
      tag,
      summary: 'One schedule, with its layers and overrides',
      schemas: { params: scheduleParams, responses: { 200: publicScheduleSchema } },
      handler: async ({ principal, params }) => ok(await schedules.get(principal.tenantId, params.id)),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/schedules/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'replaceSchedule',
      tag,
      summary: 'Replace a schedule’s name, zone and layers (its overrides stay)',
      schemas: {
        params: scheduleParams,
        body: scheduleBody,
        responses: { 200: publicScheduleSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        ok(await schedules.replace(principal.tenantId, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/schedules/{id}',
      auth: 'key',
      role: 'admin',
      operationId: 'deleteSchedule',
      tag,
      summary: 'Delete a schedule',
      schemas: { params: scheduleParams, responses: { 204: null } },
      handler: async ({ principal, params }) => {
        await schedules.remove(principal.tenantId, params.id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/schedules/{id}/oncall',
      auth: 'key',
      operationId: 'getOnCall',
      tag,
      summary:
        'Who is on call: at one instant (`at`, default now), or the final shifts from `from` to `to` (≤ 93 days)',
      schemas: {
        params: scheduleParams,
        query: shiftsQuery,
        responses: { 200: z.union([onCallSchema, shiftsSchema]) },
      },
      handler: async ({ principal, params, query }) =>
        ok(
          query.from && query.to
            ? await schedules.shifts(principal.tenantId, params.id, { from: query.from, to: query.to })
            : await schedules.onCall(
                principal.tenantId,
                params.id,
                query.at ? Date.parse(query.at) : undefined,
              ),
        ),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/schedules/{id}/overrides',
      auth: 'key',
      operationId: 'createScheduleOverride',
      tag,
      summary: 'Put someone on call for a period, over every layer (yourself; an admin anyone)',
      schemas: {
        params: scheduleParams,
        body: overrideBody,
        responses: { 201: publicScheduleSchema },
        errors: ['FORBIDDEN', 'CONFLICT', 'LIMIT_EXCEEDED'],
      },
      handler: async ({ principal, params, body }) =>
        created(await schedules.addOverride(principal, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/schedules/{id}/overrides/{override_id}',
      auth: 'key',
      operationId: 'deleteScheduleOverride',
      tag,
      summary: 'Remove an override (your own; an admin anyone’s)',
      schemas: { params: overrideParams, responses: { 204: null }, errors: ['FORBIDDEN', 'CONFLICT'] },
      handler: async ({ principal, params }) => {
        await schedules.removeOverride(principal, params.id, params.override_id);
        return noContent();
      },
    }),
  ];
}
