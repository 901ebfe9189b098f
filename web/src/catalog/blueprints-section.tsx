import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { Empty, Notice } from '../ui/feedback';
import { TextAreaField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Section } from '../ui/page';
import { useNameAndSlug } from '../ui/slug';
import { Table } from '../ui/table';
import { blueprintKeys } from './queries';

type Blueprint = Schemas['Blueprint'];

/** The link to a blueprint's page (its field editor). */
function blueprintPath(slug: string): string {
  return `/catalog/blueprints/${encodeURIComponent(slug)}`;
}

function NewBlueprintForm({ onCreated }: { onCreated: (bp: Blueprint) => void }) {
  const queryClient = useQueryClient();
  const { name, slug, setName, setSlug, reset } = useNameAndSlug();
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => must(api.POST('/v1/blueprints', { body: { slug, name, description } })),
    onSuccess: async (bp) => {
      reset();
      setDescription('');
      await queryClient.invalidateQueries({ queryKey: blueprintKeys.list() });
      onCreated(bp);
    },
  });
  const errors = fieldErrors(create.error);
  return (
    <FormShell
      title="New blueprint"
      send={create}
      submitLabel="Create blueprint"
      failed="The blueprint was not created."
    >
      <TextField label="Name" required value={name} onChange={setName} error={errors.name} />
      <TextField
        label="Slug"
        required
        value={slug}
        onChange={setSlug}
        error={errors.slug}
        hint="Its address, made from the name until you change it: lower-case letters, digits and hyphens."
      />
      <TextAreaField
        label="Description"
        rows={2}
        value={description}
        onChange={setDescription}
        error={errors.description}
      />
    </FormShell>
  );
}

/**
 * The blueprints: name (a link to the field editor), slug, field count and how many entities it
 * has (the counter the server keeps, no scan) as a link to them; a create form for writers.
 */
export function BlueprintsSection({ blueprints }: { blueprints: Blueprint[] }) {
  const { canWrite } = useSession();
  const [created, setCreated] = useState<Blueprint | undefined>();
  return (
    <Section title="Blueprints">
      {created ? (
        <Notice>
          Created {created.name}. <Link to={blueprintPath(created.slug)}>Add its fields</Link>.
        </Notice>
      ) : null}
      {blueprints.length === 0 ? (
        <Empty title="No blueprints yet.">
          {canWrite
            ? 'A blueprint is a kind of component (a service, a database…) with typed fields. Create one below.'
            : 'An administrator or member creates blueprints; this key can only read.'}
        </Empty>
      ) : (
        <Table
          label="Blueprints"
          rows={blueprints}
          rowKey={(b) => b.id}
          columns={[
            {
              header: 'Blueprint',
              cell: (b) => (
                <>
                  <Link to={blueprintPath(b.slug)}>{b.name}</Link>
                  {b.is_default ? <span className="badge"> default</span> : null}
                </>
              ),
            },
            { header: 'Slug', cell: (b) => <code>{b.slug}</code> },
            { header: 'Fields', cell: (b) => b.fields.length },
            {
              header: 'Entities',
              cell: (b) => (
                <Link
                  to={`/catalog?blueprint=${encodeURIComponent(b.slug)}`}
                  aria-label={`${b.entity_count} ${b.entity_count === 1 ? 'entity' : 'entities'} of ${b.name}`}
                >
                  {b.entity_count}
                </Link>
              ),
            },
            { header: 'Description', cell: (b) => b.description || <span className="muted">none</span> },
          ]}
        />
      )}
      {canWrite ? <NewBlueprintForm onCreated={setCreated} /> : null}
    </Section>
  );
}
