/**
 * An incident's states and its notes' limits: what the incidents' items, routes and service share
 * (pure, so the owner module lib/incidents/incident-items.ts may import it).
 */

export const INCIDENT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/** Notes one incident may hold, and the longest note (UTF-8 bytes): DECISIONS.md. */
export const NOTE_LIMITS = { perIncident: 200, maxBytes: 4096 } as const;
/** Why a note of whitespace alone is refused: it would show as an empty entry in the timeline. */
export const NOTE_BLANK = 'Write the note: it holds only spaces.';
