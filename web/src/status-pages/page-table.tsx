import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, must } from '../api/client';
import { EditDeleteActions } from '../ui/confirm';
import { scrollRegion } from '../ui/scroll-region';
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
    <div className="table-wrap" {...scrollRegion('Status pages')}>
      <table aria-label="Status pages">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Slug</th>
            <th scope="col">Entities</th>
            <th scope="col">Public page</th>
            <th scope="col">Custom domain</th>
            <th scope="col">Written incidents</th>
            {canWrite ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {pages.map((p) => (
            <tr key={p.slug}>
              <td>{p.title}</td>
              <td>
                <code>{p.slug}</code>
              </td>
              <td>{p.entity_ids.length}</td>
              <td>
                <a href={p.public_path} target="_blank" rel="noopener noreferrer">
                  {p.public_path}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </td>
              <td>
                {p.domain === null ? (
                  <span className="muted">None</span>
                ) : (
                  <a href={`https://${p.domain}/`} target="_blank" rel="noopener noreferrer">
                    {p.domain}
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                )}
              </td>
              <td>
                <Link to={`/status-pages/${p.slug}/incidents`}>
                  Incidents<span className="visually-hidden"> of {p.title}</span>
                </Link>
              </td>
              {canWrite ? (
                <td>
                  <RowActions page={p} onEdit={onEdit} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
