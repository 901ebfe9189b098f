import { defineFeature } from '../platform/feature.ts';
import { purgeOf } from '../purge/purge-steps.ts';
import { resolveDeletedEntityIncident } from './incident-purge.ts';
import { tenantRetentionDays } from './incident-retention.ts';

/**
 * Incidents' face in the feature list: a deleted entity's open incident is resolved (it and its
 * parts are kept until the tenant's retention ends).
 */
export const incidentsFeature = defineFeature({
  name: 'incidents',
  jobs: [],
  purge: purgeOf(({ table, clock }) => ({
    entity: [resolveDeletedEntityIncident(clock, tenantRetentionDays(table))],
  })),
});
