import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { ErrorNote, Loading } from '../ui/feedback';
import { StoredTrace, storedScreenshots } from './evidence';
import { checkKeys } from './queries';
import { StepResults } from './step-results';

/**
 * One location's newest row (GET /v1/checks/{id}/results?location=&limit=1), under the check's
 * results key, so what refreshes the check's results refreshes it.
 */
const newestRow = (checkId: string, location: string) =>
  queryOptions({
    queryKey: [...checkKeys.results(checkId), 'location', location] as const,
    queryFn: () =>
      must(
        api.GET('/v1/checks/{id}/results', {
          params: { path: { id: checkId }, query: { location, limit: 1 } },
        }),
      ),
  });

/**
 * A scripted located check's step log per location (docs/scripted-checks.md "From probe
 * locations"): each location's newest row, its steps as the results list shows them, with its
 * screenshots and trace when it has them (the default location's).
 */
export function LocationSteps({ checkId, locations }: { checkId: string; locations: readonly string[] }) {
  return (
    <ul className="location-steps" aria-label="Steps per location">
      {locations.map((location) => (
        <li key={location}>
          <strong>{location}</strong> <LocationRow checkId={checkId} location={location} />
        </li>
      ))}
    </ul>
  );
}

function LocationRow({ checkId, location }: { checkId: string; location: string }) {
  const rows = useQuery(newestRow(checkId, location));
  if (rows.isPending) return <Loading what={`${location}'s steps`} />;
  if (rows.error) return <ErrorNote error={rows.error} title={`${location}'s steps could not be read.`} />;
  const row = rows.data.results[0];
  if (!row?.details?.steps) return <span className="muted">No steps reported yet.</span>;
  return (
    <>
      <StepResults
        steps={row.details.steps}
        failed={row.details.failed_step}
        screenshotOf={storedScreenshots(checkId, row)}
      />
      <StoredTrace checkId={checkId} result={row} />
    </>
  );
}
