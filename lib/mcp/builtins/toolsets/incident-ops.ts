import type { CreateSkillBody } from '../../../skills/manifest.ts';
import { noInput } from '../catalog-ops-schemas.ts';
import { INCIDENT_TOOL_ENTRIES } from '../incidents.ts';
import {
  COVERAGE_PROPERTIES,
  createMaintenance,
  listMaintenance,
  MAINTENANCE_WRITE_ENTRIES,
} from '../maintenance.ts';
import { OUTSIDE_ALERT_TOOL_ENTRIES } from '../outside-alerts.ts';

/** The incident-ops toolset: acknowledge, resolve and annotate incidents; outside alerts; maintenance windows that quiet alerts. */
export const INCIDENT_OPS_MANIFEST = {
  slug: 'incident-ops',
  name: 'Incident operations',
  description:
    'Acknowledge, resolve and annotate incidents; list, acknowledge and resolve outside alerts; list, create and start maintenance windows.',
  version: '1.2.0',
  enabled: true,
  tools: [
    ...INCIDENT_TOOL_ENTRIES,
    ...OUTSIDE_ALERT_TOOL_ENTRIES,
    {
      name: 'list_maintenance',
      description:
        'Maintenance windows (one-off and recurring) with what they cover and whether each is on now.',
      inputSchema: noInput,
      annotations: listMaintenance.annotations,
    },
    {
      name: 'create_maintenance',
      description:
        'Quiet entities for a while: during the window alerts are logged skipped, state-change actions do not fire; a window ending with an entity still down alerts once. With announce, status pages showing a covered entity list it (ahead, during, 24 h after) with its public_note.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100, description: 'What the window is for' },
          ...COVERAGE_PROPERTIES,
          starts_at: { type: 'string', description: 'One-off: ISO 8601 UTC start' },
          ends_at: { type: 'string', description: 'One-off: ISO 8601 UTC end' },
          cron: { type: 'string', maxLength: 200, description: 'Recurring: 5-field cron expression' },
          duration_seconds: {
            type: 'integer',
            minimum: 60,
            maximum: 604800,
            description: 'Recurring: how long each run lasts',
          },
          timezone: { type: 'string', maxLength: 64, description: 'Recurring: IANA timezone, default UTC' },
          announce: {
            type: 'boolean',
            default: false,
            description:
              'Show it on the status pages that show a covered entity: ahead, while on, and for 24 h after',
          },
          announce_from: {
            type: 'string',
            description: 'One-off: ISO 8601 UTC time the pages start to show it (at or before starts_at)',
          },
          announce_lead_seconds: {
            type: 'integer',
            minimum: 0,
            maximum: 2592000,
            description: 'Recurring: each run is shown this many seconds before it starts (default 86400)',
          },
          public_note: {
            type: 'string',
            maxLength: 2000,
            description: 'Markdown shown with the notice on the pages',
          },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: createMaintenance.annotations,
    },
    ...MAINTENANCE_WRITE_ENTRIES,
  ],
} satisfies CreateSkillBody;
