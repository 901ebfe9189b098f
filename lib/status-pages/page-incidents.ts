/** The face of a status page's written incidents for other features (the MCP tools): the service and its request schemas. */
export { IMPACT_LEVELS, PAGE_INCIDENT_STATUSES } from './incidents/page-incident-items.ts';
export {
  pageIncidentCreateBody,
  pageIncidentUpdateBody,
} from './incidents/page-incident-schemas.ts';
export { createPageIncidentService, type PageIncidentService } from './incidents/page-incident-service.ts';
