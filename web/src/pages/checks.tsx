import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { CheckCharts } from '../charts/check-charts-panel';
import { CheckForm, type CheckType, draftOf, emptyDraft } from '../checks/check-form';
import { ResultStrip, uptimeWords } from '../checks/check-scan';
import { CheckConfig, RecentResults, targetOf } from '../checks/check-summary';
import { CHECK_TYPES } from '../checks/check-types/registry';
import { EntityPicker } from '../checks/entities';
import { LocationPanel } from '../checks/location-panel';
import { LastPings } from '../checks/ping-log';
import { PushInstructions } from '../checks/push-urls';
import { CHECKS_PAGE, type CheckListFilter, checkKeys, checkQueries, checksChanged } from '../checks/queries';
import { VitalsPanel } from '../checks/vitals-panel';
import { refreshDelay, useRefreshOnChange } from '../live/refresh';
import { CheckNotifications } from '../notify/check-notifications';
import { WhyPaged } from '../notify/why-paged';
import { useSession } from '../session';
import { StateBadge, Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { useQueryParams } from '../ui/query-params';
import { scrollRegion } from '../ui/scroll-region';
import { everyWords } from '../ui/time-words';
import { UptimeSection } from '../uptime/uptime-section';

type Check = Schemas['Check'];
/** Run now: one probe of the check (POST /v1/checks/{id}/run): 200 with its result, or 202 dispatched. */
const runCheck = (id: string) => must(api.POST('/v1/checks/{id}/run', { params: { path: { id } } }));
type RunAnswer = Awaited<ReturnType<typeof runCheck>>;

/** A link to a check's entity page, named by the entity's name (every check answer carries it). */
function EntityLink({ check }: { check: Check }) {
  return (
    <Link to={`/entities/${check.blueprint_slug}/${check.entity_slug}`}>
      {check.entity_name ?? check.entity_slug}
    </Link>
  );
}

/** The filters the list reads from the URL (a link reproduces the view) and sends to the server. */
const FILTERS = ['blueprint', 'entity_id', 'type', 'state', 'q'] as const;
/** Pages read on their own while a sparse filter's pages come back short (each reads a bounded part of the list). */
const AUTO_PAGES = 20;

/**
 * The account's checks (GET /v1/checks), 100 at a time with "Load more checks". Every filter
 * (blueprint, entity, type, state, text) is in the URL and asks the server; each row shows the
 * check's last results as a strip and its 24 h uptime.
 */
export function ChecksPage() {
  const { canWrite } = useSession();
  const [params, setFilter] = useQueryParams();
  const filter = Object.fromEntries(
    FILTERS.flatMap((k) => {
      const v = params.get(k);
      return v ? [[k, v]] : [];
    }),
  ) as CheckListFilter;
  const { blueprint = '', entity_id: entityId = '', type = '', state = '', q = '' } = filter;
  const checks = useInfiniteQuery({
    ...checkQueries.pages(filter),
    // "Last result" moves without a state change: read again after the soonest run (lists: at most every 10 s).
    refetchInterval: (query) =>
      refreshDelay(
        query.state.data?.pages.flatMap((p) => p.checks.map((c) => c.next_run_at)) ?? [],
        Date.now(),
        10_000,
      ),
  });
  const rows = checks.data?.pages.flatMap((p) => p.checks) ?? [];
  const pagesRead = checks.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, fetchNextPage } = checks;
  // A sparse filter's page can come back short (the server reads a bounded part of the list per
  // page): read on until a page's worth is shown, for a bounded number of pages.
  useEffect(() => {
    if (hasNextPage && !isFetching && rows.length < CHECKS_PAGE && pagesRead < AUTO_PAGES) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetching, rows.length, pagesRead, fetchNextPage]);
  const filtered = FILTERS.some((k) => params.has(k));
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
          options={[{ value: '', label: 'All types' }, ...CHECK_TYPES]}
        />
        <SelectField
          label="State"
          value={state}
          onChange={(v) => setFilter({ state: v })}
          options={[{ value: '', label: 'All states' }, 'up', 'degraded', 'down', 'unknown']}
        />
        <SearchText value={q} onChange={(v) => setFilter({ q: v })} />
      </search>
      <ErrorNote error={checks.error} title="The checks could not be read." />
      {checks.isPending ? (
        <Loading what="checks" />
      ) : checks.isSuccess && rows.length === 0 && !hasNextPage ? (
        <Empty title={filtered ? 'No check matches these filters.' : 'No checks yet.'}>
          {filtered
            ? 'Clear a filter to see more.'
            : canWrite
              ? 'Create a check to start watching an entity: an HTTP endpoint, a port, a certificate, a DNS record, or a push check your own agent reports to.'
              : 'Checks appear here once someone with write access creates them.'}
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
                <th scope="col">Last 30 results</th>
                <th scope="col">24 h uptime</th>
                <th scope="col">Last result</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/checks/${c.id}`}>{c.name}</Link>
                    {c.enabled ? null : <span className="muted"> (disabled)</span>}
                    {c.name_is_default || c.check_type === 'push' ? null : (
                      <div className="muted check-target">{targetOf(c)}</div>
                    )}
                  </td>
                  <td>
                    <EntityLink check={c} />
                  </td>
                  <td>
                    {c.check_type}
                    <div className="muted">{everyWords(c.interval_seconds)}</div>
                  </td>
                  <td>
                    <StateBadge state={c.state} />
                  </td>
                  <td>
                    <ResultStrip recent={c.recent} />
                  </td>
                  <td>{uptimeWords(c.recent)}</td>
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
          {`${countChecks(rows.length)} shown`}
          {hasNextPage ? '; more follow.' : '.'}
        </p>
      ) : null}
      {hasNextPage ? (
        <button type="button" disabled={checks.isFetchingNextPage} onClick={() => fetchNextPage()}>
          {checks.isFetchingNextPage ? 'Loading more checks…' : 'Load more checks'}
        </button>
      ) : null}
    </Page>
  );
}

/** The text filter: typed freely, sent to the URL (and the server) once typing pauses. */
function SearchText({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  // A link or Back changes the URL: show its text (not the echo of what this field sent).
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text.trim() === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text.trim();
      onChange(text.trim());
    }, 300);
    return () => clearTimeout(timer);
  }, [text, onChange]);
  return (
    <TextField
      label="Name contains"
      type="search"
      value={text}
      onChange={setText}
      placeholder="Check or entity name"
    />
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
  // Run now, before saving: the draft probed once for the chosen entity, nothing stored.
  const tryRun = async (body: Record<string, unknown>) => {
    if (!entityId) {
      setEntityError('Choose the entity this check watches');
      throw new Error('Choose the entity this check watches.');
    }
    return must(api.POST('/v1/checks/run-draft', { body: { ...body, entity_id: entityId } as never }));
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
          onTryRun={tryRun}
          before={
            <EntityPicker
              blueprint={blueprint}
              onBlueprint={(v) => {
                setBlueprint(v);
                setEntityId('');
              }}
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

/** "Entity: Check", or the check's name alone when it names its entity already ("Push check for Billing"). */
function checkTitle(check: Check): string {
  const entity = check.entity_name ?? check.entity_slug;
  return check.name.toLowerCase().includes(entity.toLowerCase()) ? check.name : `${entity}: ${check.name}`;
}

/** What a run now found, in words: its outcome and latency or error, or where a located run went. */
function runWords(answer: RunAnswer): string {
  if (answer.status === 'dispatched')
    return 'Run sent to its locations: the result appears below once they report.';
  const { result } = answer;
  const detail = result.success
    ? `${result.latency_ms} ms`
    : result.error_message || `HTTP ${result.status_code}`;
  return `Ran now: ${result.outcome} (${detail}).`;
}

function CheckView({ check }: { check: Check }) {
  const { canWrite } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<string>();
  // An alert's evidence link names the failing result (?result=): its row is marked and unfolded.
  const [params] = useSearchParams();
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
  // Run now: the answer carries the stored result (a located check's slot goes to its locations).
  const run = useMutation({
    mutationFn: () => runCheck(check.id),
    onSuccess: async (answer) => {
      await refresh();
      setSaved(runWords(answer));
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
      title={checkTitle(check)}
      actions={
        // An outside check is its integration's: nothing here writes it (the API answers 409).
        canWrite && check.check_type !== 'outside' ? (
          <>
            <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
              {editing ? 'Cancel edit' : 'Edit'}
            </button>
            {check.check_type !== 'push' && check.enabled ? (
              <button type="button" disabled={run.isPending} onClick={() => run.mutate()}>
                {run.isPending ? 'Running…' : 'Run now'}
              </button>
            ) : null}
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
        {check.check_type === 'outside' ? (
          <>An integration’s alerts on this entity (its worst open alert is the state), </>
        ) : check.check_type === 'push' ? (
          <>A push check your agent reports to, {everyWords(check.interval_seconds)}, </>
        ) : (
          <>
            <code>{targetOf(check)}</code> {everyWords(check.interval_seconds)},{' '}
          </>
        )}
        on <EntityLink check={check} />
      </p>
      {saved ? <Notice>{saved}</Notice> : null}
      <ErrorNote error={toggle.error ?? run.error ?? removeError} />
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
        <PushInstructions
          checkId={check.id}
          intervalSeconds={check.interval_seconds}
          schedule={check.config.schedule}
        />
      ) : null}
      {check.check_type === 'push' ? <LastPings checkId={check.id} /> : null}
      <Section title="Charts">
        <CheckCharts checkId={check.id} />
      </Section>
      <VitalsPanel check={check} />
      <LocationPanel check={check} />
      {/* A new result or an edit (the SLO target) changes the figures. */}
      <UptimeSection
        subject={{ kind: 'check', id: check.id }}
        changedAt={`${check.last_result_at} ${check.updated_at}`}
      />
      <Section title="Recent results">
        <RecentResults checkId={check.id} linked={params.get('result') ?? undefined} />
      </Section>
      <CheckNotifications checkId={check.id} />
      <WhyPaged subject={{ check_id: check.id }} />
    </Page>
  );
}
