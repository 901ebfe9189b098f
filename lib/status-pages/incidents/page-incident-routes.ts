import { defineRoute } from '../../http/define-route.ts';
import { answerOk, createRoute, deleteRoute, readRoute } from '../../http/handlers.ts';
import { type AuthedRoute, ok } from '../../http/types.ts';
import { pageParams } from '../items/request-schemas.ts';
import {
  PREVIEW_MAX_BODY_BYTES,
  pageIncidentCreateBody,
  pageIncidentListSchema,
  pageIncidentParams,
  pageIncidentPatchBody,
  pageIncidentPreviewBody,
  pageIncidentPreviewSchema,
  pageIncidentSchema,
  pageIncidentsQuery,
  pageIncidentUpdateBody,
} from './page-incident-schemas.ts';
import type { PageIncidentService } from './page-incident-service.ts';

const tag = 'Status pages';
const base = '/v1/status-pages/{slug}/incidents';

/** A status page's written incidents (members write, read-only keys read; the router audits the writes). */
export function pageIncidentRoutes(deps: { pageIncidents: PageIncidentService }): AuthedRoute[] {
  const { pageIncidents: incidents } = deps;
  return [
    readRoute({
      path: base,
      operationId: 'listPageIncidents',
      tag,
      summary:
        'A status page’s written incidents, newest first, drafts included: {incidents, next_cursor}; ?open=true: its open ones',
      params: pageParams,
      query: pageIncidentsQuery,
      response: pageIncidentListSchema,
      read: (tenantId, { params, query }) => incidents.list(tenantId, params.slug, query),
    }),
    createRoute({
      path: base,
      operationId: 'createPageIncident',
      tag,
      summary:
        'Write an incident on a status page: title, impact per shown entity, its first update; past started_at and resolved_at backfill one',
      params: pageParams,
      body: pageIncidentCreateBody,
      response: pageIncidentSchema,
      create: (tenantId, { params, body }) => incidents.create(tenantId, params.slug, body),
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/preview`,
      auth: 'key',
      // Renders a body and answers it, writing nothing: read-only keys may preview too (they still
      // cannot post). The page must be the caller's (404 otherwise).
      readsOnly: true,
      maxBodyBytes: PREVIEW_MAX_BODY_BYTES,
      operationId: 'previewPageIncidentBody',
      tag,
      summary:
        'An update’s Markdown body rendered as the public page will show it (the same renderer), without writing anything',
      schemas: {
        params: pageParams,
        body: pageIncidentPreviewBody,
        responses: { 200: pageIncidentPreviewSchema },
        errors: ['PAYLOAD_TOO_LARGE'],
      },
      // Left out of the audit log: the console previews as the operator types, and nothing changed.
      handler: async ({ principal, params, body }) => ({
        ...ok(await incidents.preview(principal.tenantId, params.slug, body.body)),
        audit: { skip: true },
      }),
    }),
    readRoute({
      path: `${base}/{incident_id}`,
      operationId: 'getPageIncident',
      tag,
      summary: 'One written incident of a status page, with its updates',
      params: pageIncidentParams,
      response: pageIncidentSchema,
      read: (tenantId, { params }) => incidents.get(tenantId, params.slug, params.incident_id),
    }),
    defineRoute({
      method: 'PATCH',
      path: `${base}/{incident_id}`,
      auth: 'key',
      operationId: 'updatePageIncident',
      tag,
      summary:
        'Change a written incident’s title, impact or linked incidents, or publish a draft (draft: false)',
      schemas: {
        params: pageIncidentParams,
        body: pageIncidentPatchBody,
        responses: { 200: pageIncidentSchema },
        errors: ['CONFLICT'],
      },
      handler: answerOk((tenantId, { params, body }) =>
        incidents.patch(tenantId, params.slug, params.incident_id, body),
      ),
    }),
    createRoute({
      path: `${base}/{incident_id}/updates`,
      operationId: 'createPageIncidentUpdate',
      tag,
      summary:
        'Add an update (status, Markdown body, notify): the status moves forward only; resolved ends the incident',
      params: pageIncidentParams,
      body: pageIncidentUpdateBody,
      response: pageIncidentSchema,
      errors: ['CONFLICT'],
      create: (tenantId, { params, body }) =>
        incidents.addUpdate(tenantId, params.slug, params.incident_id, body),
    }),
    deleteRoute({
      path: `${base}/{incident_id}`,
      operationId: 'deletePageIncident',
      tag,
      summary: 'Delete a written incident',
      params: pageIncidentParams,
      remove: (tenantId, params) => incidents.remove(tenantId, params.slug, params.incident_id),
    }),
  ];
}
