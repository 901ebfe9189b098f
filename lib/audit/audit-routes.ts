import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { answerOk } from '../http/handlers.ts';
import { pageQuery } from '../http/requests.ts';
import { timestampSchema } from '../http/route-schemas.ts';
import type { AuthedRoute } from '../http/types.ts';
import { ACTOR_TYPES, VIAS } from './audit-items.ts';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, type AuditService } from './audit-service.ts';

const auditQuery = pageQuery(AUDIT_PAGE_MAX, AUDIT_PAGE_DEFAULT).extend({
  actor: z.string().min(1).max(200).optional().meta({
    description: "Only this actor's entries: a user, key, location or OAuth client id, or `operator`",
  }),
  target: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .meta({ description: 'Only entries about this target: `type:id` (e.g. `check:chk_…`) or the id alone' }),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only entries at or after this time (ISO 8601)' }),
});

const auditEntryView = z
  .strictObject({
    id: z.string(),
    at: timestampSchema,
    actor: z.strictObject({ type: z.enum(ACTOR_TYPES), id: z.string(), label: z.string() }),
    via: z.enum(VIAS),
    action: z
      .string()
      .meta({ description: '`<thing>.<verb>` from the route (check.create), or `mcp.<tool>`' }),
    target: z.strictObject({ type: z.string(), id: z.string() }),
    summary: z
      .string()
      .meta({ description: 'The fields the write set and name/slug values; never other values' }),
    source_ip: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

const auditPage = z.strictObject({
  entries: z.array(auditEntryView),
  next_cursor: z
    .string()
    .nullable()
    .meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
});

/** GET /v1/audit: the tenant's audit log, admins only (read-only admin keys too). */
export function auditRoutes(deps: { audit: AuditService }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/audit',
      auth: 'key',
      role: 'admin',
      operationId: 'listAuditEntries',
      tag: 'Audit',
      summary:
        'Who changed what, newest first: {entries, next_cursor}; filters actor, target (type:id or id), since (limit 1-200, default 50; a filtered page may hold fewer than limit)',
      schemas: { query: auditQuery, responses: { 200: auditPage } },
      handler: answerOk((tenantId, { query }) => deps.audit.list(tenantId, query)),
    }),
  ];
}
