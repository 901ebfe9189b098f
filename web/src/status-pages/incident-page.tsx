import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useSession } from '../session';
import { NewTabLink } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';
import { IncidentDetail } from './incident-detail';
import { IncidentForm } from './incident-form';
import { IncidentTable } from './incident-list';
import {
  type PageIncident,
  type StatusPageRecord,
  useOpenPageIncidents,
  usePageIncident,
  usePageIncidents,
  useStatusPage,
} from './queries';

/**
 * A status page's written incidents (docs/status-pages.md "Written incidents"): every open one
 * (drafts included: GET …/incidents?open=true) first, then the resolved ones, paged; one chosen to manage (publish, post
 * an update, edit, delete); and for members a form that writes a new one as a draft, its body
 * previewed as the public page will show it. Read-only keys read only.
 */
export function PageIncidentsPage() {
  const { slug = '' } = useParams();
  const page = useStatusPage(slug);
  return (
    <Page
      title={page.data ? `Incidents of ${page.data.title}` : 'Written incidents'}
      actions={<Link to="/status-pages">← All status pages</Link>}
    >
      <ErrorNote error={page.error} title="The status page could not be loaded." />
      {page.isPending ? (
        <Loading what="the status page" />
      ) : page.data ? (
        <Incidents page={page.data} />
      ) : null}
    </Page>
  );
}

function Incidents({ page }: { page: StatusPageRecord }) {
  const { canWrite } = useSession();
  const [chosen, setChosen] = useState<string>();
  const table = (label: string, incidents: readonly PageIncident[]) => (
    <IncidentTable label={label} page={page} incidents={incidents} canWrite={canWrite} onManage={setChosen} />
  );
  return (
    <>
      <p className="muted">
        What you write here appears on <NewTabLink href={page.public_path}>{page.public_path}</NewTabLink>{' '}
        once published: open incidents on top, resolved ones in its history. A new incident is saved as a
        draft, which only you see.
      </p>
      <Section title="Open incidents and drafts">
        <OpenIncidents slug={page.slug} table={table} />
      </Section>
      <Section title="Resolved incidents">
        <ResolvedIncidents slug={page.slug} table={table} />
      </Section>
      {chosen ? (
        <ChosenIncident
          key={chosen}
          page={page}
          id={chosen}
          canWrite={canWrite}
          onClose={() => setChosen(undefined)}
        />
      ) : null}
      {canWrite ? (
        <Section title="New incident">
          <IncidentForm page={page} onCreated={setChosen} />
        </Section>
      ) : null}
    </>
  );
}

/** The incident chosen to manage, under its own title. */
function ChosenIncident(props: {
  page: StatusPageRecord;
  id: string;
  canWrite: boolean;
  onClose: () => void;
}) {
  const incident = usePageIncident(props.page.slug, props.id);
  return (
    <Section
      title={incident.data?.title ?? 'Incident'}
      actions={
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      }
    >
      <IncidentDetail {...props} />
    </Section>
  );
}

type TableOf = (label: string, incidents: readonly PageIncident[]) => ReactNode;

/** Every open incident of the page (a page holds at most 20), newest started first. */
function OpenIncidents({ slug, table }: { slug: string; table: TableOf }) {
  const open = useOpenPageIncidents(slug);
  if (open.isPending) return <Loading what="open incidents" />;
  if (!open.data) return <ErrorNote error={open.error} title="The open incidents could not be loaded." />;
  return open.data.incidents.length === 0 ? (
    <Empty title="No open incident.">A new incident is saved here as a draft until you publish it.</Empty>
  ) : (
    table('Open incidents', open.data.incidents)
  );
}

/** The resolved ones, newest written first, from the page's list 20 at a time (its open ones are above). */
function ResolvedIncidents({ slug, table }: { slug: string; table: TableOf }) {
  const pages = useCursorPages();
  const list = usePageIncidents(slug, pages.cursor);
  const resolved = (list.data?.incidents ?? []).filter((i) => i.status === 'resolved');
  return (
    <>
      <ErrorNote error={list.error} title="The incidents could not be loaded." />
      {list.isPending ? (
        <Loading what="resolved incidents" />
      ) : resolved.length === 0 ? (
        <Empty title={pages.depth > 0 ? 'None resolved among these.' : 'No resolved incident yet.'} />
      ) : (
        table('Resolved incidents', resolved)
      )}
      <CursorPager pages={pages} next={list.data?.next_cursor} of="incidents" />
    </>
  );
}
