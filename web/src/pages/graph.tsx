import '@xyflow/react/dist/style.css';
import { useQuery } from '@tanstack/react-query';
import { Background, Controls, type Edge, MarkerType, ReactFlow } from '@xyflow/react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../api/client';
import { entityPath } from '../catalog/entities-section';
import { EntityNode, type EntityNodeType } from '../catalog/entity-node';
import { type ChosenEntity, EntitySearchField } from '../catalog/entity-search-field';
import { layeredLayout } from '../catalog/graph-layout';
import { dependsOnEdges, GRAPH_NODE_CAP } from '../catalog/graph-model';
import { blueprintQueries, entityQueries, relationQueries, statusQueries } from '../catalog/queries';
import { StateBadge } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { useQueryParams } from '../ui/query-params';

const nodeTypes = { entity: EntityNode };
type End = Schemas['RelationEnd'] & { id: string };

/** Up to this many entities, the whole depends_on graph is drawn without a filter. */
const WHOLE_GRAPH_LIMIT = 200;
const HOPS = ['1', '2', '3'];

/**
 * The catalog graph at any size: the depends_on relations of one blueprint, or the neighbourhood
 * (1 to 3 hops) of an entity found by search, read from the server (GET /v1/relations with
 * blueprint_slug or entity_id and hops) and laid out in layers by dagre; only entities with a
 * relation in view are drawn. A small catalog is drawn whole; a large one first asks for a
 * blueprint or an entity. Selecting an entity (the search, or a click) lists its blast radius
 * (GET /v1/relations?dependents_of=: every entity that depends on it, directly or transitively,
 * drawn or not) and highlights it among what is drawn.
 * Filters live in the URL (?blueprint=, ?focus=<blueprint>/<slug>, ?hops=).
 */
export function GraphPage() {
  const [params, set] = useQueryParams();
  const blueprint = params.get('blueprint') ?? '';
  const [focusBp = '', focusSlug = ''] = (params.get('focus') ?? '').split('/');
  const hops = Math.min(3, Math.max(1, Number(params.get('hops') ?? '2') || 2));

  const counts = useQuery(statusQueries.counts());
  const blueprints = useQuery(blueprintQueries.list());
  const focusEntity = useQuery({ ...entityQueries.detail(focusBp, focusSlug), enabled: focusSlug !== '' });
  const focus = focusSlug ? focusEntity.data : undefined;
  const total = counts.data?.total ?? 0;
  const whole = counts.data !== undefined && total <= WHOLE_GRAPH_LIMIT && !blueprint && !focusSlug;
  const relations = useQuery({
    ...relationQueries.graph(
      focus ? { entity_id: focus.id, hops } : blueprint ? { blueprint_slug: blueprint } : {},
    ),
    enabled: Boolean(focus || blueprint || whole),
  });
  const [clicked, setClicked] = useState('');
  const selected = clicked || focus?.id || '';

  const ends = useMemo(() => {
    const map = new Map<string, End>();
    for (const r of relations.data ?? []) {
      map.set(r.from_entity_id, { id: r.from_entity_id, ...r.from_entity });
      map.set(r.to_entity_id, { id: r.to_entity_id, ...r.to_entity });
    }
    if (focus && !map.has(focus.id)) map.set(focus.id, focus);
    return map;
  }, [relations.data, focus]);
  const drawn = useMemo(
    () =>
      [...ends.values()]
        .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
        .slice(0, GRAPH_NODE_CAP),
    [ends],
  );
  const edges = useMemo(() => dependsOnEdges(relations.data ?? []), [relations.data]);
  // The blast radius from the server: every entity that depends on the selected one, however deep.
  const dependents = useQuery(relationQueries.dependents(selected));
  const blast = useMemo(() => {
    const map = new Map<string, End>();
    for (const r of dependents.data ?? [])
      map.set(r.from_entity_id, { id: r.from_entity_id, ...r.from_entity });
    return map;
  }, [dependents.data]);
  const affected = useMemo(() => new Set(blast.keys()), [blast]);
  const chosen = ends.get(selected);

  const { nodes, lines } = useMemo(() => {
    const ids = drawn.map((e) => e.id);
    const drawnSet = new Set(ids);
    const at = layeredLayout(ids, edges);
    const ns: EntityNodeType[] = drawn.map((e) => {
      const role = e.id === selected ? 'selected' : affected.has(e.id) ? 'blast' : 'none';
      return {
        id: e.id,
        type: 'entity',
        position: at.get(e.id) ?? { x: 0, y: 0 },
        data: { name: e.name, where: `${e.blueprint_slug}/${e.slug}`, state: e.state, role },
        ariaLabel: `${e.name}, ${e.state}${role === 'blast' ? ', affected' : role === 'selected' ? ', selected' : ''}`,
      };
    });
    const ls: Edge[] = edges
      .filter((e) => drawnSet.has(e.from) && drawnSet.has(e.to))
      .map((e) => ({
        id: e.id,
        source: e.from,
        target: e.to,
        markerEnd: { type: MarkerType.ArrowClosed },
        animated: affected.has(e.from) && (e.to === selected || affected.has(e.to)),
        className: affected.has(e.from) ? 'graph-edge-blast' : undefined,
      }));
    return { nodes: ns, lines: ls };
  }, [drawn, edges, selected, affected]);

  const chooseFocus = (e: ChosenEntity | undefined) => {
    setClicked('');
    set({ focus: e ? `${e.blueprint_slug}/${e.slug}` : '' });
  };
  const filtered = Boolean(focus || blueprint || whole);
  const loading = counts.isLoading || relations.isLoading || (focusSlug !== '' && focusEntity.isLoading);
  return (
    <Page title="Catalog graph" actions={<Link to="/catalog">Back to the catalog</Link>}>
      <ErrorNote error={counts.error} title="The entities could not be counted." />
      <ErrorNote error={relations.error} title="The relations could not be loaded." />
      <ErrorNote
        error={focusSlug ? focusEntity.error : undefined}
        title="The chosen entity could not be loaded."
      />
      <Section title="What to draw">
        <div className="form-grid">
          <SelectField
            label="Blueprint"
            value={blueprint}
            onChange={(slug) => set({ blueprint: slug })}
            options={[
              { value: '', label: 'Any blueprint' },
              ...(blueprints.data ?? []).map((b) => ({ value: b.slug, label: b.name })),
            ]}
            hint={focus ? 'The neighbourhood below crosses blueprints' : undefined}
          />
          <EntitySearchField
            label="Focus on an entity"
            value={focus ? { ...focus } : undefined}
            onChange={chooseFocus}
            blueprint={blueprint || undefined}
          />
          <SelectField
            label="Neighbourhood"
            value={String(hops)}
            onChange={(h) => set({ hops: h === '2' ? '' : h })}
            options={HOPS.map((h) => ({ value: h, label: `${h} ${h === '1' ? 'hop' : 'hops'} around it` }))}
          />
        </div>
      </Section>
      {loading ? <Loading what="the graph" /> : null}
      {counts.data && total === 0 ? (
        <Empty title="The catalog has no entities yet.">
          Create blueprints and entities in the <Link to="/catalog">catalog</Link>, then link them with
          depends_on relations to see them here.
        </Empty>
      ) : null}
      {counts.data && total > 0 && !filtered && !loading ? (
        <Empty title={`The catalog has ${total} entities: too many to draw at once.`}>
          <span data-testid="graph-prompt">
            Choose a blueprint, or search for an entity to see its neighbourhood.
          </span>
        </Empty>
      ) : null}
      {filtered && relations.data ? (
        <>
          <Section title="Blast radius">
            <div aria-live="polite">
              <ErrorNote error={dependents.error} title="The blast radius could not be loaded." />
              {chosen && dependents.data ? (
                <>
                  <p>
                    <Link to={entityPath(chosen)}>{chosen.name}</Link> <StateBadge state={chosen.state} />:{' '}
                    <strong data-testid="blast-count">
                      {affected.size === 0
                        ? 'nothing depends on it.'
                        : `${affected.size} ${affected.size === 1 ? 'entity depends' : 'entities depend'} on it, directly or transitively.`}
                    </strong>
                  </p>
                  {affected.size > 0 ? (
                    <ul className="graph-affected">
                      {[...blast.values()].map((e) => (
                        <li key={e.id}>
                          <Link to={entityPath(e)}>{e.name}</Link> <StateBadge state={e.state} />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </>
              ) : (
                <p className="muted">
                  Search for an entity above, or click one in the graph, to see what depends on it.
                </p>
              )}
            </div>
          </Section>
          <Section title="Graph">
            <p className="muted">
              An arrow points from an entity to what it depends on. Entities that depend on nothing drawn are
              at the top; each layer below depends on a layer above. Only depends_on relations are drawn, and
              only entities that have one here.
            </p>
            {ends.size > drawn.length ? (
              <p className="note">
                Showing {drawn.length} of {ends.size} entities (the first by name): choose an entity to see
                its neighbourhood.
              </p>
            ) : null}
            {drawn.length === 0 ? (
              <Empty title="No depends_on relations here.">
                Link entities with depends_on relations in the <Link to="/catalog">catalog</Link>.
              </Empty>
            ) : (
              <div className="graph-canvas">
                <ReactFlow
                  nodes={nodes}
                  edges={lines}
                  nodeTypes={nodeTypes}
                  nodesDraggable={false}
                  nodesConnectable={false}
                  onNodeClick={(_, node) => setClicked(node.id)}
                  fitView
                  fitViewOptions={{ maxZoom: 1 }}
                  minZoom={0.05}
                >
                  <Background />
                  <Controls showInteractive={false} />
                </ReactFlow>
              </div>
            )}
          </Section>
        </>
      ) : null}
    </Page>
  );
}
