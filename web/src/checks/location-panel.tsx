import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../api/client';
import { LocationLatencyChart } from '../charts/location-latency';
import { ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { LocationSteps } from './location-steps';
import { isLocated, type LocationOutcome, outcomeWords, quorumWords } from './locations';
import { checkQueries } from './queries';

/** Check types whose results report steps (each location's step log is shown). */
const STEP_TYPES: ReadonlySet<string> = new Set(['browser', 'multistep']);

/** Results the per-location chart reads (the newest of GET /v1/checks/{id}/results). */
const LOCATION_CHART_RESULTS = 50;

/**
 * A located check's locations on its page (docs/locations.md): the quorum in words, each
 * location's part in the last decided slot (`last_locations`), and each location's latency over
 * the recent results (their `locations[].latency_ms`); a scripted check's step log per location
 * (each location's newest row, with its screenshots when it has them). Nothing for a check probed
 * by the runtime alone.
 */
export function LocationPanel({ check }: { check: Schemas['Check'] }) {
  if (!isLocated(check)) return null;
  return (
    <Section title="Locations">
      <p>{quorumWords(check)}</p>
      <h3>Last slot</h3>
      {check.last_locations && check.last_locations.length > 0 ? (
        <LastSlot outcomes={check.last_locations} />
      ) : (
        <p className="muted">No slot decided yet.</p>
      )}
      <h3>Latency per location</h3>
      <LocationLatency checkId={check.id} order={check.locations} />
      {STEP_TYPES.has(check.check_type) ? (
        <>
          <h3>Steps per location</h3>
          <LocationSteps checkId={check.id} locations={check.locations} />
        </>
      ) : null}
    </Section>
  );
}

function LastSlot({ outcomes }: { outcomes: readonly LocationOutcome[] }) {
  return (
    <Table
      label="Last slot per location"
      rows={outcomes}
      rowKey={(o) => o.location}
      columns={[
        { header: 'Location', rowHeader: true, cell: (o) => o.location },
        {
          header: 'Outcome',
          cell: (o) => <span className={`badge state-${o.outcome}`}>{outcomeWords(o.outcome)}</span>,
        },
        { header: 'Status code', cell: (o) => o.status_code || '—' },
        { header: 'Latency', cell: (o) => (o.latency_ms === null ? '—' : `${o.latency_ms} ms`) },
        { header: 'Error', cell: (o) => o.error_message || '—' },
      ]}
    />
  );
}

function LocationLatency({ checkId, order }: { checkId: string; order: readonly string[] }) {
  const results = useQuery(checkQueries.latest(checkId, LOCATION_CHART_RESULTS));
  if (results.isPending) return <Loading what="results" />;
  if (results.error) return <ErrorNote error={results.error} title="The results could not be read." />;
  const located = results.data.results.filter((r) => r.locations && r.locations.length > 0);
  if (located.length === 0) return <p className="muted">No location has reported yet.</p>;
  return (
    <figure className="location-latency">
      <figcaption>Latency per location, last {located.length} results (a gap: no report)</figcaption>
      <LocationLatencyChart results={located} order={order} />
    </figure>
  );
}
