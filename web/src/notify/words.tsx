import type { Schemas } from '../api/client';

type Delivery = Schemas['Delivery'];

/** Where a channel sends, as the API shows it (URLs read ******** for read-only keys). */
export function ChannelTarget({ channel }: { channel: Schemas['NotificationChannel'] }) {
  const c = channel;
  // The subject a consumer subscribes to (tenant-prefixed); null for a refused legacy subject.
  if (c.channel_type === 'nats') return <code>{c.config.published_subject ?? c.config.subject}</code>;
  if (c.channel_type === 'email') {
    // Only confirmed addresses get email: the others are waiting for the link emailed to them.
    const pending = c.recipients.filter((r) => r.state === 'pending').map((r) => r.address);
    return (
      <span className="channel-target">
        {c.config.to.join(', ')}
        {pending.length > 0 ? (
          <span className="muted"> (awaiting confirmation: {pending.join(', ')})</span>
        ) : null}
      </span>
    );
  }
  const extra =
    c.channel_type === 'webhook' && c.config.secret
      ? ' (signed)'
      : c.channel_type === 'ntfy' && c.config.token
        ? ' (with token)'
        : '';
  return (
    <span className="channel-target">
      <code>{c.config.url}</code>
      {extra ? <span className="muted">{extra}</span> : null}
    </span>
  );
}

/** What a delivery told its channel, in words (the record's `event`). */
export const EVENT_WORDS: Record<Delivery['event'], string> = {
  down: 'Down',
  degraded: 'Degraded',
  recovery: 'Recovery',
  up: 'First result (up)',
  unknown: 'Now unknown',
  repeat: 'Reminder: still down',
  test: 'Test',
  escalation: 'Escalation: unacknowledged',
  flapping: 'Flapping: alerts held until stable',
  digest: 'Digest',
  acknowledge: 'Acknowledged in Vigil',
};

/** The last attempt's answer in words: "HTTP 500", or the error. */
function lastAttempt(d: Delivery): string {
  const last = d.attempt_log.at(-1);
  if (!last) return '';
  if (last.error) return last.error;
  return last.status_code ? `HTTP ${last.status_code}` : '';
}

/** One delivery in a sentence: "Down, webhook: sent (HTTP 204) after 1 attempt." */
export function deliveryInWords(d: Delivery): string {
  const who = `${EVENT_WORDS[d.event]}, ${d.channel_type ?? 'no channel'}`;
  const tries = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  switch (d.status) {
    case 'sent':
      return `${who}: sent${lastAttempt(d) ? ` (${lastAttempt(d)})` : ''} after ${tries}.`;
    case 'failed':
      return `${who}: failed after ${tries}: ${d.error ?? lastAttempt(d) ?? 'no answer'}.`;
    case 'skipped':
      return `${who}: skipped (${d.reason ?? 'no reason given'}).`;
    case 'retrying':
      return `${who}: retrying after ${tries}${lastAttempt(d) ? ` (${lastAttempt(d)})` : ''}.`;
    case 'pending':
      return `${who}: pending.`;
    case 'deferred':
      return `${who}: ${d.reason ?? 'deferred'}.`;
    case 'folded':
      return `${who}: folded into a digest (${d.reason ?? 'digest'}).`;
  }
}
