import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { StateBadge } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { Section } from '../ui/page';
import { useQueryParams } from '../ui/query-params';
import { Table } from '../ui/table';
import { EntityForm } from './entity-form';
import { toText } from './entity-values';
import { entitiesChanged, entityQueries } from './queries';

type Blueprint = Schemas['Blueprint'];
type Entity = Schemas['Entity'];

/** Entities shown per page of the table (one page of GET /v1/entities). */
const ENTITY_PAGE = 25;

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
 * The entities of one blueprint: a blueprint picker, a search by the start of a name or slug (on
 * the server, GET /v1/entities?q=, kept in the URL as ?q= so a link shows the same list), pages of
 * ENTITY_PAGE read one at a time, and the generated create/edit form and delete for writers.
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
  const [params, changeParams] = useQueryParams();
  const search = params.get('q') ?? '';
  const setSearch = (q: string) => changeParams({ q });
  // The cursors of the pages before the one shown (the first page has none).
  const [cursors, setCursors] = useState<string[]>([]);
  const [editing, setEditing] = useState<Entity | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const blueprint = blueprints.find((b) => b.slug === selected);
  const needle = useDeferredValue(search.trim());
  const entities = useQuery({
    ...entityQueries.search({
      blueprint_slug: selected,
      q: needle,
      limit: ENTITY_PAGE,
      cursor: cursors.at(-1),
    }),
    enabled: selected !== '',
    placeholderData: keepPreviousData,
  });
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

  const shown = entities.data?.entities ?? [];
  const next = entities.data?.next_cursor ?? null;
  const current = cursors.length;

  return (
    <Section title="Entities">
      <div className="form-grid">
        <SelectField
          label="Blueprint"
          value={selected}
          onChange={(slug) => {
            onSelect(slug);
            setCursors([]);
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
            setCursors([]);
          }}
          hint="the start of a name or slug"
        />
      </div>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNote error={remove.error} title="The entity was not deleted." />
      <ErrorNote error={entities.error} title="The entities could not be loaded." />
      {entities.isLoading ? <Loading what="entities" /> : null}
      {entities.data && shown.length === 0 && current === 0 && !next ? (
        <Empty
          title={
            needle
              ? `No entity's name or slug starts with “${needle}”.`
              : `${blueprint?.name ?? selected} has no entities yet.`
          }
        >
          {needle ? 'Try another name or slug.' : canWrite ? 'Create one with the form below.' : null}
        </Empty>
      ) : null}
      {shown.length > 0 && blueprint ? (
        <Table
          label="Entities"
          showCaption
          caption={
            <>
              {needle ? `Entities whose name or slug starts with “${needle}”` : 'Entities by slug'}
              {current > 0 || next ? `, page ${current + 1}` : ''}
            </>
          }
          rows={shown}
          rowKey={(e) => e.id}
          columns={[
            { header: 'Name', cell: (e) => <Link to={entityPath(e)}>{e.name}</Link> },
            { header: 'Slug', cell: (e) => <code>{e.slug}</code> },
            { header: 'State', cell: (e) => <StateBadge state={e.state} /> },
            { header: 'Fields', className: 'catalog-fields', cell: (e) => fieldSummary(blueprint, e) },
            canWrite && {
              header: 'Change',
              cell: (e) => (
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
              ),
            },
          ]}
        />
      ) : null}
      {current > 0 || next ? (
        <nav className="row" aria-label="Entity pages">
          <button type="button" disabled={current === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous page
          </button>
          <button
            type="button"
            disabled={!next || entities.isPlaceholderData}
            onClick={() => next && setCursors([...cursors, next])}
          >
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
