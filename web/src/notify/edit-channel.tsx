import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { CheckboxField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { DestinationFields, destinationValues, setSecrets, useDestination } from './channel-fields';
import { channelForm } from './channel-forms/registry';
import { channelsChanged } from './queries';
import { TemplateFields, useTemplate } from './template-fields';
import type { TenantChannel } from './tenant-channels';

/**
 * Edits a shared channel (PUT /v1/notify/channels/{id}). The API takes a new name alone, or a new
 * channel_type with its WHOLE config, secrets given again: a secret or token is never read back
 * (it reads ********), so the form never sends what it read. Its secret fields (the type's form:
 * ./channel-forms) start empty and, left empty, keep the stored secrets: the config is then sent
 * only when the destination itself changed. Changing a signed channel's URL needs each stored
 * secret again (or, for an optional one, "remove"), since the API would otherwise store the new
 * config without it.
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
  const t = useTemplate(channel.template);
  const takesTemplate = channelForm(d.type).templates !== false;
  const [name, setName] = useState(channel.name);
  const [dropped, setDropped] = useState<ReadonlySet<string>>(new Set());
  const [secretErrors, setSecretErrors] = useState<Record<string, string>>({});
  // The stored secrets matter only while the type stays (a new type takes a new config whole).
  const kept = d.type === channel.channel_type ? setSecrets(channel) : [];
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
  const errs: Record<string, string | undefined> = { ...fieldErrors(save.error), ...secretErrors };
  const submit = () => {
    setSecretErrors({});
    const dropping = kept.filter((f) => dropped.has(f.key));
    const given = d.givenSecrets();
    const newDestination = d.changed() || given.length > 0 || dropping.length > 0;
    // A stored secret cannot be kept under a new config: the API replaces the config whole.
    const missing = newDestination ? kept.filter((f) => !given.includes(f.key) && !dropped.has(f.key)) : [];
    if (missing.length > 0) {
      const word = (label: string) => label.charAt(0).toLowerCase() + label.slice(1);
      setSecretErrors(
        Object.fromEntries(
          missing.map((f) => [
            `config.${f.key}`,
            `Give the ${word(f.label)} again to change the destination (it is never read back)${f.required ? '.' : ', or remove it.'}`,
          ]),
        ),
      );
      return;
    }
    const config = d.config();
    for (const f of dropping) delete config[f.key];
    // The template: a new one, null to remove it (also when the new type takes none), else kept.
    const template = takesTemplate ? t.value() : null;
    const templateChanged = takesTemplate ? t.changed() : channel.template !== undefined;
    save.mutate({
      name: name.trim(),
      ...(newDestination ? { channel_type: d.type, config } : {}),
      ...(templateChanged ? { template } : {}),
    });
  };
  return (
    <FormShell
      ref={form}
      title={`Edit ${channel.name}`}
      onSubmit={submit}
      send={save}
      submitLabel={`Save ${channel.name}`}
      failed="The channel was not saved."
      after={takesTemplate ? <TemplateFields t={t} channelType={d.type} errs={errs} /> : null}
      buttons={
        <button type="button" onClick={() => onDone(undefined)}>
          Cancel
        </button>
      }
    >
      <TextField label="Name" value={name} onChange={setName} required error={errs.name} />
      <DestinationFields d={d} errs={errs} keptSecrets={kept.map((f) => f.key)} />
      {kept
        .filter((f) => !f.required)
        .map((f) => (
          <CheckboxField
            key={f.key}
            label={`Remove the ${f.label.charAt(0).toLowerCase()}${f.label.slice(1)}`}
            checked={dropped.has(f.key)}
            onChange={(on) =>
              setDropped((current) => {
                const next = new Set(current);
                if (on) next.add(f.key);
                else next.delete(f.key);
                return next;
              })
            }
          />
        ))}
    </FormShell>
  );
}
