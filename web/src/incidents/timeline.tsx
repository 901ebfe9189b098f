import { Link } from 'react-router';
import { checkNameIn, useCheckNames } from '../checks/check-names';
import { StateBadge, Time } from '../ui/bits';
import { Empty } from '../ui/feedback';
import { useActionNames, useUserNames } from './queries';
import { actionOutcome, alertInWords, type TimelineEntry } from './words';

/**
 * An incident's timeline, oldest first, each step in words: state changes, alerts (sent or
 * skipped, and why), action runs, the acknowledgement, notes and the resolution.
 */
export function Timeline({ entries, truncated }: { entries: readonly TimelineEntry[]; truncated: boolean }) {
  const checks = useCheckNames();
  const actions = useActionNames();
  const who = useUserNames();
  if (entries.length === 0) return <Empty title="Nothing recorded yet." />;
  return (
    <>
      <ol className="feed" aria-label="Timeline, oldest first">
        {entries.map((e, i) => (
          // Entries have no common id; their order is fixed (oldest first, stable).
          // biome-ignore lint/suspicious/noArrayIndexKey: entries of several kinds, order is identity
          <li key={i} className="feed-item" data-type={e.type}>
            <Step entry={e} checkName={(id) => checkNameIn(checks, id)} actions={actions} who={who} />
            <Time iso={e.at} />
          </li>
        ))}
      </ol>
      {truncated ? (
        <p className="muted">
          Later steps were left out: a timeline shows at most 500 steps, read from the account’s most recent
          records.
        </p>
      ) : null}
    </>
  );
}

function Step({
  entry: e,
  checkName,
  actions,
  who,
}: {
  entry: TimelineEntry;
  checkName: (id: string) => string;
  actions: Map<string, string>;
  who: (id: string) => string;
}) {
  switch (e.type) {
    case 'transition':
      // A fragment: each part is its own item of the feed line (it wraps on narrow screens).
      return (
        <>
          <span className="feed-change">
            <StateBadge state={e.from_state} /> <span aria-hidden="true">→</span>
            <span className="visually-hidden"> to </span> <StateBadge state={e.to_state} />
          </span>
          <span>
            by <Link to={`/checks/${e.check_id}`}>{checkName(e.check_id)}</Link>
          </span>
          {e.reason ? <span className="feed-reason">{e.reason}</span> : null}
        </>
      );
    case 'alert':
      return <span>{alertInWords(e)}</span>;
    case 'action':
      return (
        <span>
          Action <Link to={`/actions/${e.action_id}`}>{actions.get(e.action_id) ?? 'an action'}</Link> ran:{' '}
          {actionOutcome(e)}
        </span>
      );
    case 'acknowledgement':
      return <strong>Acknowledged by {who(e.by)}</strong>;
    case 'also_failing':
      // A check that started failing inside the already-down entity: it joined, it paged nobody.
      return (
        <span>
          Also failing: <Link to={`/checks/${e.check_id}`}>{checkName(e.check_id)}</Link>
        </span>
      );
    case 'affected':
      // An entity that depends on this one went down inside it: it joined instead of opening its own.
      return (
        <span>
          {e.text.charAt(0).toUpperCase() + e.text.slice(1)}
          {e.own_incident_id ? (
            <>
              {' '}
              (<Link to={`/incidents/${e.own_incident_id}`}>its incident</Link>)
            </>
          ) : null}
        </span>
      );
    case 'note':
      return (
        <span className="incident-note">
          <span>Note by {who(e.by)}:</span>{' '}
          <q>
            {e.text.split('\n').map((line, i, all) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines of one note, in order
              <span key={i}>
                {line}
                {i < all.length - 1 ? <br /> : null}
              </span>
            ))}
          </q>
        </span>
      );
    case 'page':
      // One page of an escalation policy's climb: who (or which channel), by what, at which step.
      return (
        <span>
          Paged {e.user_id ? who(e.user_id) : 'a channel'}
          {e.contact_kind ? ` by ${e.contact_kind}` : ''} (step {e.step + 1}
          {e.round > 0 ? `, repeat ${e.round}` : ''}): {e.outcome}
          {e.error ? ` (${e.error})` : ''}
        </span>
      );
    case 'resolution':
      return <strong>Resolved: {e.reason}</strong>;
  }
}
