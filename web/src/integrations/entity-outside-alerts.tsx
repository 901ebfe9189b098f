import { useQuery } from '@tanstack/react-query';
import { Time } from '../ui/bits';
import { ErrorNote } from '../ui/feedback';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { integrationQueries } from './queries';

/**
 * "Outside alerts" on an entity's page (issue 77 point 5): what Alertmanager, Grafana, PagerDuty,
 * CloudWatch or a webhook said about this entity, newest heard first: its status and severity in
 * words, its summary, the integration, how often it was heard, and its links back to the sender
 * (http(s) only, as the API keeps them; opened without the console as referrer). Shown only when
 * the entity has any.
 */

const SEVERITY_CLASS: Record<string, string> = {
  critical: 'state-down',
  error: 'state-down',
  warning: 'state-degraded',
  info: 'state-unknown',
};

export function EntityOutsideAlerts({ entityId }: { entityId: string }) {
  const alerts = useQuery(integrationQueries.onEntity(entityId));
  const integrations = useQuery(integrationQueries.list());
  if (alerts.error) return <ErrorNote error={alerts.error} title="The outside alerts could not be loaded." />;
  if (!alerts.data || alerts.data.length === 0) return null;
  const nameOf = (id: string) => integrations.data?.find((i) => i.id === id)?.name ?? id;
  return (
    <Section title="Outside alerts">
      <Table
        label="Outside alerts"
        rowKey={(a) => a.id}
        rows={alerts.data}
        columns={[
          {
            header: 'Alert',
            rowHeader: true,
            cell: (a) => (
              <>
                <span className={`badge ${SEVERITY_CLASS[a.severity] ?? 'state-unknown'}`}>{a.severity}</span>{' '}
                {a.summary || a.dedup_key}
              </>
            ),
          },
          { header: 'Status', cell: (a) => a.status },
          { header: 'From', cell: (a) => nameOf(a.integration_id) },
          {
            header: 'Heard',
            cell: (a) => (
              <>
                {a.count === 1 ? 'once' : `${a.count} times`}, last <Time iso={a.last_at} />
              </>
            ),
          },
          {
            header: 'Links',
            cell: (a) =>
              a.links.map((l) => (
                <a
                  key={l.href}
                  href={l.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="outside-link"
                >
                  {l.text}
                </a>
              )),
          },
        ]}
      />
    </Section>
  );
}
