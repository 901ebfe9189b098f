import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { CheckboxField, TextField } from '../ui/fields';
import { DestinationFields, destinationValues, hasSecret, useDestination } from './channel-fields';
import { channelsChanged } from './queries';
import type { TenantChannel } from './tenant-channels';

/**
 * Edits a shared channel (PUT /v1/notify/channels/{id}). The API takes a new name alone, or a new
 * channel_type with its WHOLE config, secrets given again: a secret or token is never read back
 * (it reads ********), so the form never sends what it read. Its secret field starts empty and,
 * left empty, keeps the stored secret: the config is then sent only when the destination itself
 * changed. Changing a signed channel's URL needs the secret again (or "remove"), since the API
 * would otherwise store the new config without it.
 */
export function EditSharedChannel({
  channel,
  onDone,
}: {
  channel: TenantChannel;
  onDone: (saved: TenantChannel | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  // The form opens below the table: focus moves to it, so a keyboard or screen reader user is there.
  useEffect(() => {
    form.current?.querySelector('input')?.focus();
  }, []);
  const d = useDestination(destinationValues(channel));
  const [name, setName] = useState(channel.name);
  const [dropSecret, setDropSecret] = useState(false);
  const [secretError, setSecretError] = useState<string>();
  const signed = hasSecret(channel);
  const secretKey = channel.channel_type === 'ntfy' ? 'token' : 'secret';
  const secretWord = channel.channel_type === 'ntfy' ? 'access token' : 'signing secret';
  // The stored secret matters only while the type stays (a new type takes a new config whole).
  const keepsSecret = signed && d.type === channel.channel_type;
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      must(
        api.PUT('/v1/notify/channels/{id}', { params: { path: { id: channel.id } }, body: body as never }),
      ),
    onSuccess: async (saved) => {
      await channelsChanged(queryClient);
      onDone(saved as TenantChannel);
    },
  });
  const errs: Record<string, string | undefined> = fieldErrors(save.error);
  if (secretError) errs[`config.${secretKey}`] = secretError;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSecretError(undefined);
    const dropping = keepsSecret && dropSecret;
    const newDestination = d.changed() || d.secret !== '' || dropping;
    // The stored secret cannot be kept under a new config: the API replaces the config whole.
    if (newDestination && keepsSecret && d.secret === '' && !dropping) {
      setSecretError(
        `Give the ${secretWord} again to change the destination (it is never read back), or remove it.`,
      );
      return;
    }
    const config = d.config();
    if (dropping) delete config[secretKey];
    save.mutate({
      name: name.trim(),
      ...(newDestination ? { channel_type: d.type, config } : {}),
    });
  };
  return (
    <form ref={form} onSubmit={submit} aria-label={`Edit ${channel.name}`} noValidate>
      <h3>Edit {channel.name}</h3>
      <div className="form-grid">
        <TextField label="Name" value={name} onChange={setName} required error={errs.name} />
        <DestinationFields
          d={d}
          errs={errs}
          secretHint={
            keepsSecret
              ? 'Set, never shown: leave empty to keep it while the destination stays; a new one needs it again'
              : undefined
          }
        />
        {keepsSecret ? (
          <CheckboxField label={`Remove the ${secretWord}`} checked={dropSecret} onChange={setDropSecret} />
        ) : null}
      </div>
      <ErrorNote error={save.error} title="The channel was not saved." />
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save {channel.name}
        </button>
        <button type="button" onClick={() => onDone(undefined)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
