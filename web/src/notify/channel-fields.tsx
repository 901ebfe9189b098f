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

/** The fields' state, the config they make, and a reset after a save. */
export function useDestination() {
  const [type, setType] = useState<ChannelType>('webhook');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [subject, setSubject] = useState('');
  const [to, setTo] = useState('');
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
  const reset = () => {
    setUrl('');
    setSecret('');
    setSubject('');
    setTo('');
  };
  return { type, setType, url, setUrl, secret, setSecret, subject, setSubject, to, setTo, config, reset };
}
export type Destination = ReturnType<typeof useDestination>;

/** The type select and the fields that type takes, with the API's errors at each. */
export function DestinationFields({ d, errs }: { d: Destination; errs: Record<string, string | undefined> }) {
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
          hint="1 to 10 addresses, separated by commas; the deployment sends from VIGIL_EMAIL_FROM"
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
            d.type === 'webhook'
              ? 'Optional: requests are signed (X-Service-Signature); shown as ******** afterwards'
              : 'Optional, for a protected topic; shown as ******** afterwards'
          }
          error={errs[d.type === 'webhook' ? 'config.secret' : 'config.token']}
        />
      ) : null}
    </>
  );
}
