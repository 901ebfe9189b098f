import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type ActionBodies, ActionForm } from '../actions/action-form';
import { ExecutionsList } from '../actions/executions';
import { actionKeys, actionQueries } from '../actions/queries';
import { RunPanel } from '../actions/run-panel';
import { api, must } from '../api/client';
import { checkNameIn, useCheckNames } from '../checks/check-names';
import { refreshDelay, useRefreshOnChange } from '../live/refresh';
import { useSession } from '../session';
import { Time } from '../ui/bits';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { Page, Section } from '../ui/page';
import { Table } from '../ui/table';

/** The tenant's actions; admins create new ones here. */
export function ActionsPage() {
  const { isAdmin } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const q = useQuery(actionQueries.list());
  const checks = useCheckNames();
  const create = async ({ create: body }: ActionBodies) => {
    const made = await must(api.POST('/v1/actions', { body }));
    await queryClient.invalidateQueries({ queryKey: actionKeys.list() });
    navigate(`/actions/${made.id}`);
  };
  return (
    <Page
      title="Actions"
      actions={
        isAdmin && !creating ? (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New action
          </button>
        ) : null
      }
    >
      <p className="muted">
        An action is an outbound HTTP call Vigil makes for you — by hand, when a check’s entity changes state,
        or on a schedule. Every run is recorded as an execution.
      </p>
      {isAdmin && creating ? (
        <Section title="New action">
          <ActionForm submitLabel="Create action" onSubmit={create} onCancel={() => setCreating(false)} />
        </Section>
      ) : null}
      <Section title="All actions">
        {q.isLoading ? <Loading what="actions" /> : null}
        <ErrorNote error={q.error} title="The actions could not be loaded." />
        {q.data && q.data.length === 0 ? (
          <Empty title="No actions yet.">
            {isAdmin ? 'Create one with “New action”.' : 'An admin of your account can create them.'}
          </Empty>
        ) : null}
        {q.data && q.data.length > 0 ? (
          <Table
            label="Actions"
            rows={q.data}
            rowKey={(a) => a.id}
            columns={[
              { header: 'Name', cell: (a) => <Link to={`/actions/${a.id}`}>{a.name}</Link> },
              {
                header: 'Method and URL',
                className: 'break',
                cell: (a) => (
                  <code>
                    {a.method} {a.url}
                  </code>
                ),
              },
              { header: 'Trigger', cell: (a) => triggerText(a, checks) },
              { header: 'Updated', cell: (a) => <Time iso={a.updated_at} /> },
            ]}
          />
        ) : null}
      </Section>
    </Page>
  );
}

function triggerText(
  a: {
    trigger_type: string;
    trigger_to_state: string | null;
    interval_seconds: number | null;
    check_id: string | null;
  },
  checks: ReturnType<typeof useCheckNames>,
): string {
  if (a.trigger_type === 'state_change')
    return `on ${a.trigger_to_state ?? 'any state change'}${a.check_id ? ` of ${checkNameIn(checks, a.check_id)}` : ''}`;
  if (a.trigger_type === 'schedule') return `every ${a.interval_seconds} s`;
  return 'manual';
}

/** One action: what it sends, edit and delete (admin), run with variables, and its executions. */
export function ActionPage() {
  const { id = '' } = useParams();
  const { isAdmin, canWrite } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  /** Set by a save, cleared by the next edit: the edit form closes, so the page says it was saved. */
  const [saved, setSaved] = useState(false);
  const q = useQuery({
    ...actionQueries.detail(id),
    // A schedule action's "next run" moves when it runs: read it again just after.
    refetchInterval: (q) =>
      q.state.data?.next_run_at ? refreshDelay([q.state.data.next_run_at], Date.now()) : false,
  });
  const checks = useCheckNames();
  useRefreshOnChange(q.data?.next_run_at, [actionKeys.executions(id)]);
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/v1/actions/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: actionKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: actionKeys.list() });
      navigate('/actions');
    },
  });
  const update = async ({ update: body }: ActionBodies) => {
    const saved = await must(api.PUT('/v1/actions/{id}', { params: { path: { id } }, body }));
    queryClient.setQueryData(actionKeys.detail(id), saved);
    await queryClient.invalidateQueries({ queryKey: actionKeys.list() });
    setEditing(false);
    setSaved(true);
  };
  const a = q.data;
  return (
    <Page
      title={a ? a.name : 'Action'}
      actions={
        a && isAdmin ? (
          <>
            {editing ? null : (
              <button
                type="button"
                onClick={() => {
                  setSaved(false);
                  setEditing(true);
                }}
              >
                Edit
              </button>
            )}
            <ConfirmButton
              label="Delete"
              question={`Delete the action “${a.name}” and its execution history?`}
              confirmLabel="Delete action"
              onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            />
          </>
        ) : null
      }
    >
      <p>
        <Link to="/actions">← All actions</Link>
      </p>
      {q.isLoading ? <Loading what="the action" /> : null}
      <ErrorNote error={q.error} title="The action could not be loaded." />
      <ErrorNote error={remove.error} title="The action was not deleted." />
      {saved && !editing ? <Notice>The action was saved.</Notice> : null}
      {a && editing && isAdmin ? (
        <Section title="Edit">
          <ActionForm
            action={a}
            submitLabel="Save action"
            onSubmit={update}
            onCancel={() => setEditing(false)}
          />
        </Section>
      ) : null}
      {a && !editing ? (
        <Section title="Request">
          <dl className="facts">
            <dt>Method and URL</dt>
            <dd className="break">
              <code>
                {a.method} {a.url}
              </code>
            </dd>
            <dt>Headers</dt>
            <dd>
              {Object.keys(a.headers).length === 0 ? (
                <span className="muted">none</span>
              ) : (
                Object.entries(a.headers).map(([k, v]) => (
                  <div key={k}>
                    <code>
                      {k}: {v}
                    </code>
                  </div>
                ))
              )}
            </dd>
            <dt>Trigger</dt>
            <dd>{triggerText(a, checks)}</dd>
            {a.next_run_at ? (
              <>
                <dt>Next run</dt>
                <dd>
                  <Time iso={a.next_run_at} />
                </dd>
              </>
            ) : null}
            <dt>Timeout</dt>
            <dd>{a.timeout_ms} ms</dd>
            <dt>Pipeline deadline</dt>
            <dd>{a.pipeline_timeout_seconds} s</dd>
          </dl>
          <h3>Body template</h3>
          {a.body_template ? (
            <pre className="snippet">{a.body_template}</pre>
          ) : (
            <p className="muted">No body.</p>
          )}
        </Section>
      ) : null}
      {a && canWrite ? (
        <Section title="Run">
          <RunPanel actionId={a.id} />
        </Section>
      ) : null}
      {a ? (
        <Section title="Executions">
          <ExecutionsList actionId={a.id} />
        </Section>
      ) : null}
    </Page>
  );
}
