import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError, type Schemas } from '../api/client';
import { entityPath } from '../catalog/entities-section';
import { EntityFields } from '../catalog/entity-fields';
import { useEntity } from '../catalog/entity-reads';
import { blueprintQueries, relationQueries } from '../catalog/queries';
import { StateRuleSection } from '../catalog/state-rule';
import { CheckCharts } from '../charts/check-charts-panel';
import { RecentResults } from '../checks/check-summary';
import { targetOf } from '../checks/check-types/registry';
import { checkKeys, checkQueries } from '../checks/queries';
import { EntityIncidents } from '../incidents/entity-incidents';
import { EntityOutsideAlerts } from '../integrations/entity-outside-alerts';
import { refreshDelay, useRefreshOnChange } from '../live/refresh';
import { IN_MAINTENANCE } from '../maintenance/words';
import { ChannelTruth } from '../notify/channel-truth';
import { WhyPaged } from '../notify/why-paged';
import { TransitionItem } from '../status/incident-feed';
import { OnCallNow } from '../teams/on-call-now';
import { StateBadge, Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';
import { everyWords } from '../ui/time-words';
import { UptimeSection } from '../uptime/uptime-section';

/**
 * One entity (route /entities/:blueprint/:slug, where alert messages link): its fields as its
 * blueprint types them, its state, relations, and per check the state, a 24 h sparkline and
 * latency chart, recent results and transitions; its incident history. Read only: editing lives in
 * the catalog.
 */

type Entity = Schemas['Entity'];
type Check = Schemas['Check'];

/** The entity page. */
export function EntityPage() {
  const { blueprint = '', slug = '' } = useParams();
  const entity = useEntity(blueprint, slug);
  const bp = useQuery(blueprintQueries.detail(blueprint));

  if (entity.isPending) return <Loading what="the entity" />;
  if (entity.error) {
    const missing = entity.error instanceof ApiError && entity.error.status === 404;
    return (
      <Page title={missing ? 'Entity not found' : 'Entity'}>
        {missing ? (
          <Empty title={`There is no entity "${slug}" in blueprint "${blueprint}".`}>
            <p>
              It may have been deleted or renamed. See the <Link to="/status">status page</Link> or the{' '}
              <Link to="/catalog">catalog</Link>.
            </p>
          </Empty>
        ) : (
          <ErrorNote error={entity.error} title="The entity could not be loaded." />
        )}
      </Page>
    );
  }
  const e = entity.data;
  return (
    <Page
      title={e.name}
      actions={
        <>
          <StateBadge state={e.state} />
          {e.in_maintenance ? (
            <span className={`badge ${IN_MAINTENANCE.className}`}>{IN_MAINTENANCE.words}</span>
          ) : null}
          <Link to={`/catalog/blueprints/${e.blueprint_slug}`}>In the catalog</Link>
        </>
      }
    >
      <p className="muted">
        {bp.data?.name ?? e.blueprint_slug} · <code>{e.slug}</code> · updated <Time iso={e.updated_at} />
      </p>
      <div className="grid">
        <Section title="Fields">
          <ErrorNote error={bp.error} title="The blueprint could not be loaded." />
          <EntityFields entity={e} blueprint={bp.data} />
        </Section>
        <Relations entity={e} />
        <OnCallNow entityId={e.id} />
        <StateRuleSection key={`${e.id}:${e.state_rule}`} entity={e} />
      </div>
      <UptimeSection
        subject={{ kind: 'entity', blueprint: e.blueprint_slug, slug: e.slug }}
        changedAt={e.updated_at}
      />
      <EntityIncidents entityId={e.id} entityState={e.state} />
      <EntityOutsideAlerts entityId={e.id} />
      <Checks entity={e} />
      <ChannelTruth entityId={e.id} state={e.state} />
      <WhyPaged subject={{ entity_id: e.id }} />
    </Page>
  );
}

/** Relations in and out, the other end named as the relation answers carry it. */
function Relations({ entity }: { entity: Entity }) {
  const relations = useQuery(relationQueries.ofEntity(entity.id));

  const other = (e: Schemas['RelationEnd']) => (
    <>
      <Link to={entityPath(e)}>{e.name}</Link> <StateBadge state={e.state} />
    </>
  );
  const out = (relations.data ?? []).filter((r) => r.from_entity_id === entity.id);
  const incoming = (relations.data ?? []).filter((r) => r.to_entity_id === entity.id);
  return (
    <Section title="Relations">
      <ErrorNote error={relations.error} title="The relations could not be loaded." />
      {relations.isPending ? (
        <Loading what="relations" />
      ) : out.length + incoming.length === 0 ? (
        <Empty title="No relations.">
          <p>
            Relations (depends on, part of …) are added in the <Link to="/catalog">catalog</Link>.
          </p>
        </Empty>
      ) : (
        <>
          {out.length > 0 ? (
            <>
              <h3>Outgoing</h3>
              <ul className="plain">
                {out.map((r) => (
                  <li key={r.id}>
                    {label(r.relation_type)} {other(r.to_entity)}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {incoming.length > 0 ? (
            <>
              <h3>Incoming</h3>
              <ul className="plain">
                {incoming.map((r) => (
                  <li key={r.id}>
                    {other(r.from_entity)} {label(r.relation_type)} this
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </Section>
  );
}

function label(type: string): string {
  return type.replace(/_/g, ' ');
}

function Checks({ entity }: { entity: Entity }) {
  const checks = useQuery({
    ...checkQueries.list({ entity_id: entity.id }),
    refetchInterval: (q) => refreshDelay(q.state.data?.map((c) => c.next_run_at) ?? [], Date.now()),
  });
  return (
    <Section title="Checks">
      <ErrorNote error={checks.error} title="The checks could not be loaded." />
      {checks.isPending ? (
        <Loading what="checks" />
      ) : (checks.data ?? []).length === 0 ? (
        <Empty title="This entity has no checks yet.">
          <p>
            Its state stays unknown until a check reports.{' '}
            <Link
              to={`/checks/new?${new URLSearchParams({ blueprint: entity.blueprint_slug, entity_id: entity.id })}`}
            >
              Add a check
            </Link>{' '}
            to start watching it.
          </p>
        </Empty>
      ) : (
        <div className="entity-checks">
          {(checks.data ?? []).map((c) => (
            <CheckCard key={c.id} check={c} />
          ))}
        </div>
      )}
    </Section>
  );
}

function CheckCard({ check }: { check: Check }) {
  useRefreshOnChange(check.last_result_at, [checkKeys.results(check.id)]);
  const transitions = useQuery(checkQueries.transitions(check.id, 20));
  return (
    <article className="check-card" aria-labelledby={`chk-${check.id}`}>
      <header className="card-head">
        <h3 id={`chk-${check.id}`}>
          <Link to={`/checks/${check.id}`}>{check.name}</Link> <StateBadge state={check.state} />
          {check.enabled ? null : <span className="badge">paused</span>}
        </h3>
        <span className="muted check-target">
          {targetOf(check)}, {everyWords(check.interval_seconds)}
        </span>
      </header>
      <CheckCharts checkId={check.id} />
      <div className="grid">
        <div>
          <h4>Recent results</h4>
          <RecentResults checkId={check.id} />
        </div>
        <div>
          <h4>Transitions</h4>
          <ErrorNote error={transitions.error} title="The transitions could not be loaded." />
          <Transitions transitions={transitions.data?.transitions} />
        </div>
      </div>
    </article>
  );
}

function Transitions({ transitions }: { transitions: Schemas['Transition'][] | undefined }) {
  if (!transitions) return <Loading what="transitions" />;
  if (transitions.length === 0) return <Empty title="No state changes yet." />;
  return (
    <ol className="feed" aria-label="Check transitions, newest first">
      {transitions.map((t) => (
        <TransitionItem key={t.id} t={t} />
      ))}
    </ol>
  );
}
