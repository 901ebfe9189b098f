import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, must } from '../api/client';
import { Time } from '../ui/bits';
import { EditDeleteActions } from '../ui/confirm';
import { Table } from '../ui/table';
import { windowsChanged } from './queries';
import {
  coverBeyondEntities,
  isOver,
  type MaintenanceWindow,
  nextStartMs,
  ON_NOW,
  recurrenceInWords,
} from './words';

/**
 * The tenant's windows as a table: name, schedule, what it covers (entities linked to their
 * pages), whether it is on now (as the API computed when read), when it next starts and whether
 * status pages announce it; members also get Edit and Delete.
 */
export function WindowTable({
  windows,
  canWrite,
  onEdit,
}: {
  windows: readonly MaintenanceWindow[];
  canWrite: boolean;
  onEdit: (w: MaintenanceWindow) => void;
}) {
  const nowMs = Date.now();
  return (
    <Table
      label="Maintenance windows"
      rows={windows}
      rowKey={(w) => w.id}
      columns={[
        { header: 'Name', cell: (w) => w.name },
        { header: 'Schedule', cell: (w) => <Schedule window={w} /> },
        { header: 'Covers', cell: (w) => <Covers window={w} /> },
        {
          header: 'Now',
          cell: (w) =>
            w.active ? (
              <span className={`badge ${ON_NOW.className}`}>{ON_NOW.words}</span>
            ) : (
              <span className="muted">{isOver(w, nowMs) ? 'over' : 'off'}</span>
            ),
        },
        { header: 'Next start', cell: (w) => <NextStart window={w} nowMs={nowMs} /> },
        {
          header: 'Status pages',
          cell: (w) =>
            w.announce ? (
              <span className="badge">announced</span>
            ) : (
              <span className="muted">not announced</span>
            ),
        },
        canWrite && { header: 'Actions', cell: (w) => <RowActions window={w} onEdit={onEdit} /> },
      ]}
    />
  );
}

function Schedule({ window: w }: { window: MaintenanceWindow }) {
  if (w.cron !== null)
    return (
      <>
        Recurring: <code>{recurrenceInWords(w)}</code>
      </>
    );
  return (
    <>
      Once: <Time iso={w.starts_at} /> to <Time iso={w.ends_at} />
    </>
  );
}

function Covers({ window: w }: { window: MaintenanceWindow }) {
  // The answer names the entities that still exist; a deleted one is left out of `entities`.
  const others = coverBeyondEntities(w);
  const gone = w.entity_ids.length - w.entities.length;
  return (
    <ul className="plain">
      {w.entities.map((e) => (
        <li key={e.id}>
          <Link to={`/entities/${e.blueprint_slug}/${e.slug}`}>{e.name}</Link>
        </li>
      ))}
      {gone > 0 ? (
        <li className="muted">{gone === 1 ? 'a deleted entity' : `${gone} deleted entities`}</li>
      ) : null}
      {others.map((phrase) => (
        <li key={phrase}>{phrase}</li>
      ))}
    </ul>
  );
}

function NextStart({ window: w, nowMs }: { window: MaintenanceWindow; nowMs: number }) {
  const next = nextStartMs(w, nowMs);
  if (next === undefined)
    return <span className="muted">{w.cron === null ? 'none (once only)' : 'never'}</span>;
  return <Time iso={new Date(next).toISOString()} />;
}

function RowActions({
  window: w,
  onEdit,
}: {
  window: MaintenanceWindow;
  onEdit: (w: MaintenanceWindow) => void;
}) {
  const queryClient = useQueryClient();
  return (
    <EditDeleteActions
      name={w.name}
      question={`Delete the maintenance window ${w.name}? Alerts of the entities it covers are sent again.`}
      onEdit={() => onEdit(w)}
      remove={() => must(api.DELETE('/v1/maintenance/{id}', { params: { path: { id: w.id } } }))}
      changed={() => windowsChanged(queryClient)}
      notDeleted="The window was not deleted."
    />
  );
}
