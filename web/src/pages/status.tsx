import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { api, must } from '../api/client';
import { blueprintQueries, statusKeys } from '../catalog/queries';
import { RecentStrip } from '../charts/recent-strip';
import { uptimeWords } from '../checks/check-scan';
import { rememberEntity } from '../live/entity-names';
import { IncidentFeed } from '../status/incident-feed';
import { StateBadge } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { useQueryParams } from '../ui/query-params';
import { Table } from '../ui/table';

/**
 * Fleet status: tenant-wide counts (kept by the server, no scan), one page of entities at a time
 * (filtered by state and blueprint, grouped by blueprint) and the incident feed. The filters are in
 * the URL (`?state=`, `?blueprint=`) as every list's are, so reload, back and a shared link keep
 * them. The status stream in the layout refreshes these queries on every state change.
 */

type Board = Awaited<ReturnType<typeof fetchBoard>>;
type BoardEntity = Board['entities'][number];
type State = 'up' | 'degraded' | 'down' | 'unknown';
type Filter = 'problems' | 'all' | State;

const PAGE = 100;

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'problems', label: 'Problems' },
  { value: 'down', label: 'Down' },
  { value: 'degraded', label: 'Degraded' },
  { value: 'unknown', label: 'Unknown' },
  { value: 'up', label: 'Up' },
  { value: 'all', label: 'All' },
];

/** Where a page of the board starts: "problems" reads the down entities, then the degraded ones. */
interface BoardCursor {
  state: State | undefined;
  cursor: string | undefined;
}

function fetchBoard(blueprint: string, at: BoardCursor) {
  return must(
    api.GET('/v1/status', {
      params: {
        query: {
          limit: PAGE,
          include: 'recent',
          ...(at.state ? { state: at.state } : {}),
          ...(blueprint ? { blueprint_slug: blueprint } : {}),
          ...(at.cursor ? { cursor: at.cursor } : {}),
        },
      },
    }),
  );
}

function firstCursor(filter: Filter): BoardCursor {
  if (filter === 'problems') return { state: 'down', cursor: undefined };
  return { state: filter === 'all' ? undefined : filter, cursor: undefined };
}

/** The status page (route /status). */
export function StatusPage() {
  const [params, changeParams] = useQueryParams();
  const filter = FILTERS.find((f) => f.value === params.get('state'))?.value ?? 'problems';
  const blueprint = params.get('blueprint') ?? '';
  /** One filter changed in the URL (the default, problems or every blueprint, leaves it out). */
  const setFilter = (value: Filter) => changeParams({ state: value === 'problems' ? '' : value });
  const setBlueprint = (value: string) => changeParams({ blueprint: value });

  const counts = useQuery({
    queryKey: statusKeys.counts(),
    queryFn: () => must(api.GET('/v1/status', { params: { query: { limit: 1 } } })),
  });
  const blueprints = useQuery(blueprintQueries.list());

  const board = useInfiniteQuery({
    queryKey: statusKeys.board({ filter, blueprint }),
    initialPageParam: firstCursor(filter),
    queryFn: async ({ pageParam }) => ({ at: pageParam, body: await fetchBoard(blueprint, pageParam) }),
    getNextPageParam: (last): BoardCursor | undefined => {
      if (last.body.next_cursor) return { state: last.at.state, cursor: last.body.next_cursor };
      if (filter === 'problems' && last.at.state === 'down') return { state: 'degraded', cursor: undefined };
      return undefined;
    },
  });

  const entities = board.data?.pages.flatMap((p) => p.body.entities) ?? [];
  // An empty page with more to follow ("problems" past no down entity, to the degraded ones) is
  // followed at once: the board never says "nothing" while offering more.
  const followEmpty = entities.length === 0 && board.hasNextPage && !board.error;
  useEffect(() => {
    if (followEmpty && !board.isFetchingNextPage) void board.fetchNextPage();
  }, [followEmpty, board.isFetchingNextPage, board.fetchNextPage]);
  for (const e of entities)
    rememberEntity(e.id, { name: e.name, blueprint_slug: e.blueprint_slug, slug: e.slug });
  const names = new Map((blueprints.data ?? []).map((b) => [b.slug, b.name]));

  return (
    <Page title="Status">
      <Counts
        data={counts.data}
        error={counts.error}
        untold={board.data?.pages.reduce((n, p) => n + p.body.untold, 0)}
      />
      <Section title="Entities">
        <div className="status-filters">
          <div className="tabs" role="tablist" aria-label="Filter by state">
            {FILTERS.map((f) => (
              <button
                key={f.value}
                type="button"
                role="tab"
                aria-selected={filter === f.value}
                onClick={() => setFilter(f.value)}
              >
                {f.label}
              </button>
            ))}
          </div>
          <SelectField
            label="Blueprint"
            value={blueprint}
            onChange={setBlueprint}
            options={[
              { value: '', label: 'All blueprints' },
              ...(blueprints.data ?? []).map((b) => ({ value: b.slug, label: b.name })),
            ]}
          />
        </div>
        <ErrorNote error={board.error} title="The status board could not be loaded." />
        {board.isPending || followEmpty ? (
          <Loading what="entities" />
        ) : counts.data?.total === 0 && blueprint === '' ? (
          <Empty title="No entities yet.">
            <p>
              Add your services, hosts and other things you watch in the <Link to="/catalog">catalog</Link>,
              then give them checks: their state shows here.
            </p>
          </Empty>
        ) : entities.length === 0 && !board.error ? (
          <Empty title={filter === 'problems' ? 'Nothing is down or degraded.' : 'No entities match.'}>
            {filter === 'problems' ? (
              <button type="button" onClick={() => setFilter('all')}>
                Show every entity
              </button>
            ) : (
              <p>
                Entities are created in the <Link to="/catalog">catalog</Link>; their state comes from their
                checks.
              </p>
            )}
          </Empty>
        ) : (
          <Groups entities={entities} blueprintNames={names} />
        )}
        {board.hasNextPage && entities.length > 0 ? (
          <button type="button" onClick={() => board.fetchNextPage()} disabled={board.isFetchingNextPage}>
            {board.isFetchingNextPage ? 'Loading…' : 'Load more entities'}
          </button>
        ) : null}
      </Section>
      <IncidentFeed />
    </Page>
  );
}

function Counts({
  data,
  error,
  untold,
}: {
  data: Board | undefined;
  error: unknown;
  /** Of the entities listed, those with a channel not yet told their state (GET /v1/status `untold`). */
  untold: number | undefined;
}) {
  if (error) return <ErrorNote error={error} title="The counts could not be loaded." />;
  const tiles: { key: State | 'total'; label: string }[] = [
    { key: 'up', label: 'Up' },
    { key: 'degraded', label: 'Degraded' },
    { key: 'down', label: 'Down' },
    { key: 'unknown', label: 'Unknown' },
    { key: 'total', label: 'Total' },
  ];
  return (
    <ul className="stats status-counts" aria-label="Fleet counts">
      {tiles.map((t) => (
        <li key={t.key} className={`stat stat-${t.key}`} data-testid={`count-${t.key}`}>
          <span className="n">{data ? data[t.key] : '–'}</span>
          <span className="label">{t.label}</span>
        </li>
      ))}
      <li
        className="stat stat-untold"
        data-testid="count-untold"
        title="Entities listed below with a channel whose last word is not their state: held (cooldown, maintenance …) or about to be told. The entity page says which channel and why."
      >
        <span className="n">{untold ?? '–'}</span>
        <span className="label">Not yet told (listed)</span>
      </li>
    </ul>
  );
}

function Groups({
  entities,
  blueprintNames,
}: {
  entities: BoardEntity[];
  blueprintNames: Map<string, string>;
}) {
  const groups = new Map<string, BoardEntity[]>();
  for (const e of entities) {
    const list = groups.get(e.blueprint_slug) ?? [];
    list.push(e);
    groups.set(e.blueprint_slug, list);
  }
  return (
    <div className="status-groups">
      {[...groups].map(([slug, list]) => (
        <section key={slug} className="status-group" aria-labelledby={`bp-${slug}`}>
          <h3 id={`bp-${slug}`}>{blueprintNames.get(slug) ?? slug}</h3>
          <Table
            label={`Entities of ${blueprintNames.get(slug) ?? slug}`}
            rows={list}
            rowKey={(e) => e.id}
            columns={[
              {
                header: 'Entity',
                cell: (e) => <Link to={`/entities/${e.blueprint_slug}/${e.slug}`}>{e.name}</Link>,
              },
              { header: 'State', cell: (e) => <StateBadge state={e.state} /> },
              { header: 'Recent results', cell: (e) => <RecentStrip slots={e.recent} /> },
              { header: '24 h uptime', cell: (e) => uptimeWords(e) },
              { header: 'Checks', cell: (e) => <CheckSummary checks={e.checks} /> },
            ]}
          />
        </section>
      ))}
    </div>
  );
}

function CheckSummary({ checks }: { checks: BoardEntity['checks'] }) {
  if (checks.length === 0) return <span className="muted">no checks</span>;
  const by = new Map<string, number>();
  for (const c of checks) by.set(c.state, (by.get(c.state) ?? 0) + 1);
  return (
    <span className="row">
      {[...by].map(([state, n]) => (
        <span key={state} className={`badge state-${state}`}>
          {n} {state}
        </span>
      ))}
    </span>
  );
}
