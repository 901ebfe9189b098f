import { useState } from 'react';
import { useSession } from '../session';
import { PageForm } from '../status-pages/page-form';
import { PageTable } from '../status-pages/page-table';
import { type StatusPageRecord, useStatusPages } from '../status-pages/queries';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';

/**
 * Public status pages (docs/status-pages.md): the tenant's pages, each linked to its public
 * address, and for members a form to create one, or to edit the one chosen in the table.
 * Read-only keys read only.
 */
export function StatusPagesPage() {
  const { canWrite } = useSession();
  const pages = useStatusPages();
  const [editing, setEditing] = useState<StatusPageRecord>();
  return (
    <Page title="Status pages">
      <p className="muted">
        A status page shows chosen entities to anyone, without a key, at <code>/p/&lt;slug&gt;</code>: their
        state, 90 days of daily uptime and, if you choose, their incidents. It is at most 30 seconds behind.
      </p>
      <Section title="Pages">
        <ErrorNote error={pages.error} title="The status pages could not be loaded." />
        {pages.isPending ? (
          <Loading what="status pages" />
        ) : (pages.data ?? []).length === 0 ? (
          <Empty title="No status pages yet.">
            A status page tells your users how your services are doing, at an address you can share.
            {canWrite ? ' Create the first one with the form below.' : ''}
          </Empty>
        ) : (
          <PageTable pages={pages.data ?? []} canWrite={canWrite} onEdit={setEditing} />
        )}
      </Section>
      {canWrite ? (
        <Section title={editing ? `Edit ${editing.title}` : 'New status page'}>
          <PageForm
            key={editing?.slug ?? 'new'}
            {...(editing ? { editing, onDone: () => setEditing(undefined) } : {})}
          />
        </Section>
      ) : null}
    </Page>
  );
}
