import '@xyflow/react/dist/style.css';
import { useQuery } from '@tanstack/react-query';
import { Background, Controls, type Edge, MarkerType, ReactFlow } from '@xyflow/react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { entityLabel, useEntityDirectory } from '../catalog/directory';
import { entityPath } from '../catalog/entities-section';
import { EntityNode, type EntityNodeType } from '../catalog/entity-node';
import { blastRadius, dependsOnEdges, GRAPH_NODE_CAP, layers } from '../catalog/graph-model';
import { relationQueries } from '../catalog/queries';
import { StateBadge } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Page, Section } from '../ui/page';

const nodeTypes = { entity: EntityNode };
const COLUMN = 230;
const ROW = 130;

/**
 * The catalog graph: entities as nodes coloured by state, depends_on edges (an arrow points at
 * what an entity depends on), laid out in layers by dependency depth; selecting an entity (click,
 * or the list, for keyboards) highlights its blast radius: every entity that depends on it,
 * directly or transitively, computed here from the relations (the REST API has no blast-radius
 * route; the MCP tool get_blast_radius walks the same edges).
 */
export function GraphPage() {
  const directory = useEntityDirectory();
  const relations = useQuery(relationQueries.list());
  const [selected, setSelected] = useState('');

  const all = useMemo(() => directory.data?.entities ?? [], [directory.data]);
  const sorted = useMemo(
    () => [...all].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
    [all],
  );
  const drawn = useMemo(() => sorted.slice(0, GRAPH_NODE_CAP), [sorted]);
  const edges = useMemo(() => dependsOnEdges(relations.data ?? []), [relations.data]);
  const affected = useMemo(
    () => (selected ? blastRadius(selected, edges) : new Set<string>()),
    [selected, edges],
  );
  const byId = new Map(all.map((e) => [e.id, e]));
  const chosen = byId.get(selected);

  const { nodes, lines } = useMemo(() => {
    const ids = drawn.map((e) => e.id);
    const drawnSet = new Set(ids);
    const entity = new Map(drawn.map((e) => [e.id, e]));
    const ns: EntityNodeType[] = [];
    layers(ids, edges).forEach((layer, row) => {
      layer.forEach((id, col) => {
        const e = entity.get(id);
        if (!e) return;
        const role = id === selected ? 'selected' : affected.has(id) ? 'blast' : 'none';
        ns.push({
          id,
          type: 'entity',
          position: { x: (col - (layer.length - 1) / 2) * COLUMN, y: row * ROW },
          data: { name: e.name, where: `${e.blueprint_slug}/${e.slug}`, state: e.state, role },
          ariaLabel: `${e.name}, ${e.state}${role === 'blast' ? ', affected' : role === 'selected' ? ', selected' : ''}`,
        });
      });
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

  const loading = directory.isLoading || relations.isLoading;
  const total = directory.data?.total ?? 0;
  return (
    <Page title="Catalog graph" actions={<Link to="/catalog">Back to the catalog</Link>}>
      {loading ? <Loading what="the graph" /> : null}
      <ErrorNote error={directory.error} title="The entities could not be loaded." />
      <ErrorNote error={relations.error} title="The relations could not be loaded." />
      {directory.data && all.length === 0 ? (
        <Empty title="The catalog has no entities yet.">
          Create blueprints and entities in the <Link to="/catalog">catalog</Link>, then link them with
          depends_on relations to see them here.
        </Empty>
      ) : null}
      {directory.data && relations.data && all.length > 0 ? (
        <>
          <Section title="Blast radius">
            <SelectField
              label="Selected entity"
              value={selected}
              onChange={setSelected}
              options={[
                { value: '', label: 'None: choose an entity' },
                ...sorted.map((e) => ({ value: e.id, label: `${entityLabel(e)}, ${e.state}` })),
              ]}
              hint="or click a node in the graph"
            />
            <div aria-live="polite">
              {chosen ? (
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
                      {[...affected].map((id) => {
                        const e = byId.get(id);
                        return (
                          <li key={id}>
                            {e ? (
                              <>
                                <Link to={entityPath(e)}>{entityLabel(e)}</Link>{' '}
                                <StateBadge state={e.state} />
                              </>
                            ) : (
                              <code>{id}</code>
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  ) : null}
                </>
              ) : (
                <p className="muted">Choose an entity to see everything that depends on it.</p>
              )}
            </div>
          </Section>
          <Section title="Graph">
            <p className="muted">
              An arrow points from an entity to what it depends on. Entities that depend on nothing drawn are
              in the top row; each row below depends on a row above. Only depends_on relations are drawn.
            </p>
            {total > drawn.length ? (
              <p className="note">
                Showing {drawn.length} of {total} entities (the first by name); the blast radius above counts
                every dependent, drawn or not.
              </p>
            ) : null}
            <div className="graph-canvas">
              <ReactFlow
                nodes={nodes}
                edges={lines}
                nodeTypes={nodeTypes}
                nodesDraggable={false}
                nodesConnectable={false}
                onNodeClick={(_, node) => setSelected(node.id)}
                fitView
                fitViewOptions={{ maxZoom: 1 }}
                minZoom={0.1}
              >
                <Background />
                <Controls showInteractive={false} />
              </ReactFlow>
            </div>
          </Section>
        </>
      ) : null}
    </Page>
  );
}
