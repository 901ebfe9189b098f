import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../api/client';
import { ErrorNote, Loading } from '../ui/feedback';
import { notifyQueries } from './queries';
import { EVENT_WORDS } from './words';

type Delivery = Schemas['Delivery'];
type DigestOf = NonNullable<Delivery['digest']>;

const GROUP_WORDS: Record<DigestOf['group_by'], string> = {
  entity: 'entity',
  blueprint: 'blueprint',
  tenant: 'group',
};

/**
 * A digest's row in the delivery log: the digest itself (how many alerts, which group), not the
 * first of its alerts it is stored under, and its alerts when opened (read then, from its batch).
 */
export function DigestSummary({ d, digest }: { d: Delivery; digest: DigestOf }) {
  const [open, setOpen] = useState(false);
  const count = digest.events ?? 0;
  const part = digest.parts && digest.parts > 1 ? `, part ${digest.part} of ${digest.parts}` : '';
  return (
    <>
      <strong>
        Digest of {count} alert{count === 1 ? '' : 's'}
      </strong>{' '}
      ({GROUP_WORDS[digest.group_by]} {digest.group}
      {part})
      <details className="digest-alerts" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>Its alerts</summary>
        {open && d.channel_id ? <DigestAlerts batchId={digest.batch_id} channelId={d.channel_id} /> : null}
      </details>
    </>
  );
}

function DigestAlerts({ batchId, channelId }: { batchId: string; channelId: string }) {
  const alerts = useQuery(notifyQueries.digestAlerts(batchId, channelId));
  if (alerts.isPending) return <Loading what="the digest's alerts" />;
  if (alerts.error) return <ErrorNote error={alerts.error} title="The digest's alerts could not be read." />;
  const rows = alerts.data.logs;
  if (rows.length === 0) return <p className="muted">Its alerts are no longer in the log.</p>;
  return (
    <ul aria-label="Alerts in this digest">
      {rows.map((a) => (
        <li key={a.id}>
          {a.blueprint_slug && a.entity_slug ? (
            <Link to={`/entities/${a.blueprint_slug}/${a.entity_slug}`}>{a.entity_name}</Link>
          ) : (
            (a.entity_name ?? 'an entity')
          )}
          {a.check_name ? ` (${a.check_name})` : ''}: {EVENT_WORDS[a.event]}
        </li>
      ))}
      {alerts.data.next_cursor ? <li className="muted">More than {rows.length}: see the log.</li> : null}
    </ul>
  );
}
