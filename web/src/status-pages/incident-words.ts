import type { PageIncident } from './queries';

/** The words of a written incident's statuses and impact levels, as the public page says them. */

export type IncidentStatus = PageIncident['status'];
export type ImpactLevel = PageIncident['impact'][number]['level'];

/** In the order an incident moves through them (forward only). */
export const STATUSES: readonly IncidentStatus[] = ['investigating', 'identified', 'monitoring', 'resolved'];

export const STATUS_WORDS: Record<IncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

export const LEVELS: readonly ImpactLevel[] = ['degraded_performance', 'partial_outage', 'major_outage'];

export const LEVEL_WORDS: Record<ImpactLevel, string> = {
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

/** The statuses an update may take after `current`: it and the later ones; none after resolved. */
export function nextStatuses(current: IncidentStatus): IncidentStatus[] {
  if (current === 'resolved') return [];
  return STATUSES.slice(STATUSES.indexOf(current));
}
