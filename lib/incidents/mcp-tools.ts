import type { ToolKitDeps } from '../catalog/entities.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { requiredString, writes } from '../platform/mcp-tool.ts';
import { asToolResult, toolResult } from '../platform/tool-answers.ts';
import type { IncidentService } from './incident-service.ts';

const incidentId = { type: 'string', maxLength: 64, description: 'The incident (inc_…)' };

/** The incident tools that change something: acknowledge_incident, resolve_incident and add_incident_note (members' keys only). */

/** What they take: the incidents' service (POST /v1/incidents/{id}/…'s), bound by the incidents' mount. */
type IncidentToolDeps = ToolKitDeps & {
  incidents: Pick<IncidentService, 'get' | 'acknowledge' | 'resolve' | 'addNote'>;
};

type IncidentTool = BuiltinTool<IncidentToolDeps>;

/** The incident an argument names: 404 before the write is confirmed when the tenant has none. */
const references: IncidentTool['references'] = async (deps, caller, args) => {
  const id = args.incident_id;
  if (typeof id === 'string') await deps.incidents.get(caller, id);
};

/** acknowledge_incident: acknowledges an open incident (stops its repeats and escalation). */
export const acknowledgeIncident: IncidentTool = {
  name: 'acknowledge_incident',
  offer: {
    toolset: 'incident-ops',
    order: 10,
    version: '1.2.0',
    description: 'Acknowledge an open incident: its repeats and escalation stop; says who acknowledged.',
    inputSchema: {
      type: 'object',
      properties: { incident_id: { type: 'string', description: 'The incident (inc_…)' } },
      required: ['incident_id'],
      additionalProperties: false,
    },
  },
  references,
  annotations: writes('Acknowledge incident', { idempotent: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const incident = await deps.incidents.acknowledge(caller, requiredString(args, 'incident_id'));
      return toolResult(
        `The incident of ${incident.entity_name} opened at ${incident.opened_at} is ${incident.state} (acknowledged at ${incident.acknowledged_at}).`,
        { incident },
      );
    }),
};

/** add_incident_note: adds a note to an incident's timeline. */
export const addIncidentNote: IncidentTool = {
  name: 'add_incident_note',
  offer: {
    toolset: 'incident-ops',
    order: 30,
    version: '1.2.0',
    description: 'Add a note (at most 4 KB) to an incident’s timeline.',
    inputSchema: {
      type: 'object',
      properties: {
        incident_id: { type: 'string', description: 'The incident (inc_…)' },
        text: { type: 'string', minLength: 1, maxLength: 4096, description: 'The note' },
      },
      required: ['incident_id', 'text'],
      additionalProperties: false,
    },
  },
  references,
  annotations: writes('Add incident note'),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const id = requiredString(args, 'incident_id');
      const note = await deps.incidents.addNote(caller, id, requiredString(args, 'text'));
      const incident = await deps.incidents.get(caller, id);
      return toolResult(
        `Note added to the incident of ${incident.entity_name} opened at ${incident.opened_at} (${incident.state}).`,
        { note },
      );
    }),
};

/** resolve_incident: resolves an incident by hand (POST /v1/incidents/{id}/resolve's service). */
export const resolveIncident: IncidentTool = {
  name: 'resolve_incident',
  offer: {
    toolset: 'incident-ops',
    order: 20,
    version: '1.2.0',
    description:
      'Resolve an incident by hand: its repeats and escalation stop; the entity keeps its state, and its next departure from up opens a new incident. A resolved incident answers as it is.',
    inputSchema: {
      type: 'object',
      properties: { incident_id: incidentId },
      required: ['incident_id'],
      additionalProperties: false,
    },
  },
  references,
  annotations: writes('Resolve incident', { idempotent: true }),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const incident = await deps.incidents.resolve(caller, requiredString(args, 'incident_id'));
      return toolResult(
        `The incident of ${incident.entity_name} opened at ${incident.opened_at} is ${incident.state} (resolved at ${incident.resolved_at}).`,
        { incident },
      );
    }),
};
