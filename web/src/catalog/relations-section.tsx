import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Section } from '../ui/page';
import { scrollRegion } from '../ui/scroll-region';
import { DIRECTORY_LIMIT, type DirectoryEntity, entityLabel, useEntityDirectory } from './directory';
import { entityPath } from './entities-section';
import { relationKeys, relationQueries } from './queries';

type RelationType = Schemas['Relation']['relation_type'];
const RELATION_TYPES: RelationType[] = ['depends_on', 'part_of', 'connects_to', 'owned_by'];

function EntityRef({ id, byId }: { id: string; byId: Map<string, DirectoryEntity> }) {
  const e = byId.get(id);
  return e ? <Link to={entityPath(e)}>{entityLabel(e)}</Link> : <code>{id}</code>;
}

/** Relations: the list, a create form with from/to entity pickers and the type, delete that asks first. */
export function RelationsSection() {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const relations = useQuery(relationQueries.list());
  const directory = useEntityDirectory();
  const entities = [...(directory.data?.entities ?? [])].sort((a, b) =>
    entityLabel(a).localeCompare(entityLabel(b)),
  );
  const byId = new Map(entities.map((e) => [e.id, e]));
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [type, setType] = useState<RelationType>('depends_on');
  const [done, setDone] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: relationKeys.all });
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/relations', {
          body: { from_entity_id: from, to_entity_id: to, relation_type: type },
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const options = [
    { value: '', label: 'Choose an entity' },
    ...entities.map((e) => ({ value: e.id, label: entityLabel(e) })),
  ];
  return (
    <Section title="Relations">
      <p className="muted">A relation reads from left to right: “API depends_on Database”.</p>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNote error={relations.error} title="The relations could not be loaded." />
      <ErrorNote error={remove.error} title="The relation was not deleted." />
      {relations.isLoading ? <Loading what="relations" /> : null}
      {relations.data && relations.data.length === 0 ? (
        <Empty title="No relations yet.">
          {canWrite
            ? 'Link two entities with the form below, e.g. a service that depends_on its database.'
            : null}
        </Empty>
      ) : null}
      {relations.data && relations.data.length > 0 ? (
        <div className="table-wrap" {...scrollRegion('Relations')}>
          <table>
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">Type</th>
                <th scope="col">To</th>
                {canWrite ? <th scope="col">Change</th> : null}
              </tr>
            </thead>
            <tbody>
              {relations.data.map((r) => (
                <tr key={r.id}>
                  <td>
                    <EntityRef id={r.from_entity_id} byId={byId} />
                  </td>
                  <td>
                    <code>{r.relation_type}</code>
                  </td>
                  <td>
                    <EntityRef id={r.to_entity_id} byId={byId} />
                  </td>
                  {canWrite ? (
                    <td>
                      <ConfirmButton
                        label="Delete relation"
                        question={`Delete the relation ${byId.get(r.from_entity_id)?.name ?? r.from_entity_id} ${r.relation_type} ${byId.get(r.to_entity_id)?.name ?? r.to_entity_id}?`}
                        confirmLabel="Delete"
                        onConfirm={() => remove.mutateAsync(r.id).catch(() => undefined)}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {directory.data?.next_cursor ? (
        <p className="muted">
          The pickers offer the first {DIRECTORY_LIMIT} of {directory.data.total} entities; others show by id.
        </p>
      ) : null}
      {canWrite ? (
        <form aria-label="New relation" onSubmit={submit} noValidate>
          <h3>New relation</h3>
          <div className="form-grid">
            <SelectField
              label="From entity"
              required
              value={from}
              onChange={setFrom}
              options={options}
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
            <SelectField
              label="To entity"
              required
              value={to}
              onChange={setTo}
              options={options}
              error={errors.to_entity_id}
            />
          </div>
          <ErrorNote error={create.error} title="The relation was not created." />
          <div className="row">
            <button type="submit" className="primary" disabled={create.isPending}>
              Create relation
            </button>
          </div>
        </form>
      ) : null}
    </Section>
  );
}
