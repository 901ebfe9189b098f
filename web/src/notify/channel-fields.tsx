import { useState } from 'react';
import type { Schemas } from '../api/client';
import { SelectField, TextField } from '../ui/fields';
import type { ChannelField } from './channel-forms/form';
import { CHANNEL_FORMS, CHANNEL_TYPES, type ChannelType, channelForm } from './channel-forms/registry';

/**
 * A channel's destination as a form edits it: the type select and the fields its form declares
 * (./channel-forms/<type>.ts), shared by a check's "Add a channel" and the Channels page, so both
 * ask the same questions the same way. Secrets are write-only: never among the values read back.
 */

export type { ChannelType };

/** The values a list field holds, separated by commas, semicolons, spaces or new lines. */
function listOf(text: string): string[] {
  return text.split(/[\s,;]+/).filter((value) => value !== '');
}

/** A destination as the fields hold it, by config key (secrets are never among them: never read back). */
export interface DestinationValues {
  type: ChannelType;
  values: Record<string, string>;
}

const isSecret = (field: ChannelField) => field.kind === 'secret';

/** The fields' values of a stored channel, for an edit (URLs read ******** for read-only keys). */
export function destinationValues(channel: Schemas['NotificationChannel']): DestinationValues {
  const config = channel.config as Record<string, unknown>;
  const values: Record<string, string> = {};
  for (const field of channelForm(channel.channel_type).fields) {
    const value = config[field.key];
    if (isSecret(field) || value === undefined || value === null) continue;
    values[field.key] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return { type: channel.channel_type, values };
}

/** The secret fields of the channel that are set (write-only: the view shows ******** for each). */
export function setSecrets(channel: Schemas['NotificationChannel']): ChannelField[] {
  const config = channel.config as Record<string, unknown>;
  return channelForm(channel.channel_type).fields.filter((f) => isSecret(f) && Boolean(config[f.key]));
}

/** A field's value as the API takes it; undefined leaves the key out. */
function configValue(field: ChannelField, text: string): unknown {
  switch (field.kind) {
    case 'secret':
      return text === '' ? undefined : text;
    case 'list': {
      const list = listOf(text);
      return list.length > 0 || field.required ? list : undefined;
    }
    case 'number':
      return text.trim() === '' ? undefined : Number(text.trim());
    default:
      return text.trim() === '' && !field.required ? undefined : text.trim();
  }
}

/** A value as compared for "changed": lists by their items, the rest trimmed. */
function comparable(field: ChannelField, text: string | undefined): string {
  return field.kind === 'list' ? listOf(text ?? '').join() : (text ?? '').trim();
}

/** The fields' state (from `initial` for an edit), the config they make, and a reset after a save. */
export function useDestination(initial?: DestinationValues) {
  const [type, setType] = useState<ChannelType>(initial?.type ?? CHANNEL_TYPES[0]);
  // By config key, so a value carries over to a type that has the same field (a URL).
  const [values, setValues] = useState<Record<string, string>>(initial?.values ?? {});
  const form = channelForm(type);
  /** A field's text; a select shows its first option until one is chosen. */
  const value = (field: ChannelField): string => values[field.key] ?? field.options?.[0] ?? '';
  const setValue = (key: string, text: string) => setValues((current) => ({ ...current, [key]: text }));
  const config = (): Record<string, unknown> => {
    const made: Record<string, unknown> = {};
    for (const field of form.fields) {
      const v = configValue(field, value(field));
      if (v !== undefined) made[field.key] = v;
    }
    return made;
  };
  /** The type or a field other than a secret differs from `initial` (a new secret is not counted). */
  const changed = (): boolean =>
    !initial ||
    type !== initial.type ||
    form.fields.some(
      (f) =>
        !isSecret(f) && comparable(f, value(f)) !== comparable(f, initial.values[f.key] ?? f.options?.[0]),
    );
  /** Secrets given in the fields now (a new value for each). */
  const givenSecrets = (): string[] =>
    form.fields.filter((f) => isSecret(f) && value(f) !== '').map((f) => f.key);
  const reset = () => setValues({});
  return { type, setType, form, value, setValue, config, changed, givenSecrets, reset };
}
export type Destination = ReturnType<typeof useDestination>;

/** A field's error: at its key, at an item of it (`config.to.3`), or the config's own at the first field. */
function fieldError(errs: Record<string, string | undefined>, field: ChannelField, first: boolean) {
  const at = `config.${field.key}`;
  return (
    errs[at] ??
    Object.entries(errs).find(([k]) => k.startsWith(`${at}.`))?.[1] ??
    (first ? errs.config : undefined)
  );
}

/** The type select and the fields that type takes, with the API's errors at each. */
export function DestinationFields({
  d,
  errs,
  keptSecrets = [],
}: {
  d: Destination;
  errs: Record<string, string | undefined>;
  /** An edit's stored secrets that an empty field keeps (they show the edit's own hint). */
  keptSecrets?: readonly string[];
}) {
  return (
    <>
      <SelectField
        label="Channel type"
        value={d.type}
        onChange={(v) => d.setType(v as ChannelType)}
        options={CHANNEL_TYPES.map((type) => ({ value: type, label: CHANNEL_FORMS[type].label }))}
        error={errs.channel_type}
      />
      {d.form.fields.map((field, i) => {
        const common = {
          label: field.label,
          required: field.required,
          error: fieldError(errs, field, i === 0),
          hint:
            isSecret(field) && keptSecrets.includes(field.key)
              ? 'Set, never shown: leave it empty to keep it while the destination stays; a new destination needs it again.'
              : field.hint,
        };
        const value = d.value(field);
        const onChange = (text: string) => d.setValue(field.key, text);
        if (field.kind === 'select')
          return (
            <SelectField
              key={field.key}
              {...common}
              value={value}
              onChange={onChange}
              options={field.options ?? []}
            />
          );
        return (
          <TextField
            key={field.key}
            {...common}
            type={field.kind === 'secret' ? 'password' : field.kind === 'list' ? 'text' : field.kind}
            autoComplete={field.kind === 'secret' ? 'new-password' : undefined}
            value={value}
            onChange={onChange}
            placeholder={field.placeholder}
          />
        );
      })}
    </>
  );
}
