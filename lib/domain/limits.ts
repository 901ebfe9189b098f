/**
 * Fixed vocabularies and limits (its front door; the files in limits/ are private): actions'
 * methods, triggers and limits (SPEC.md), an incident's states and its notes' limits, a check policy's repeat bounds.
 */
export { ACTION_LIMITS, ACTION_METHODS, TRIGGER_STATES, TRIGGER_TYPES } from './limits/action-rules.ts';
export type { IncidentState } from './limits/incident-limits.ts';
export { INCIDENT_STATES, NOTE_BLANK, NOTE_LIMITS } from './limits/incident-limits.ts';
export { MAX_REPEAT_SECONDS, MIN_REPEAT_SECONDS } from './limits/repeat-limits.ts';
