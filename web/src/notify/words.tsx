import type { Schemas } from '../api/client';
import { channelForm } from './channel-forms/registry';

type Delivery = Schemas['Delivery'];

/** Where a channel sends, as the API shows it (URLs read ******** for read-only keys), by its type's form. */
export function ChannelTarget({ channel }: { channel: Schemas['NotificationChannel'] }) {
  const form = channelForm(channel.channel_type);
  const config = channel.config as Record<string, unknown>;
  const keys =
    form.target ??
    form.fields
      .filter((f) => f.kind !== 'secret')
      .map((f) => f.key)
      .slice(0, 1);
  const target = keys.map((key) => config[key]).find((value) => value !== undefined && value !== null);
  // Words for each secret that is set ("signed", "with token"); its value is never shown.
  const notes = form.fields.filter((f) => f.whileSet && config[f.key]).map((f) => f.whileSet);
  // Only confirmed recipients receive: the others are waiting for the link emailed to them.
  const recipients = 'recipients' in channel ? channel.recipients : [];
  const pending = recipients.filter((r) => r.state === 'pending').map((r) => r.address);
  const extra = [
    ...(notes.length > 0 ? [` (${notes.join(', ')})`] : []),
    ...(pending.length > 0 ? [` (awaiting confirmation: ${pending.join(', ')})`] : []),
  ].join('');
  return (
    <span className="channel-target">
      {Array.isArray(target) ? target.join(', ') : <code>{String(target ?? '')}</code>}
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
  also_failing: 'Also failing (entity already down)',
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
