import { defineRoute } from '../../http/define-route.ts';
import { answerOk, createRoute, deleteRoute, readRoute } from '../../http/handlers.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import { pageCreateBody, pageParams, pageReplaceBody } from '../items/request-schemas.ts';
import { statusPageListSchema, statusPageSchema } from './responses.ts';
import type { StatusPageService } from './status-page-service.ts';

const tag = 'Status pages';

/** GET/POST /v1/status-pages and GET/PUT/DELETE /v1/status-pages/{slug} (members write, read-only keys read). */
export function statusPageRoutes(deps: { pages: StatusPageService }): AuthedRoute[] {
  const { pages } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/status-pages',
      auth: 'key',
      operationId: 'listStatusPages',
      tag,
      summary: 'The tenant’s public status pages, by slug',
      schemas: { responses: { 200: statusPageListSchema } },
      handler: async ({ principal }) => ok({ status_pages: await pages.list(principal.tenantId) }),
    }),
    createRoute({
      path: '/v1/status-pages',
      operationId: 'createStatusPage',
      tag,
      summary:
        'Create a public status page, served without a key at /p/{slug} (the slug is globally unique: one taken by anyone is 409)',
      body: pageCreateBody,
      response: statusPageSchema,
      errors: ['CONFLICT', 'LIMIT_EXCEEDED'],
      create: (tenantId, { body }) => pages.create(tenantId, body),
    }),
    readRoute({
      path: '/v1/status-pages/{slug}',
      operationId: 'getStatusPage',
      tag,
      summary: 'One status page',
      params: pageParams,
      response: statusPageSchema,
      read: (tenantId, { params }) => pages.get(tenantId, params.slug),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/status-pages/{slug}',
      auth: 'key',
      operationId: 'replaceStatusPage',
      tag,
      summary: 'Replace a status page’s title, description, entities and show_incidents (the slug stays)',
      schemas: {
        params: pageParams,
        body: pageReplaceBody,
        responses: { 200: statusPageSchema },
        errors: ['CONFLICT'],
      },
      handler: answerOk((tenantId, { params, body }) => pages.replace(tenantId, params.slug, body)),
    }),
    deleteRoute({
      path: '/v1/status-pages/{slug}',
      operationId: 'deleteStatusPage',
      tag,
      summary: 'Delete a status page (its slug is free again)',
      params: pageParams,
      remove: (tenantId, params) => pages.remove(tenantId, params.slug),
    }),
  ];
}
