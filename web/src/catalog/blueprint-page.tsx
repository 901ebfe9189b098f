import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Page, Section } from '../ui/page';
import { Table } from '../ui/table';
import type { FieldDef } from './entity-values';
import { blueprintKeys, blueprintQueries } from './queries';

type Blueprint = Schemas['Blueprint'];
const FIELD_TYPES: FieldDef['field_type'][] = ['string', 'number', 'boolean', 'url', 'array'];

/** Adds one field definition (POST /v1/blueprints/{slug}/fields); errors name the definition's keys. */
function AddFieldForm({ blueprint }: { blueprint: Blueprint }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState<FieldDef['field_type']>('string');
  const [required, setRequired] = useState(false);
  const [dflt, setDflt] = useState('');
  const [order, setOrder] = useState('');
  const [added, setAdded] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/blueprints/{slug}/fields', {
          params: { path: { slug: blueprint.slug } },
          body: {
            name,
            field_type: type,
            required,
            ...(dflt !== '' ? { default_value: dflt } : {}),
            // Sent as typed when it is not a whole number, so the API names sort_order.
            sort_order: order === '' ? (blueprint.fields.length + 1) * 10 : Number(order),
          },
        }),
      ),
    onSuccess: async (bp) => {
      setAdded(`Added ${name}.`);
      setName('');
      setRequired(false);
      setDflt('');
      setOrder('');
      queryClient.setQueryData(blueprintKeys.detail(bp.slug), bp);
      await queryClient.invalidateQueries({ queryKey: blueprintKeys.list() });
    },
  });
  const errors = fieldErrors(add.error);
  const submit = () => {
    setAdded(undefined);
    add.mutate();
  };
  return (
    <FormShell
      title="Add a field"
      onSubmit={submit}
      send={add}
      submitLabel="Add field"
      failed="The field was not added."
      after={added ? <Notice>{added}</Notice> : null}
    >
      <TextField
        label="Field name"
        required
        value={name}
        onChange={setName}
        error={errors.name}
        hint="a letter or _, then letters, digits, _ and -"
      />
      <SelectField
        label="Field type"
        required
        value={type}
        onChange={(v) => setType(v as FieldDef['field_type'])}
        options={FIELD_TYPES}
        error={errors.field_type}
      />
      <TextField
        label="Default value"
        value={dflt}
        onChange={setDflt}
        error={errors.default_value}
        hint='as text: "42", "true", a URL, or a JSON array such as ["a","b"]'
      />
      <TextField
        label="Sort order"
        type="number"
        value={order}
        onChange={setOrder}
        error={errors.sort_order}
        hint="smaller first; empty puts it last"
      />
      <CheckboxField
        label="Required"
        checked={required}
        onChange={setRequired}
        error={errors.required}
        hint="a blueprint that has entities needs a default value for a new required field"
      />
    </FormShell>
  );
}

/** Name, description and the default flag (PUT /v1/blueprints/{slug}). */
function DetailsForm({
  blueprint,
  saved,
  onSaved,
}: {
  blueprint: Blueprint;
  /** This blueprint is the one this form just saved. */
  saved: boolean;
  /** The saved blueprint's updated_at; undefined when a new save starts. */
  onSaved: (updatedAt: string | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(blueprint.name);
  const [description, setDescription] = useState(blueprint.description);
  const [isDefault, setIsDefault] = useState(blueprint.is_default);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/v1/blueprints/{slug}', {
          params: { path: { slug: blueprint.slug } },
          body: { name, description, is_default: isDefault },
        }),
      ),
    onSuccess: async (bp) => {
      onSaved(bp.updated_at);
      queryClient.setQueryData(blueprintKeys.detail(bp.slug), bp);
      await queryClient.invalidateQueries({ queryKey: blueprintKeys.list() });
    },
  });
  const errors = fieldErrors(save.error);
  const submit = () => {
    onSaved(undefined);
    save.mutate();
  };
  return (
    <FormShell
      title="Blueprint details"
      heading={false}
      onSubmit={submit}
      send={save}
      submitLabel="Save details"
      failed="The blueprint was not saved."
      after={saved ? <Notice>Saved.</Notice> : null}
    >
      <TextField label="Name" required value={name} onChange={setName} error={errors.name} />
      <TextAreaField
        label="Description"
        rows={2}
        value={description}
        onChange={setDescription}
        error={errors.description}
      />
      <CheckboxField
        label="Default blueprint of the team"
        checked={isDefault}
        onChange={setIsDefault}
        error={errors.is_default}
      />
    </FormShell>
  );
}

/** One blueprint: its details, its typed fields (the field editor) and deleting it. */
export function BlueprintPage() {
  const { slug = '' } = useParams();
  const { canWrite } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Kept here, not in the form: a save changes updated_at, which remounts the form (its key).
  const [savedAt, setSavedAt] = useState<string>();
  const blueprint = useQuery({
    ...blueprintQueries.detail(slug),
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/v1/blueprints/{slug}', { params: { path: { slug } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: blueprintKeys.detail(slug) });
      await queryClient.invalidateQueries({ queryKey: blueprintKeys.list() });
      navigate('/catalog');
    },
  });
  const bp = blueprint.data;
  return (
    <Page
      title={bp ? `Blueprint: ${bp.name}` : 'Blueprint'}
      actions={<Link to="/catalog">All blueprints</Link>}
    >
      {blueprint.isLoading ? <Loading what="the blueprint" /> : null}
      <ErrorNote error={blueprint.error} title="The blueprint could not be loaded." />
      {bp ? (
        <>
          <Section title="Details">
            <p>
              Slug <code>{bp.slug}</code>
              {bp.is_default ? <span className="badge">default</span> : null}
            </p>
            {canWrite ? (
              <DetailsForm
                key={bp.updated_at}
                blueprint={bp}
                saved={savedAt === bp.updated_at}
                onSaved={setSavedAt}
              />
            ) : (
              <p>{bp.description || <span className="muted">No description.</span>}</p>
            )}
          </Section>
          <Section title="Fields">
            <p className="muted">
              Every entity of this blueprint can hold these fields. A field can be added at any time; once
              added, it stays as it is: it cannot be renamed, retyped or removed.
            </p>
            {bp.fields.length === 0 ? (
              <Empty title="No fields yet.">{canWrite ? 'Add the first one below.' : null}</Empty>
            ) : (
              <Table
                label="Fields"
                rows={bp.fields}
                rowKey={(f) => f.name}
                columns={[
                  { header: 'Field', cell: (f) => <code>{f.name}</code> },
                  { header: 'Type', cell: (f) => f.field_type },
                  { header: 'Required', cell: (f) => (f.required ? 'required' : 'optional') },
                  { header: 'Default', cell: (f) => f.default_value ?? <span className="muted">none</span> },
                  { header: 'Sort order', cell: (f) => f.sort_order },
                ]}
              />
            )}
            {canWrite ? <AddFieldForm blueprint={bp} /> : null}
          </Section>
          <Section title="Entities">
            <p>
              <Link to={`/catalog?blueprint=${encodeURIComponent(bp.slug)}`}>Entities of {bp.name}</Link>
            </p>
          </Section>
          {canWrite ? (
            <Section title="Delete">
              <p>A blueprint can be deleted only while it holds no entities.</p>
              <ErrorNote error={remove.error} title="The blueprint was not deleted." />
              <div className="row">
                <ConfirmButton
                  label="Delete blueprint"
                  question={`Delete the blueprint ${bp.name}? This cannot be undone.`}
                  confirmLabel="Delete"
                  onConfirm={() => remove.mutateAsync().catch(() => undefined)}
                />
              </div>
            </Section>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}
