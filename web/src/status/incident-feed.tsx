import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { statusKeys } from '../catalog/queries';
import { knownEntity } from '../live/entity-names';
import { StateBadge, Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';

const FEED_PAGE = 20;

/**
 * Entity state changes across the tenant, newest first, paged. First results (unknown → up, as
 * after a bulk create) are left out unless asked for: they are not news, and a thousand of them
 * would push every real change out of sight.
 */
export function IncidentFeed() {
  const [firstResults, setFirstResults] = useState<'include' | 'exclude'>('exclude');
  const feed = useInfiniteQuery({
    queryKey: statusKeys.feedOf(firstResults),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/v1/status/transitions', {
          params: {
            query: {
              limit: FEED_PAGE,
              first_results: firstResults,
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const items = feed.data?.pages.flatMap((p) => p.transitions) ?? [];
  return (
    <Section title="Incident feed">
      <label className="row">
        <input
          type="checkbox"
          checked={firstResults === 'include'}
          onChange={(e) => setFirstResults(e.target.checked ? 'include' : 'exclude')}
        />
        Show first results (unknown → up)
      </label>
      <ErrorNote error={feed.error} title="The incident feed could not be loaded." />
      {feed.isPending ? (
        <Loading what="the incident feed" />
      ) : items.length === 0 && !feed.error ? (
        <Empty title="No state changes yet.">
          <p>When an entity goes up, down or degraded, it is listed here.</p>
        </Empty>
      ) : (
        <ol className="feed" aria-label="State changes, newest first">
          {items.map((t) => (
            <FeedItem key={t.id} t={t} />
          ))}
        </ol>
      )}
      {feed.hasNextPage ? (
        <button type="button" onClick={() => feed.fetchNextPage()} disabled={feed.isFetchingNextPage}>
          {feed.isFetchingNextPage ? 'Loading…' : 'Load more changes'}
        </button>
      ) : null}
    </Section>
  );
}

function FeedItem({ t }: { t: Schemas['Transition'] }) {
  // The transition names its entity and its address; older ones lack the address, unless the console has seen the entity.
  const entity = knownEntity(t.entity_id);
  const blueprint = t.blueprint_slug ?? entity?.blueprint_slug;
  const slug = t.entity_slug ?? entity?.slug;
  const label = entity?.name ?? t.entity_name;
  const name =
    blueprint && slug ? <Link to={`/entities/${blueprint}/${slug}`}>{label}</Link> : <strong>{label}</strong>;
  return <TransitionItem t={t} entity={name} />;
}

/** One state change: whose (on the feed), from and to, why, and when. */
export function TransitionItem({ t, entity }: { t: Schemas['Transition']; entity?: ReactNode }) {
  return (
    <li className="feed-item">
      {entity ? <span className="feed-entity">{entity}</span> : null}
      <span className="feed-change">
        <StateBadge state={t.from_state} /> <span aria-hidden="true">→</span>
        <span className="visually-hidden"> to </span> <StateBadge state={t.to_state} />
      </span>
      {t.reason ? <span className="feed-reason">{t.reason}</span> : null}
      <Time iso={t.created_at} />
    </li>
  );
}
