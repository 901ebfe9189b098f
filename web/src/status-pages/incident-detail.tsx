import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading } from '../ui/feedback';
import { EditIncidentForm, UpdateForm } from './incident-edit';
import { impactWords, PublishButton } from './incident-list';
import { STATUS_WORDS } from './incident-words';
import { pageIncidentsChanged, type StatusPageRecord, usePageIncident } from './queries';

/**
 * One written incident: where it stands (draft or published, status, impact by entity name, start
 * and end), its updates oldest first as written, and for members Publish, a further update, the
 * title and impact, and Delete (which asks first).
 */
export function IncidentDetail({
  page,
  id,
  canWrite,
  onClose,
}: {
  page: StatusPageRecord;
  id: string;
  canWrite: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const incident = usePageIncident(page.slug, id);
  const [deleteError, setDeleteError] = useState<unknown>();
  if (incident.isPending) return <Loading what="the incident" />;
  if (!incident.data) return <ErrorNote error={incident.error} title="The incident could not be loaded." />;
  const i = incident.data;
  const remove = async () => {
    setDeleteError(undefined);
    try {
      await must(
        api.DELETE('/v1/status-pages/{slug}/incidents/{incident_id}', {
          params: { path: { slug: page.slug, incident_id: i.id } },
        }),
      );
      onClose();
    } catch (err) {
      setDeleteError(err);
    }
    await pageIncidentsChanged(queryClient, page.slug);
  };
  return (
    <div className="incident-detail">
      <dl className="facts">
        <dt>Shown on the public page</dt>
        <dd>{i.draft ? 'No: a draft' : 'Yes'}</dd>
        <dt>Status</dt>
        <dd>{STATUS_WORDS[i.status]}</dd>
        <dt>Impact</dt>
        <dd>{impactWords(page, i.impact)}</dd>
        <dt>Started</dt>
        <dd>
          <Time iso={i.started_at} />
        </dd>
        <dt>Resolved</dt>
        <dd>{i.resolved_at ? <Time iso={i.resolved_at} /> : 'Not yet'}</dd>
      </dl>
      {canWrite && i.draft ? (
        <div className="row">
          <PublishButton slug={page.slug} incident={i} />
        </div>
      ) : null}
      <h3>Updates</h3>
      <ol className="incident-updates" aria-label={`Updates of ${i.title}`}>
        {i.updates.map((u) => (
          <li key={u.id}>
            <strong>{STATUS_WORDS[u.status]}</strong> · <Time iso={u.at} />
            {u.notify ? <span className="muted"> · notify</span> : null}
            <p className="incident-markdown">{u.body}</p>
          </li>
        ))}
      </ol>
      {canWrite ? (
        <>
          <h3>Post an update</h3>
          <UpdateForm slug={page.slug} incident={i} />
          <h3>Title and impact</h3>
          <EditIncidentForm page={page} incident={i} />
          <div className="row">
            <ConfirmButton
              label={`Delete ${i.title}`}
              question={`Delete the incident ${i.title} and its ${i.updates.length} updates? The public page no longer shows it.`}
              confirmLabel="Delete"
              onConfirm={remove}
            />
          </div>
          <ErrorNote error={deleteError} title="The incident was not deleted." />
        </>
      ) : null}
    </div>
  );
}
