import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { Time } from '../ui/bits';
import { ErrorNote } from '../ui/feedback';
import { Table } from '../ui/table';
import { LEVEL_WORDS, STATUS_WORDS } from './incident-words';
import { type PageIncident, pageIncidentsChanged, type StatusPageRecord } from './queries';

/**
 * A page's written incidents as a table: title, status (and whether it is a draft), the impact by
 * entity name, when it started; a button to manage each, and for members a one-click Publish on a
 * draft.
 */

/** "Billing (major outage), Search (degraded performance)": the entities by their names on the page. */
export function impactWords(page: StatusPageRecord, impact: PageIncident['impact']): string {
  if (impact.length === 0) return 'None named';
  const names = new Map(page.entities.map((e) => [e.id, e.name]));
  return impact
    .map(
      (i) =>
        `${names.get(i.entity_id) ?? 'an entity no longer shown'} (${LEVEL_WORDS[i.level].toLowerCase()})`,
    )
    .join(', ');
}

export function IncidentTable({
  label,
  page,
  incidents,
  canWrite,
  onManage,
}: {
  label: string;
  page: StatusPageRecord;
  incidents: readonly PageIncident[];
  canWrite: boolean;
  onManage: (id: string) => void;
}) {
  return (
    <Table
      label={label}
      rows={incidents}
      rowKey={(i) => i.id}
      columns={[
        { header: 'Title', cell: (i) => i.title },
        {
          header: 'Status',
          cell: (i) => (
            <>
              {STATUS_WORDS[i.status]}
              {i.draft ? <span className="badge"> Draft</span> : null}
            </>
          ),
        },
        { header: 'Impact', cell: (i) => impactWords(page, i.impact) },
        { header: 'Started', cell: (i) => <Time iso={i.started_at} /> },
        {
          header: 'Actions',
          cell: (i) => (
            <div className="row">
              <button type="button" onClick={() => onManage(i.id)}>
                Manage {i.title}
              </button>
              {canWrite && i.draft ? <PublishButton slug={page.slug} incident={i} /> : null}
            </div>
          ),
        },
      ]}
    />
  );
}

/** Publishes a draft in one click (PATCH … {draft: false}): the public page shows it from then on. */
export function PublishButton({ slug, incident }: { slug: string; incident: PageIncident }) {
  const queryClient = useQueryClient();
  const publish = useMutation({
    mutationFn: () =>
      must(
        api.PATCH('/v1/status-pages/{slug}/incidents/{incident_id}', {
          params: { path: { slug, incident_id: incident.id } },
          body: { draft: false },
        }),
      ),
    onSettled: () => pageIncidentsChanged(queryClient, slug),
  });
  return (
    <>
      <button type="button" className="primary" disabled={publish.isPending} onClick={() => publish.mutate()}>
        Publish {incident.title}
      </button>
      <ErrorNote error={publish.error} title="The incident was not published." />
    </>
  );
}
