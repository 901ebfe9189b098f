import type { CreateCheckBody, UpdateCheckBody } from '../check-input.ts';
import { requireKnownLocations } from '../definitions/check-locations-input.ts';
import { type CheckService, type CheckServiceDeps, createCheckService } from './check-service.ts';
import { type FirstProbeDeps, withFirstProbe } from './probe-soon.ts';

export interface LocatedCheckDeps extends CheckServiceDeps, FirstProbeDeps {
  /** The names of the tenant's stored locations (lib/locations; `default` is not stored). */
  locationNames(tenantId: string): Promise<ReadonlySet<string>>;
}

/**
 * The check service whose create and update refuse a body naming a location the tenant does not
 * have (400 naming it), read before the check's own rules run. The stored check names locations
 * by name; a location still named by a check cannot be deleted (lib/locations/location-service.ts).
 */
export function createLocatedCheckService(deps: LocatedCheckDeps): CheckService {
  // Inside the location check: a refused body queues nothing.
  const service = withFirstProbe(createCheckService(deps), deps);
  const names = (tenantId: string) => () => deps.locationNames(tenantId);
  return {
    ...service,
    async create(tenantId: string, body: CreateCheckBody) {
      await requireKnownLocations(body.locations, names(tenantId));
      return service.create(tenantId, body);
    },
    async update(tenantId: string, checkId: string, patch: UpdateCheckBody) {
      await requireKnownLocations(patch.locations, names(tenantId));
      return service.update(tenantId, checkId, patch);
    },
  };
}
