import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { nextCursor } from '../api/link-header';
import { useEntity, useEntityDirectory } from '../catalog/directory';
import { CheckForm, type CheckType, draftOf, emptyDraft } from '../checks/check-form';
import { CheckConfig, RecentResults, targetOf } from '../checks/check-summary';
import { EntityPicker } from '../checks/entities';
import { PushInstructions } from '../checks/push-urls';
import { checkKeys, checkQueries, checksChanged } from '../checks/queries';
import { refreshDelay, useRefreshOnChange } from '../live/refresh';
import { CheckNotifications } from '../notify/check-notifications';
import { WhyPaged } from '../notify/why-paged';
import { useSession } from '../session';
import { StateBadge, Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { scrollRegion } from '../ui/scroll-region';
import { UptimeSection } from '../uptime/uptime-section';

type Check = Schemas['Check'];

/** A link to a check's entity page, named by its address (the list never reads every entity). */
function EntityLink({ check, name }: { check: Check; name?: string | undefined }) {
  return (
    <Link to={`/entities/${check.blueprint_slug}/${check.entity_slug}`}>
      {name ?? `${check.blueprint_slug}/${check.entity_slug}`}
    </Link>
  );
}

/** Checks read per page of the list (the API's `limit`). */
const CHECKS_PAGE = 100;

/** One page of GET /v1/checks and the cursor of the next, from the answer's Link header. */
async function checksPage(entityId: string, cursor: string | undefined) {
  const call = api.GET('/v1/checks', {
    params: {
      query: {
        limit: CHECKS_PAGE,
        ...(entityId ? { entity_id: entityId } : {}),
        ...(cursor ? { cursor } : {}),
      },
    },
  });
  const checks = await must(call);
  const { response } = await call;
  return { checks, next: nextCursor(response.headers.get('link')) };
}

/**
 * The account's checks (GET /v1/checks), 100 at a time with "Load more checks"; the entity filter
 * (?blueprint, ?entity_id) goes to the API, type and state filter the checks loaded so far.
 */
export function ChecksPage() {
  const { canWrite } = useSession();
  const [params, setParams] = useSearchParams();
  const entityId = params.get('entity_id') ?? '';
  const blueprint = params.get('blueprint') ?? '';
  const type = params.get('type') ?? '';
  const state = params.get('state') ?? '';
  const checks = useInfiniteQuery({
    queryKey: checkKeys.pages({ entity_id: entityId }),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => checksPage(entityId, pageParam),
    getNextPageParam: (last) => last.next,
    // "Last result" moves without a state change: read again after the soonest run (lists: at most every 10 s).
    refetchInterval: (q) =>
      refreshDelay(
        q.state.data?.pages.flatMap((p) => p.checks.map((c) => c.next_run_at)) ?? [],
        Date.now(),
        10_000,
      ),
  });
  const loaded = checks.data?.pages.flatMap((p) => p.checks) ?? [];
  // Names from the entity directory (one bounded page, shared with the catalog); the rest show their address.
  const directory = useEntityDirectory();
  const names = new Map((directory.data?.entities ?? []).map((e) => [e.id, e.name]));
  const setFilter = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const rows = loaded.filter((c) => (!type || c.check_type === type) && (!state || c.state === state));
  return (
    <Page
      title="Checks"
      actions={
        canWrite ? (
          <Link
            className="button primary"
            to={
              entityId
                ? `/checks/new?${new URLSearchParams({ blueprint, entity_id: entityId })}`
                : '/checks/new'
            }
          >
            New check
          </Link>
        ) : null
      }
    >
      <search className="form-grid" aria-label="Filter checks">
        <EntityPicker
          blueprint={blueprint}
          onBlueprint={(v) => setFilter({ blueprint: v, entity_id: '' })}
          entityId={entityId}
          onChange={(v) => setFilter({ entity_id: v })}
          anyLabel="All"
        />
        <SelectField
          label="Type"
          value={type}
          onChange={(v) => setFilter({ type: v })}
          options={[{ value: '', label: 'All types' }, 'http', 'tcp', 'tls', 'dns', 'push']}
        />
        <SelectField
          label="State"
          value={state}
          onChange={(v) => setFilter({ state: v })}
          options={[{ value: '', label: 'All states' }, 'up', 'degraded', 'down', 'unknown']}
        />
      </search>
      <p className="muted">
        The entity filter asks the server; type and state filters apply to the loaded checks
        {checks.hasNextPage ? ' (load more to filter the rest)' : ''}.
      </p>
      <ErrorNote error={checks.error} title="The checks could not be read." />
      {checks.isPending ? (
        <Loading what="checks" />
      ) : checks.isSuccess && rows.length === 0 ? (
        <Empty
          title={
            loaded.length === 0
              ? 'No checks yet.'
              : checks.hasNextPage
                ? 'No loaded check matches these filters.'
                : 'No check matches these filters.'
          }
        >
          {loaded.length === 0
            ? canWrite
              ? 'Create a check to start watching an entity: an HTTP endpoint, a port, a certificate, a DNS record, or a push check your own agent reports to.'
              : 'Checks appear here once someone with write access creates them.'
            : checks.hasNextPage
              ? 'Load more checks, or clear a filter to see more.'
              : 'Clear a filter to see more.'}
        </Empty>
      ) : rows.length > 0 ? (
        <div className="table-wrap" {...scrollRegion('Checks')}>
          <table aria-label="Checks">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Entity</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col">Last result</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/checks/${c.id}`}>{c.name}</Link>
                    {c.enabled ? null : <span className="muted"> (disabled)</span>}
                    {c.name_is_default ? null : <div className="muted check-target">{targetOf(c)}</div>}
                  </td>
                  <td>
                    <EntityLink check={c} name={names.get(c.entity_id)} />
                  </td>
                  <td>{c.check_type}</td>
                  <td>
                    <StateBadge state={c.state} />
                  </td>
                  <td>
                    <Time iso={c.last_result_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {checks.isSuccess ? (
        <p className="muted" aria-live="polite">
          {loaded.length === rows.length
            ? `${countChecks(loaded.length)} loaded`
            : `${rows.length} of ${countChecks(loaded.length)} loaded match the filters`}
          {checks.hasNextPage ? '; more follow.' : '.'}
        </p>
      ) : null}
      {checks.hasNextPage ? (
        <button type="button" disabled={checks.isFetchingNextPage} onClick={() => checks.fetchNextPage()}>
          {checks.isFetchingNextPage ? 'Loading more checks…' : 'Load more checks'}
        </button>
      ) : null}
    </Page>
  );
}

/** "1 check", "2 checks". */
function countChecks(n: number): string {
  return `${n} ${n === 1 ? 'check' : 'checks'}`;
}

/** Creates a check: an entity (blueprint, then entity; ?blueprint&entity_id preselect it), a type, its fields. */
export function NewCheckPage() {
  const { canWrite } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [entityId, setEntityId] = useState(params.get('entity_id') ?? '');
  const [blueprint, setBlueprint] = useState(params.get('blueprint') ?? '');
  const [entityError, setEntityError] = useState<string>();
  if (!canWrite) {
    return (
      <Page title="New check">
        <Empty title="This key is read-only.">Sign in with a key that may write to create checks.</Empty>
      </Page>
    );
  }
  const create = async (body: Record<string, unknown>) => {
    setEntityError(undefined);
    if (!entityId) {
      setEntityError('Choose the entity this check watches');
      throw new Error('Choose the entity this check watches.');
    }
    try {
      const created = await must(api.POST('/v1/checks', { body: { ...body, entity_id: entityId } as never }));
      await checksChanged(queryClient);
      navigate(`/checks/${created.id}`);
    } catch (err) {
      setEntityError(fieldErrors(err).entity_id);
      throw err;
    }
  };
  const type = (params.get('type') as CheckType | null) ?? 'http';
  return (
    <Page title="New check">
      <Section title="What to watch">
        <CheckForm
          initial={emptyDraft(type)}
          editing={false}
          submitLabel="Create check"
          onSubmit={create}
          before={
            <EntityPicker
              blueprint={blueprint}
              onBlueprint={setBlueprint}
              entityId={entityId}
              onChange={setEntityId}
              error={entityError}
            />
          }
        />
      </Section>
    </Page>
  );
}

/** One check: its settings, state, results, push instructions, notifications, and (writers) edit/delete. */
export function CheckPage() {
  const { id = '' } = useParams();
  const check = useQuery({
    ...checkQueries.detail(id),
    refetchInterval: (q) => refreshDelay([q.state.data?.next_run_at], Date.now()),
  });
  if (check.isPending) return <Loading what="the check" />;
  if (check.error || !check.data) {
    return (
      <Page title="Check">
        <ErrorNote error={check.error} title="The check could not be read." />
        <Link to="/checks">All checks</Link>
      </Page>
    );
  }
  return <CheckView check={check.data} />;
}

function CheckView({ check }: { check: Check }) {
  const { canWrite } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const entity = useEntity(check.blueprint_slug, check.entity_slug).data;
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<string>();
  useRefreshOnChange(check.last_result_at, [checkKeys.results(check.id)]);
  const refresh = () => checksChanged(queryClient);
  const update = async (body: Record<string, unknown>) => {
    await must(api.PUT('/v1/checks/{id}', { params: { path: { id: check.id } }, body: body as never }));
    await refresh();
    setEditing(false);
    setSaved('The check was saved.');
  };
  const toggle = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/v1/checks/{id}', { params: { path: { id: check.id } }, body: { enabled: !check.enabled } }),
      ),
    onSuccess: async (c) => {
      await refresh();
      setSaved(
        c.enabled
          ? 'The check is enabled.'
          : 'The check is disabled: it no longer runs or counts towards its entity.',
      );
    },
  });
  const remove = async () => {
    await must(api.DELETE('/v1/checks/{id}', { params: { path: { id: check.id } } }));
    queryClient.removeQueries({ queryKey: checkKeys.detail(check.id) });
    await checksChanged(queryClient);
    navigate('/checks');
  };
  const [removeError, setRemoveError] = useState<unknown>();
  return (
    <Page
      title={check.name}
      actions={
        canWrite ? (
          <>
            <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
              {editing ? 'Cancel edit' : 'Edit'}
            </button>
            <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
              {check.enabled ? 'Disable' : 'Enable'}
            </button>
            <ConfirmButton
              label="Delete check"
              question="Delete this check with its results, policy and channels? This cannot be undone."
              confirmLabel="Delete"
              onConfirm={() => remove().catch(setRemoveError)}
            />
          </>
        ) : null
      }
    >
      <p className="check-target">
        <code>{targetOf(check)}</code> on <EntityLink check={check} name={entity?.name} />
      </p>
      {saved ? <Notice>{saved}</Notice> : null}
      <ErrorNote error={toggle.error ?? removeError} />
      <div className="stats">
        <div className="stat">
          <span className="muted">State</span>
          <span className="n">
            <StateBadge state={check.state} />
          </span>
          {check.enabled ? null : <span className="muted">disabled</span>}
        </div>
        <div className="stat">
          <span className="muted">Consecutive failures</span>
          <span className="n">
            {check.consecutive_failures} / {check.failure_threshold}
          </span>
        </div>
        <div className="stat">
          <span className="muted">Last result</span>
          <span className="stat-line">
            <Time iso={check.last_result_at} />
          </span>
        </div>
        <div className="stat">
          <span className="muted">{check.check_type === 'push' ? 'Report due by' : 'Next run'}</span>
          <span className="stat-line">
            <Time iso={check.next_run_at} />
          </span>
        </div>
      </div>
      {editing ? (
        <Section title="Edit check">
          <CheckForm initial={draftOf(check)} editing submitLabel="Save check" onSubmit={update} />
        </Section>
      ) : (
        <Section title="Settings">
          <CheckConfig check={check} />
        </Section>
      )}
      {check.check_type === 'push' ? (
        <PushInstructions checkId={check.id} intervalSeconds={check.interval_seconds} />
      ) : null}
      {/* A new result or an edit (the SLO target) changes the figures. */}
      <UptimeSection
        subject={{ kind: 'check', id: check.id }}
        changedAt={`${check.last_result_at} ${check.updated_at}`}
      />
      <Section title="Recent results">
        <RecentResults checkId={check.id} />
      </Section>
      <CheckNotifications checkId={check.id} />
      <WhyPaged subject={{ check_id: check.id }} />
    </Page>
  );
}
