import { Link, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { AcknowledgeButton, NoteForm } from '../incidents/incident-controls';
import { IncidentFilterBar, type IncidentUrlFilter, useIncidentFilter } from '../incidents/incident-filter';
import { Acknowledged, Duration, IncidentState, IncidentTable } from '../incidents/incident-table';
import {
  entityPageOf,
  UNRESOLVED_REFRESH_MS,
  useIncident,
  useIncidentList,
  useUserNames,
} from '../incidents/queries';
import { Timeline } from '../incidents/timeline';
import { durationInWords, meanTimeToResolve } from '../incidents/words';
import { useSession } from '../session';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';

/** The most unresolved incidents of one state shown at once (the API's page bound). */
const UNRESOLVED_LIMIT = 200;
const RESOLVED_PAGE = 50;

/**
 * The account's incidents: open ones first, then acknowledged, then resolved ones page by page; or,
 * filtered by state and entity (in the URL), the matching ones page by page as the server finds them.
 */
export function IncidentsPage() {
  const filtering = useIncidentFilter();
  return (
    <Page title="Incidents">
      <p className="muted">
        An incident opens when an entity goes down or degraded and resolves when it is up again. Acknowledging
        one says someone is on it: reminders and escalation stop.
      </p>
      <IncidentFilterBar {...filtering} />
      {filtering.active ? (
        <Filtered
          key={`${filtering.filter.state ?? ''}/${filtering.filter.entityId}`}
          filter={filtering.filter}
        />
      ) : (
        <>
          <Unresolved />
          <Resolved />
        </>
      )}
    </Page>
  );
}

/** The incidents matching the URL's filter, newest first, a page at a time (keyed by the filter: a change starts at page one). */
function Filtered({ filter }: { filter: IncidentUrlFilter }) {
  const pages = useCursorPages();
  const list = useIncidentList(
    {
      limit: RESOLVED_PAGE,
      cursor: pages.cursor,
      ...(filter.state ? { state: filter.state } : {}),
      ...(filter.entityId ? { entity_id: filter.entityId } : {}),
    },
    filter.state === 'resolved' ? false : UNRESOLVED_REFRESH_MS,
  );
  const incidents = list.data?.incidents ?? [];
  return (
    <Section title="Matching incidents">
      <ErrorNote error={list.error} title="The incidents could not be loaded." />
      {list.isPending ? (
        <Loading what="incidents" />
      ) : incidents.length === 0 ? (
        <Empty title="No incident matches these filters." />
      ) : (
        <IncidentTable label="Matching incidents" incidents={incidents} withEntity={!filter.entityId} />
      )}
      <CursorPager pages={pages} next={list.data?.next_cursor} of="matching incidents" />
    </Section>
  );
}

function Unresolved() {
  const open = useIncidentList({ state: 'open', limit: UNRESOLVED_LIMIT }, UNRESOLVED_REFRESH_MS);
  const acked = useIncidentList({ state: 'acknowledged', limit: UNRESOLVED_LIMIT }, UNRESOLVED_REFRESH_MS);
  const incidents = [...(open.data?.incidents ?? []), ...(acked.data?.incidents ?? [])];
  const more = Boolean(open.data?.next_cursor || acked.data?.next_cursor);
  return (
    <Section title="Open and acknowledged">
      <ErrorNote error={open.error ?? acked.error} title="The unresolved incidents could not be loaded." />
      {open.isPending || acked.isPending ? (
        <Loading what="unresolved incidents" />
      ) : incidents.length === 0 ? (
        <Empty title="No open incidents.">Every entity that has been up is up, or back up.</Empty>
      ) : (
        <>
          <IncidentTable label="Unresolved incidents" incidents={incidents} />
          {more ? (
            <p className="muted">
              Showing the newest {UNRESOLVED_LIMIT} open and {UNRESOLVED_LIMIT} acknowledged incidents.
            </p>
          ) : null}
        </>
      )}
    </Section>
  );
}

function Resolved() {
  const pages = useCursorPages();
  const resolved = useIncidentList({ state: 'resolved', limit: RESOLVED_PAGE, cursor: pages.cursor });
  const mttr = meanTimeToResolve(resolved.data?.incidents ?? []);
  return (
    <Section title="Resolved">
      <ErrorNote error={resolved.error} title="The resolved incidents could not be loaded." />
      {resolved.isPending ? (
        <Loading what="resolved incidents" />
      ) : (resolved.data?.incidents ?? []).length === 0 ? (
        <Empty title="No resolved incidents yet." />
      ) : (
        <>
          {mttr ? (
            <p>
              Mean time to resolve: <strong>{durationInWords(mttr.seconds)}</strong>{' '}
              <span className="muted">
                ({mttr.of === 1 ? 'the incident below' : `the ${mttr.of} incidents below`})
              </span>
            </p>
          ) : null}
          <IncidentTable label="Resolved incidents" incidents={resolved.data?.incidents ?? []} />
        </>
      )}
      <CursorPager pages={pages} next={resolved.data?.next_cursor} of="resolved incidents" />
    </Section>
  );
}

/** One incident (route /incidents/:id): what happened, acknowledge and notes (members), and its timeline. */
export function IncidentPage() {
  const { id = '' } = useParams();
  const { canWrite } = useSession();
  const q = useIncident(id);
  const who = useUserNames();
  if (q.isPending) return <Loading what="the incident" />;
  if (q.error) {
    const missing = q.error instanceof ApiError && (q.error.status === 404 || q.error.status === 400);
    return (
      <Page title={missing ? 'Incident not found' : 'Incident'}>
        <p>
          <Link to="/incidents">← All incidents</Link>
        </p>
        {missing ? (
          <Empty title="There is no such incident in this account." />
        ) : (
          <ErrorNote error={q.error} title="The incident could not be loaded." />
        )}
      </Page>
    );
  }
  const i = q.data;
  const entityPage = entityPageOf(i);
  return (
    <Page
      title={`Incident: ${i.entity_name}`}
      actions={
        <>
          <IncidentState state={i.state} />
          {canWrite && i.state === 'open' ? <AcknowledgeButton incident={i} /> : null}
        </>
      }
    >
      <p>
        <Link to="/incidents">← All incidents</Link>
      </p>
      <Section title="Summary">
        <dl className="facts">
          <dt>Entity</dt>
          <dd>{entityPage ? <Link to={entityPage}>{i.entity_name}</Link> : i.entity_name}</dd>
          <dt>Opened</dt>
          <dd>
            <Time iso={i.opened_at} />
            {i.in_maintenance ? <span className="muted"> (during maintenance)</span> : null}
          </dd>
          <dt>Acknowledged</dt>
          <dd>
            <Acknowledged incident={i} />
            {i.acknowledged_at && i.acknowledged_by ? ` by ${who(i.acknowledged_by)}` : null}
          </dd>
          <dt>Resolved</dt>
          <dd>{i.resolved_at ? <Time iso={i.resolved_at} /> : <span className="muted">not yet</span>}</dd>
          <dt>Duration</dt>
          <dd>
            <Duration incident={i} />
          </dd>
        </dl>
      </Section>
      {canWrite ? (
        <Section title="Add a note">
          <NoteForm incidentId={i.id} />
        </Section>
      ) : null}
      <Section title="Timeline">
        <Timeline entries={i.timeline} truncated={i.timeline_truncated} />
      </Section>
    </Page>
  );
}
