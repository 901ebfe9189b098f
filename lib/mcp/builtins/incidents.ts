import type { BuiltinTool } from './deps.ts';
import { requiredString } from './deps.ts';
import { asToolResult, toolResult } from './result.ts';

/** The incident tools that change something: acknowledge_incident and add_incident_note (members' keys only). */

/** acknowledge_incident: acknowledges an open incident (stops its repeats and escalation). */
export const acknowledgeIncident: BuiltinTool = {
  name: 'acknowledge_incident',
  annotations: {
    title: 'Acknowledge incident',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
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
export const addIncidentNote: BuiltinTool = {
  name: 'add_incident_note',
  annotations: {
    title: 'Add incident note',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
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
