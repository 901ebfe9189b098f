import { Link } from 'react-router';
import { Time, useRelativeTime } from '../ui/bits';
import { Table } from '../ui/table';
import { entityPageOf } from './queries';
import { durationInWords, INCIDENT_STATE, type Incident } from './words';

/** An incident's state as a badge, in words. */
export function IncidentState({ state }: { state: Incident['state'] }) {
  const s = INCIDENT_STATE[state];
  return <span className={`badge ${s.className}`}>{s.words}</span>;
}

/** How long an incident lasted, or has lasted so far. */
export function Duration({ incident }: { incident: Incident }) {
  return (
    <>
      {durationInWords(incident.duration_seconds)}
      {incident.state === 'resolved' ? null : <span className="muted"> so far</span>}
    </>
  );
}

/**
 * Incidents as a table named `label`: when each opened (the link to its timeline), its entity
 * (unless `withEntity` is false, on the entity's own page), state, acknowledgement, resolution
 * and duration.
 */
export function IncidentTable({
  label,
  incidents,
  withEntity = true,
}: {
  label: string;
  incidents: readonly Incident[];
  withEntity?: boolean;
}) {
  return (
    <Table
      label={label}
      rows={incidents}
      rowKey={(i) => i.id}
      columns={[
        {
          header: 'Opened',
          cell: (i) => (
            <>
              <IncidentLink incident={i} />
              {i.in_maintenance ? <span className="muted"> (in maintenance)</span> : null}
            </>
          ),
        },
        withEntity && {
          header: 'Entity',
          cell: (i) => {
            const entityPage = entityPageOf(i);
            return entityPage ? <Link to={entityPage}>{i.entity_name}</Link> : i.entity_name;
          },
        },
        { header: 'State', cell: (i) => <IncidentState state={i.state} /> },
        { header: 'Acknowledged', cell: (i) => <TimeOrNotYet iso={i.acknowledged_at} /> },
        { header: 'Resolved', cell: (i) => <TimeOrNotYet iso={i.resolved_at} /> },
        { header: 'Duration', cell: (i) => <Duration incident={i} /> },
      ]}
    />
  );
}

/** A time, or "not yet". */
function TimeOrNotYet({ iso }: { iso: string | null }) {
  return iso ? <Time iso={iso} /> : <span className="muted">not yet</span>;
}

/** When an incident was acknowledged; "not yet" while open, "never" once resolved without. */
export function Acknowledged({ incident: i }: { incident: Incident }) {
  if (i.acknowledged_at) return <Time iso={i.acknowledged_at} />;
  return <span className="muted">{i.state === 'resolved' ? 'never' : 'not yet'}</span>;
}

/** The incident's link: its name holds the opening time as shown (relative), so it contains the visible text. */
function IncidentLink({ incident }: { incident: Incident }) {
  const opened = useRelativeTime(incident.opened_at);
  return (
    <Link
      to={`/incidents/${incident.id}`}
      aria-label={`Incident of ${incident.entity_name}, opened ${opened}`}
    >
      <Time iso={incident.opened_at} />
    </Link>
  );
}
