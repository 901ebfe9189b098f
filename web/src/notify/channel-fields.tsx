import { useState } from 'react';
import type { Schemas } from '../api/client';
import { SelectField, TextField } from '../ui/fields';

/**
 * A channel's destination as a form edits it (type, URL or subject, secret or token): shared by a
 * check's "Add a channel" and the Channels page, so both ask the same questions the same way.
 */

export type ChannelType = Schemas['NotificationChannel']['channel_type'];
export const CHANNEL_TYPES: readonly ChannelType[] = ['webhook', 'slack', 'discord', 'ntfy', 'nats', 'email'];

const URL_HINT: Record<ChannelType, string> = {
  webhook:
    'Any HTTPS endpoint of yours; http:// only for a receiver on your own machine or LAN that VIGIL_EGRESS_ALLOW allows',
  slack: 'The incoming webhook URL (https://hooks.slack.com/…)',
  discord: 'Channel settings → Integrations → Webhooks → copy the URL',
  ntfy: 'The full topic URL, e.g. https://ntfy.sh/my-topic',
  nats: '',
  email: '',
};

/** The recipients a field lists, separated by commas, semicolons, spaces or new lines. */
function recipients(text: string): string[] {
  return text.split(/[\s,;]+/).filter((address) => address !== '');
}

/** A destination as the fields hold it (the secret is never among them: it is never read back). */
export interface DestinationValues {
  type: ChannelType;
  url: string;
  subject: string;
  to: string;
}

/** The fields' values of a stored channel, for an edit (URLs read ******** for read-only keys). */
export function destinationValues(channel: Schemas['NotificationChannel']): DestinationValues {
  const c = channel;
  const none = { url: '', subject: '', to: '' };
  if (c.channel_type === 'email') return { ...none, type: c.channel_type, to: c.config.to.join(', ') };
  if (c.channel_type === 'nats') return { ...none, type: c.channel_type, subject: c.config.subject };
  return { ...none, type: c.channel_type, url: c.config.url };
}

/** Whether the channel has a secret (webhook) or token (ntfy): write-only, shown as ********. */
export function hasSecret(channel: Schemas['NotificationChannel']): boolean {
  const c = channel;
  if (c.channel_type === 'webhook') return Boolean(c.config.secret);
  if (c.channel_type === 'ntfy') return Boolean(c.config.token);
  return false;
}

/** The fields' state (from `initial` for an edit), the config they make, and a reset after a save. */
export function useDestination(initial?: DestinationValues) {
  const [type, setType] = useState<ChannelType>(initial?.type ?? 'webhook');
  const [url, setUrl] = useState(initial?.url ?? '');
  const [secret, setSecret] = useState('');
  const [subject, setSubject] = useState(initial?.subject ?? '');
  const [to, setTo] = useState(initial?.to ?? '');
  const config = (): Record<string, string | string[]> =>
    type === 'email'
      ? { to: recipients(to) }
      : type === 'nats'
        ? { subject: subject.trim() }
        : type === 'webhook'
          ? { url: url.trim(), ...(secret ? { secret } : {}) }
          : type === 'ntfy'
            ? { url: url.trim(), ...(secret ? { token: secret } : {}) }
            : { url: url.trim() };
  /** Type, URL, subject or recipients differ from `initial` (a new secret is not counted). */
  const changed = (): boolean => {
    if (!initial || type !== initial.type) return true;
    if (type === 'email') return recipients(to).join() !== recipients(initial.to).join();
    if (type === 'nats') return subject.trim() !== initial.subject.trim();
    return url.trim() !== initial.url.trim();
  };
  const reset = () => {
    setUrl('');
    setSecret('');
    setSubject('');
    setTo('');
  };
  return {
    type,
    setType,
    url,
    setUrl,
    secret,
    setSecret,
    subject,
    setSubject,
    to,
    setTo,
    config,
    changed,
    reset,
  };
}
export type Destination = ReturnType<typeof useDestination>;

/** The type select and the fields that type takes, with the API's errors at each. */
export function DestinationFields({
  d,
  errs,
  secretHint,
}: {
  d: Destination;
  errs: Record<string, string | undefined>;
  /** An edit's own hint for the secret or token field (the stored one is kept when left empty). */
  secretHint?: string | undefined;
}) {
  return (
    <>
      <SelectField
        label="Channel type"
        value={d.type}
        onChange={(v) => d.setType(v as ChannelType)}
        options={CHANNEL_TYPES}
        error={errs.channel_type}
      />
      {d.type === 'email' ? (
        <TextField
          label="Recipients"
          value={d.to}
          onChange={d.setTo}
          required
          placeholder="oncall@example.com, ops@example.com"
          hint="1 to 10 addresses, separated by commas; each new address gets a confirmation link and receives alerts once confirmed (a team member’s address needs none)"
          error={
            errs['config.to'] ??
            Object.entries(errs).find(([k]) => k.startsWith('config.to.'))?.[1] ??
            errs.config
          }
        />
      ) : d.type === 'nats' ? (
        <TextField
          label="Subject"
          value={d.subject}
          onChange={d.setSubject}
          required
          placeholder="alerts.checkout"
          hint="Dot-separated tokens, no wildcards; the server is the deployment's VIGIL_NATS_URL"
          error={errs['config.subject'] ?? errs.config}
        />
      ) : (
        <TextField
          label="URL"
          type="url"
          value={d.url}
          onChange={d.setUrl}
          required
          placeholder="https://"
          hint={URL_HINT[d.type]}
          error={errs['config.url'] ?? errs.config}
        />
      )}
      {d.type === 'webhook' || d.type === 'ntfy' ? (
        <TextField
          label={d.type === 'webhook' ? 'Signing secret' : 'Access token'}
          type="password"
          autoComplete="new-password"
          value={d.secret}
          onChange={d.setSecret}
          hint={
            secretHint ??
            (d.type === 'webhook'
              ? 'Optional: requests are signed (X-Service-Signature); shown as ******** afterwards'
              : 'Optional, for a protected topic; shown as ******** afterwards')
          }
          error={errs[d.type === 'webhook' ? 'config.secret' : 'config.token']}
        />
      ) : null}
    </>
  );
}
