import { migrationMarker } from '../store/marked-migration.ts';

/**
 * The marker of the incident expiry migration (incident-retention.ts `migrateIncidentExpiry`):
 * every incident resolved before issue 36 was given its expiry.
 */
export const incidentExpiryMarker = migrationMarker('incident-expiry', 'incidents_expiring');
