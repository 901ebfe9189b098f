/** The face of a status page's written incidents for other features (the MCP tools): the service and its request schemas. */

export {
  pageIncidentCreateBody,
  pageIncidentUpdateBody,
} from './incidents/page-incident-schemas.ts';
export { createPageIncidentService, type PageIncidentService } from './incidents/page-incident-service.ts';
export { IMPACT_LEVELS, PAGE_INCIDENT_STATUSES } from './items/page-incident-items.ts';
