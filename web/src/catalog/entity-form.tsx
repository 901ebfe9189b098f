import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { useNameAndSlug } from '../ui/slug';
import { createFields, type Draft, draftOf, type FieldDef, patchFields } from './entity-values';
import { entitiesChanged } from './queries';

type Blueprint = Schemas['Blueprint'];
type Entity = Schemas['Entity'];

const TYPE_HINT: Record<FieldDef['field_type'], string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  url: 'a full web address, such as https://example.com',
  array: 'a list: one item per line',
};

/** One input for one blueprint field, the control chosen by its type. */
function FieldInput({
  def,
  value,
  onChange,
  error,
}: {
  def: FieldDef;
  value: string;
  onChange: (v: string) => void;
  error: string | undefined;
}) {
  const dflt = def.default_value !== undefined ? ` Default: ${def.default_value}.` : '';
  const hint = `${TYPE_HINT[def.field_type]}.${dflt}`;
  const common = { label: def.name, error, hint, required: def.required, name: `field-${def.name}` };
  switch (def.field_type) {
    case 'boolean':
      return def.required ? (
        <CheckboxField {...common} checked={value === 'true'} onChange={(c) => onChange(String(c))} />
      ) : (
        <SelectField
          {...common}
          value={value}
          onChange={onChange}
          options={[
            { value: '', label: 'not set' },
            { value: 'true', label: 'true' },
            { value: 'false', label: 'false' },
          ]}
        />
      );
    case 'array':
      return <TextAreaField {...common} rows={3} value={value} onChange={onChange} />;
    case 'number':
      return <TextField {...common} type="number" value={value} onChange={onChange} />;
    case 'url':
      return <TextField {...common} type="url" value={value} onChange={onChange} />;
    default:
      return <TextField {...common} value={value} onChange={onChange} />;
  }
}

/**
 * The entity form generated from the blueprint's typed fields: creates an entity, or (given
 * `entity`) sends a merge patch of its name and fields. The API's VALIDATION_ERROR details name
 * `slug`, `name` or `fields.<field>`; each is shown at its input. The browser's own validation is
 * off (noValidate) so the API's words are the ones shown.
 */
export function EntityForm({
  blueprint,
  entity,
  onDone,
}: {
  blueprint: Blueprint;
  entity?: Entity;
  onDone: (saved: Entity | undefined) => void;
}) {
  const queryClient = useQueryClient();
  // A new entity's slug follows its name until the slug is edited; an entity's slug never changes.
  const { name, slug, setName, setSlug, reset } = useNameAndSlug(entity?.name ?? '');
  const [draft, setDraft] = useState<Draft>(() => draftOf(blueprint.fields, entity?.fields));
  const bp = blueprint.slug;
  const save = useMutation({
    mutationFn: () =>
      entity
        ? must(
            api.PUT('/v1/blueprints/{blueprint_slug}/entities/{slug}', {
              params: { path: { blueprint_slug: bp, slug: entity.slug } },
              body: { name, fields: patchFields(blueprint.fields, draft, entity.fields) },
            }),
          )
        : must(
            api.POST('/v1/blueprints/{blueprint_slug}/entities', {
              params: { path: { blueprint_slug: bp } },
              body: { slug, name, fields: createFields(blueprint.fields, draft) },
            }),
          ),
    onSuccess: async (saved) => {
      await entitiesChanged(queryClient, bp);
      if (!entity) {
        reset();
        setDraft(draftOf(blueprint.fields));
      }
      onDone(saved);
    },
  });
  const errors = fieldErrors(save.error);
  const title = entity ? `Edit ${entity.name}` : `New ${blueprint.name} entity`;
  return (
    <FormShell
      title={title}
      send={save}
      submitLabel={entity ? 'Save entity' : 'Create entity'}
      failed={entity ? 'The entity was not saved.' : 'The entity was not created.'}
      buttons={
        entity ? (
          <button type="button" onClick={() => onDone(undefined)}>
            Cancel
          </button>
        ) : null
      }
    >
      <TextField label="Name" required value={name} onChange={setName} error={errors.name} />
      {entity ? null : (
        <TextField
          label="Slug"
          required
          value={slug}
          onChange={setSlug}
          error={errors.slug}
          hint="Its address in the blueprint, made from the name until you change it: lower-case letters, digits and hyphens."
        />
      )}
      {blueprint.fields.map((def) => (
        <FieldInput
          key={def.name}
          def={def}
          value={draft[def.name] ?? ''}
          onChange={(v) => setDraft((d) => ({ ...d, [def.name]: v }))}
          error={errors[`fields.${def.name}`]}
        />
      ))}
    </FormShell>
  );
}
