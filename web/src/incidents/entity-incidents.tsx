import { useRefreshOnChange } from '../live/refresh';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';
import { IncidentTable } from './incident-table';
import { incidentKeys, UNRESOLVED_REFRESH_MS, useIncidentList } from './queries';
import { durationInWords, meanTimeToResolve } from './words';

const PAGE = 20;

/**
 * An entity's incident history (GET /v1/incidents?entity_id=…), newest first, paged, with the mean
 * time to resolve of the page. Read again when the entity's state changes (an incident opens or
 * resolves a moment after), and on its own while one is unresolved.
 */
export function EntityIncidents({ entityId, entityState }: { entityId: string; entityState: string | null }) {
  const pages = useCursorPages();
  const list = useIncidentList(
    { entity_id: entityId, limit: PAGE, cursor: pages.cursor },
    UNRESOLVED_REFRESH_MS,
  );
  useRefreshOnChange(entityState, [incidentKeys.lists()]);
  const incidents = list.data?.incidents ?? [];
  const mttr = meanTimeToResolve(incidents);
  return (
    <Section title="Incidents">
      <ErrorNote error={list.error} title="The incidents could not be loaded." />
      {list.isPending ? (
        <Loading what="incidents" />
      ) : incidents.length === 0 ? (
        <Empty title="No incidents.">
          An incident opens when this entity goes down or degraded after being up.
        </Empty>
      ) : (
        <>
          {mttr ? (
            <p>
              Mean time to resolve: <strong>{durationInWords(mttr.seconds)}</strong>{' '}
              <span className="muted">(of the {mttr.of === 1 ? 'one' : mttr.of} resolved below)</span>
            </p>
          ) : null}
          <IncidentTable label="Incident history" incidents={incidents} withEntity={false} />
        </>
      )}
      <CursorPager pages={pages} next={list.data?.next_cursor} of="incidents" />
    </Section>
  );
}
