import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { CheckCharts } from '../charts/check-charts-panel';
import { draftOf } from '../checks/check-draft';
import { CheckForm } from '../checks/check-form';
import { CheckConfig, RecentResults, targetOf } from '../checks/check-summary';
import { EntityLink } from '../checks/check-table';
import { LocationPanel } from '../checks/location-panel';
import { LastPings } from '../checks/ping-log';
import { PushInstructions } from '../checks/push-urls';
import { checkKeys, checkQueries, checksChanged } from '../checks/queries';
import { RunTimeline } from '../checks/run-timeline';
import { VitalsPanel } from '../checks/vitals-panel';
import { refreshDelay, useRefreshOnChange } from '../live/refresh';
import { CheckNotifications } from '../notify/check-notifications';
import { WhyPaged } from '../notify/why-paged';
import { useSession } from '../session';
import { StateBadge, Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { ErrorNote, Loading, Notice } from '../ui/feedback';
import { Page, Section } from '../ui/page';
import { everyWords } from '../ui/time-words';
import { UptimeSection } from '../uptime/uptime-section';

type Check = Schemas['Check'];
/** Run now: one probe of the check (POST /v1/checks/{id}/run): 200 with its result, or 202 dispatched. */
const runCheck = (id: string) => must(api.POST('/v1/checks/{id}/run', { params: { path: { id } } }));
type RunAnswer = Awaited<ReturnType<typeof runCheck>>;

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
      {check.check_type === 'push' ? <RunTimeline checkId={check.id} /> : null}
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
