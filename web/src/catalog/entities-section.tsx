import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { StateBadge } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { Section } from '../ui/page';
import { scrollRegion } from '../ui/scroll-region';
import { EntityForm } from './entity-form';
import { toText } from './entity-values';
import { entitiesChanged, entityQueries } from './queries';

type Blueprint = Schemas['Blueprint'];
type Entity = Schemas['Entity'];

/** Entities shown per page of the table (the API returns a blueprint's entities in one list). */
export const ENTITY_PAGE = 25;

/** The link to an entity's page. */
export function entityPath(e: { blueprint_slug: string; slug: string }): string {
  return `/entities/${encodeURIComponent(e.blueprint_slug)}/${encodeURIComponent(e.slug)}`;
}

function fieldSummary(bp: Blueprint, e: Entity): string {
  return bp.fields
    .filter((f) => e.fields[f.name] !== undefined)
    .map((f) => `${f.name}: ${toText(e.fields[f.name]).replace(/\n/g, ', ')}`)
    .join(' · ');
}

/**
 * The entities of one blueprint: a blueprint picker, a search over name and slug (in the page: the
 * API lists a blueprint's entities whole, by slug), pages of ENTITY_PAGE, and the generated
 * create/edit form and delete for writers.
 */
export function EntitiesSection({
  blueprints,
  selected,
  onSelect,
}: {
  blueprints: Blueprint[];
  selected: string;
  onSelect: (slug: string) => void;
}) {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Entity | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const blueprint = blueprints.find((b) => b.slug === selected);
  const entities = useQuery(entityQueries.list(selected));
  const remove = useMutation({
    mutationFn: (e: Entity) =>
      must(
        api.DELETE('/v1/blueprints/{blueprint_slug}/entities/{slug}', {
          params: { path: { blueprint_slug: e.blueprint_slug, slug: e.slug } },
        }),
      ),
    onSuccess: async (_, e) => {
      setDone(`Deleted ${e.name}.`);
      setEditing(undefined);
      await entitiesChanged(queryClient);
    },
  });

  const needle = search.trim().toLowerCase();
  const matching = (entities.data ?? []).filter(
    (e) => needle === '' || e.name.toLowerCase().includes(needle) || e.slug.includes(needle),
  );
  const pages = Math.max(1, Math.ceil(matching.length / ENTITY_PAGE));
  const current = Math.min(page, pages - 1);
  const shown = matching.slice(current * ENTITY_PAGE, (current + 1) * ENTITY_PAGE);

  return (
    <Section title="Entities">
      <div className="form-grid">
        <SelectField
          label="Blueprint"
          value={selected}
          onChange={(slug) => {
            onSelect(slug);
            setPage(0);
            setEditing(undefined);
          }}
          options={blueprints.map((b) => ({ value: b.slug, label: `${b.name} (${b.slug})` }))}
        />
        <TextField
          label="Search entities"
          type="search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(0);
          }}
          hint="by name or slug"
        />
      </div>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNote error={remove.error} title="The entity was not deleted." />
      <ErrorNote error={entities.error} title="The entities could not be loaded." />
      {entities.isLoading ? <Loading what="entities" /> : null}
      {entities.data && matching.length === 0 ? (
        <Empty
          title={
            needle ? 'No entity matches the search.' : `${blueprint?.name ?? selected} has no entities yet.`
          }
        >
          {needle ? 'Try another name or slug.' : canWrite ? 'Create one with the form below.' : null}
        </Empty>
      ) : null}
      {shown.length > 0 && blueprint ? (
        <div className="table-wrap" {...scrollRegion('Entities')}>
          <table>
            <caption className="muted">
              {matching.length} {matching.length === 1 ? 'entity' : 'entities'}
              {pages > 1 ? `, page ${current + 1} of ${pages}` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">State</th>
                <th scope="col">Fields</th>
                {canWrite ? <th scope="col">Change</th> : null}
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link to={entityPath(e)}>{e.name}</Link>
                  </td>
                  <td>
                    <code>{e.slug}</code>
                  </td>
                  <td>
                    <StateBadge state={e.state} />
                  </td>
                  <td className="catalog-fields">{fieldSummary(blueprint, e)}</td>
                  {canWrite ? (
                    <td>
                      <div className="row">
                        <button type="button" onClick={() => setEditing(e)} aria-label={`Edit ${e.name}`}>
                          Edit
                        </button>
                        <ConfirmButton
                          label={`Delete ${e.name}`}
                          question={`Delete ${e.name}? Its checks, their results and its relations go with it.`}
                          confirmLabel="Delete"
                          onConfirm={() => remove.mutateAsync(e).catch(() => undefined)}
                        />
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pages > 1 ? (
        <nav className="row" aria-label="Entity pages">
          <button type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous page
          </button>
          <button type="button" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next page
          </button>
        </nav>
      ) : null}
      {canWrite && blueprint ? (
        <EntityForm
          key={editing ? `edit-${editing.id}` : `new-${blueprint.slug}`}
          blueprint={blueprint}
          {...(editing ? { entity: editing } : {})}
          onDone={(saved) => {
            setDone(saved ? `${editing ? 'Saved' : 'Created'} ${saved.name}.` : undefined);
            setEditing(undefined);
          }}
        />
      ) : null}
    </Section>
  );
}
