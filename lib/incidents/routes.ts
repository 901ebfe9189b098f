import * as z from 'zod';
import { INCIDENT_STATES, NOTE_BLANK, NOTE_LIMITS } from '../domain/limits.ts';
import { defineRoute } from '../http/define-route.ts';
import { pageQuery } from '../http/requests.ts';
import { idSchema, namesResource, timestampSchema } from '../http/route-schemas.ts';
import { type AuthedRoute, created, ok } from '../http/types.ts';
import type { IncidentService } from './incident-service.ts';
import { TIMELINE_LIMITS, timelineEntrySchema } from './timeline.ts';

/** The incident routes (DECISIONS.md "Operations features (wave 3)"). */

const tag = 'Incidents';

const incidentParams = z.object({
  incident_id: namesResource(z.string().regex(/^inc_[0-9A-HJKMNP-TV-Z]{26}$/), 'incident'),
});

const incidentsQuery = pageQuery(200).extend({
  state: z.enum(INCIDENT_STATES).optional().meta({ description: 'Only incidents in this state' }),
  entity_id: idSchema('ent').optional().meta({ description: 'Only the incidents of this entity' }),
});

const noteBody = z
  .strictObject({
    text: z
      .string()
      .min(1)
      .regex(/\S/u, NOTE_BLANK)
      .max(NOTE_LIMITS.maxBytes)
      .meta({
        description: `The note (not whitespace only): 1 character to ${NOTE_LIMITS.maxBytes} bytes (UTF-8)`,
      }),
  })
  .meta({ id: 'IncidentNoteInput' });

const publicIncidentSchema = z
  .strictObject({
    id: z.string().meta({ description: 'inc_ + a 26-character ULID (the opening transition’s)' }),
    entity_id: z.string(),
    entity_name: z.string(),
    blueprint_slug: z.string().nullable().meta({
      description:
        'The entity’s blueprint (its page: /entities/{blueprint_slug}/{entity_slug}); null once the entity is gone',
    }),
    entity_slug: z
      .string()
      .nullable()
      .meta({ description: 'The entity’s slug; null once the entity is gone' }),
    state: z.enum(INCIDENT_STATES),
    opened_at: timestampSchema,
    acknowledged_at: timestampSchema.nullable(),
    acknowledged_by: z.string().nullable().meta({
      description: 'The user (usr_…) whose key acknowledged, or the integration (int_…) whose sender did',
    }),
    resolved_at: timestampSchema.nullable(),
    duration_seconds: z
      .number()
      .int()
      .meta({ description: 'Until resolution, or until now while unresolved' }),
    in_maintenance: z.boolean().meta({ description: 'Opened during a maintenance window of the entity' }),
  })
  .meta({ id: 'Incident' });

const affectedSchema = z
  .strictObject({
    entity_id: z.string(),
    name: z.string(),
    state: z
      .enum(['down', 'degraded', 'up'])
      .meta({ description: 'Its state as the incident knows it: up once it recovered inside it' }),
    at: timestampSchema.meta({ description: 'When that state began' }),
    own_incident_id: z.string().nullable().meta({
      description: 'The incident it opened of its own when this one resolved while it was still down',
    }),
  })
  .meta({ id: 'IncidentAffectedEntity' });

const incidentDetailSchema = publicIncidentSchema
  .extend({
    affected: z.array(affectedSchema).meta({
      description:
        'Entities that depend on this one and went down while it was down: they joined this incident instead of opening their own (one incident per root cause)',
    }),
    timeline: z.array(timelineEntrySchema).meta({
      description: `Oldest first: transitions, alerts, action runs, acknowledgement, notes, resolution (at most ${TIMELINE_LIMITS.entries})`,
    }),
    timeline_truncated: z.boolean().meta({ description: 'Entries were left out (the timeline’s bounds)' }),
  })
  .meta({ id: 'IncidentDetail' });

const noteSchema = z
  .strictObject({
    incident_id: z.string(),
    text: z.string(),
    created_by: z.string(),
    created_at: timestampSchema,
  })
  .meta({ id: 'IncidentNote' });

export function incidentRoutes(deps: { incidents: IncidentService }): AuthedRoute[] {
  const { incidents } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/incidents',
      auth: 'key',
      operationId: 'listIncidents',
      expensive: true,
      tag,
      summary: 'Incidents, newest first: {incidents, next_cursor}; filters state and entity_id',
      schemas: {
        query: incidentsQuery,
        responses: {
          200: z.strictObject({
            incidents: z.array(publicIncidentSchema),
            next_cursor: z.string().nullable(),
          }),
        },
      },
      handler: async ({ principal, query }) => ok(await incidents.list(principal, query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/incidents/{incident_id}',
      auth: 'key',
      operationId: 'getIncident',
      tag,
      summary: 'One incident with its timeline',
      schemas: { params: incidentParams, responses: { 200: incidentDetailSchema } },
      handler: async ({ principal, params }) => ok(await incidents.get(principal, params.incident_id)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/incidents/{incident_id}/acknowledge',
      auth: 'key',
      operationId: 'acknowledgeIncident',
      tag,
      summary:
        'Acknowledge an open incident (stops repeats and escalation); idempotent: an acknowledged or resolved one answers as it is',
      // No body, or an empty object: anything else is a 400 like every other write.
      schemas: {
        params: incidentParams,
        body: z.strictObject({}).optional(),
        responses: { 200: publicIncidentSchema },
      },
      handler: async ({ principal, params }) =>
        ok(await incidents.acknowledge(principal, params.incident_id)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/incidents/{incident_id}/resolve',
      auth: 'key',
      operationId: 'resolveIncident',
      tag,
      summary:
        'Resolve an incident by hand (stops repeats and escalation; the entity keeps its state, and its next departure from up opens a new incident); idempotent: a resolved one answers as it is',
      schemas: {
        params: incidentParams,
        body: z.strictObject({}).optional(),
        responses: { 200: publicIncidentSchema },
      },
      handler: async ({ principal, params }) => ok(await incidents.resolve(principal, params.incident_id)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/incidents/{incident_id}/notes',
      auth: 'key',
      operationId: 'addIncidentNote',
      tag,
      summary: `Add a note (at most ${NOTE_LIMITS.maxBytes} bytes, ${NOTE_LIMITS.perIncident} per incident)`,
      schemas: {
        params: incidentParams,
        body: noteBody,
        responses: { 201: noteSchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        created(await incidents.addNote(principal, params.incident_id, body.text)),
    }),
  ];
}
