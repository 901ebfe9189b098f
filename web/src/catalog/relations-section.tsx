import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Section } from '../ui/page';
import { Table } from '../ui/table';
import { entityPath } from './entities-section';
import { entityLabel } from './entity-reads';
import { type ChosenEntity, EntitySearchField } from './entity-search-field';
import { relationKeys, relationQueries } from './queries';

type RelationType = Schemas['Relation']['relation_type'];
const RELATION_TYPES: RelationType[] = ['depends_on', 'part_of', 'connects_to', 'owned_by'];

function EntityRef({ end }: { end: Schemas['RelationEnd'] }) {
  return <Link to={entityPath(end)}>{entityLabel(end)}</Link>;
}

/**
 * Relations: those with an end in the blueprint shown (each end named as the answer carries it), a
 * create form with from/to entity search pickers and the type, delete that asks first.
 */
export function RelationsSection({ blueprint }: { blueprint: Schemas['Blueprint'] | undefined }) {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const relations = useQuery(relationQueries.ofBlueprint(blueprint?.slug ?? ''));
  const [from, setFrom] = useState<ChosenEntity | undefined>();
  const [to, setTo] = useState<ChosenEntity | undefined>();
  const [type, setType] = useState<RelationType>('depends_on');
  const [done, setDone] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: relationKeys.all });
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/relations', {
          body: { from_entity_id: from?.id ?? '', to_entity_id: to?.id ?? '', relation_type: type },
        }),
      ),
    onSuccess: async () => {
      setDone('Relation created.');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/v1/relations/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      setDone('Relation deleted.');
      await refresh();
    },
  });
  const errors = fieldErrors(create.error);
  return (
    <Section title="Relations">
      <p className="muted">
        {blueprint ? `Relations with an entity of ${blueprint.name}. ` : ''}A relation reads from left to
        right: “API depends_on Database”.
      </p>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNote error={relations.error} title="The relations could not be loaded." />
      <ErrorNote error={remove.error} title="The relation was not deleted." />
      {relations.isLoading ? <Loading what="relations" /> : null}
      {relations.data && relations.data.length === 0 ? (
        <Empty
          title={blueprint ? `No relations with an entity of ${blueprint.name} yet.` : 'No relations yet.'}
        >
          {canWrite
            ? 'Link two entities with the form below, e.g. a service that depends_on its database.'
            : null}
        </Empty>
      ) : null}
      {relations.data && relations.data.length > 0 ? (
        <Table
          label="Relations"
          rows={relations.data}
          rowKey={(r) => r.id}
          columns={[
            { header: 'From', cell: (r) => <EntityRef end={r.from_entity} /> },
            { header: 'Type', cell: (r) => <code>{r.relation_type}</code> },
            { header: 'To', cell: (r) => <EntityRef end={r.to_entity} /> },
            canWrite && {
              header: 'Change',
              cell: (r) => (
                <ConfirmButton
                  label="Delete relation"
                  question={`Delete the relation ${r.from_entity.name} ${r.relation_type} ${r.to_entity.name}?`}
                  confirmLabel="Delete"
                  onConfirm={() => remove.mutateAsync(r.id).catch(() => undefined)}
                />
              ),
            },
          ]}
        />
      ) : null}
      {canWrite ? (
        <FormShell
          title="New relation"
          send={create}
          submitLabel="Create relation"
          failed="The relation was not created."
        >
          <EntitySearchField
            label="From entity"
            value={from}
            onChange={setFrom}
            error={errors.from_entity_id}
          />
          <SelectField
            label="Relation type"
            required
            value={type}
            onChange={(v) => setType(v as RelationType)}
            options={RELATION_TYPES}
            error={errors.relation_type}
          />
          <EntitySearchField label="To entity" value={to} onChange={setTo} error={errors.to_entity_id} />
        </FormShell>
      ) : null}
    </Section>
  );
}
