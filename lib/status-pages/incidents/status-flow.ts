/**
 * The statuses of a written page incident and their one rule (DECISIONS.md "Status-page
 * communication (wave 5)"): an update's status moves forward only, or stays where it is, and
 * `resolved` ends the incident (no update follows it).
 */

import { PAGE_INCIDENT_STATUSES, type PageIncidentStatus } from '../items/page-incident-items.ts';

const rank = (status: PageIncidentStatus) => PAGE_INCIDENT_STATUSES.indexOf(status);

/** Why an update of status `next` cannot follow `current`, or undefined when it can. */
export function refusedStep(current: PageIncidentStatus, next: PageIncidentStatus): string | undefined {
  if (current === 'resolved') return 'The incident is resolved: no update follows it.';
  if (rank(next) < rank(current))
    return `The status moves forward only: ${current} cannot go back to ${next}.`;
  return undefined;
}
