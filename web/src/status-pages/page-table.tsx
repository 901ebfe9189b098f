import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, must } from '../api/client';
import { NewTabLink } from '../ui/bits';
import { EditDeleteActions } from '../ui/confirm';
import { Table } from '../ui/table';
import { type StatusPageRecord, statusPagesChanged } from './queries';

/**
 * The tenant's status pages as a table: title, slug, how many entities it shows, a link to the
 * public page (a new tab: it is a page of its own, outside the console), its custom domain's
 * https://{domain}/ when it has one, and a link to its written incidents in the console; members
 * also get Edit and Delete.
 */
export function PageTable({
  pages,
  canWrite,
  onEdit,
}: {
  pages: readonly StatusPageRecord[];
  canWrite: boolean;
  onEdit: (page: StatusPageRecord) => void;
}) {
  return (
    <Table
      label="Status pages"
      rows={pages}
      rowKey={(p) => p.slug}
      columns={[
        { header: 'Title', cell: (p) => p.title },
        { header: 'Slug', cell: (p) => <code>{p.slug}</code> },
        { header: 'Entities', cell: (p) => p.entity_ids.length },
        { header: 'Public page', cell: (p) => <NewTabLink href={p.public_path}>{p.public_path}</NewTabLink> },
        {
          header: 'Custom domain',
          cell: (p) =>
            p.domain === null ? (
              <span className="muted">None</span>
            ) : (
              <NewTabLink href={`https://${p.domain}/`}>{p.domain}</NewTabLink>
            ),
        },
        {
          header: 'Written incidents',
          cell: (p) => (
            <Link to={`/status-pages/${p.slug}/incidents`}>
              Incidents<span className="visually-hidden"> of {p.title}</span>
            </Link>
          ),
        },
        canWrite && { header: 'Actions', cell: (p) => <RowActions page={p} onEdit={onEdit} /> },
      ]}
    />
  );
}

function RowActions({ page, onEdit }: { page: StatusPageRecord; onEdit: (page: StatusPageRecord) => void }) {
  const queryClient = useQueryClient();
  return (
    <EditDeleteActions
      name={page.title}
      question={`Delete the status page ${page.title}? ${page.public_path} answers "not found" from then on, and its slug is free for anyone to take.`}
      onEdit={() => onEdit(page)}
      remove={() => must(api.DELETE('/v1/status-pages/{slug}', { params: { path: { slug: page.slug } } }))}
      changed={() => statusPagesChanged(queryClient)}
      notDeleted="The status page was not deleted."
    />
  );
}
