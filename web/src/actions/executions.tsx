import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must, type Schemas } from '../api/client';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Table } from '../ui/table';
import { actionKeys, actionQueries } from './queries';

/** How often the executions list reads again: runs come from triggers, schedules and other people. */
const EXECUTIONS_REFRESH_MS = 10_000;

type Execution = Schemas['ActionExecution'];

/** A dispatch status in words and colour. */
function DispatchBadge({ status }: { status: Execution['dispatch_status'] }) {
  const tone =
    status === 'success'
      ? 'up'
      : status === 'running'
        ? 'unknown'
        : status === 'blocked' || status === 'interrupted'
          ? 'degraded'
          : 'down';
  return <span className={`badge state-${tone}`}>{status}</span>;
}

/** What one execution did: status, code, latency, error and the start of the answer. */
export function ExecutionSummary({ execution: x }: { execution: Execution }) {
  return (
    <div className="execution">
      <dl className="facts">
        <dt>Dispatch</dt>
        <dd>
          <DispatchBadge status={x.dispatch_status} />
        </dd>
        <dt>Status code</dt>
        <dd>{x.status_code ?? '—'}</dd>
        <dt>Latency</dt>
        <dd>{x.latency_ms === null ? '—' : `${x.latency_ms} ms`}</dd>
        <dt>Pipeline</dt>
        <dd>{x.pipeline_status ?? 'not reported'}</dd>
        <dt>Execution</dt>
        <dd>
          <code>{x.id}</code>
        </dd>
      </dl>
      {x.error_message ? <p className="field-error">Error: {x.error_message}</p> : null}
      <h4>Response</h4>
      {x.response_snippet ? (
        <pre className="snippet">{x.response_snippet}</pre>
      ) : (
        <p className="muted">The answer had no body.</p>
      )}
    </div>
  );
}

/** The action's executions, newest first, a page at a time; each opens to its answer and logs. */
export function ExecutionsList({ actionId }: { actionId: string }) {
  const [open, setOpen] = useState<string | undefined>();
  const q = useInfiniteQuery({
    queryKey: actionKeys.executions(actionId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/v1/actions/{id}/executions', {
          params: {
            path: { id: actionId },
            query: { limit: 20, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: EXECUTIONS_REFRESH_MS,
  });
  if (q.isLoading) return <Loading what="executions" />;
  if (q.error) return <ErrorNote error={q.error} title="The executions could not be loaded." />;
  const rows = q.data?.pages.flatMap((p) => p.executions) ?? [];
  if (rows.length === 0)
    return (
      <Empty title="No executions yet.">
        Run the action, or wait for its trigger: every run is recorded here.
      </Empty>
    );
  return (
    <>
      <Table
        label="Executions"
        rows={rows}
        rowKey={(x) => x.id}
        detail={(x) =>
          open === x.id
            ? {
                id: `exe-${x.id}`,
                content: (
                  <>
                    <ExecutionSummary execution={x} />
                    <ExecutionLogs execId={x.id} />
                  </>
                ),
              }
            : null
        }
        columns={[
          { header: 'When', cell: (x) => <Time iso={x.created_at} /> },
          { header: 'Trigger', cell: (x) => x.trigger },
          { header: 'Dispatch', cell: (x) => <DispatchBadge status={x.dispatch_status} /> },
          { header: 'Code', cell: (x) => x.status_code ?? '—' },
          { header: 'Pipeline', cell: (x) => x.pipeline_status ?? '—' },
          {
            header: 'Details',
            cell: (x) => (
              <button
                type="button"
                aria-expanded={open === x.id}
                aria-controls={`exe-${x.id}`}
                onClick={() => setOpen(open === x.id ? undefined : x.id)}
              >
                {open === x.id ? 'Hide' : 'Show'} <span className="sr-only">execution {x.id}</span>
              </button>
            ),
          },
        ]}
      />
      {q.hasNextPage ? (
        <button type="button" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {q.isFetchingNextPage ? 'Loading…' : 'Older executions'}
        </button>
      ) : null}
    </>
  );
}

function ExecutionLogs({ execId }: { execId: string }) {
  const q = useQuery(actionQueries.executionLogs(execId));
  return (
    <>
      <h4>Pipeline logs</h4>
      {q.isLoading ? <Loading what="logs" /> : null}
      <ErrorNote error={q.error} title="The logs could not be loaded." />
      {q.data && q.data.length === 0 ? (
        <p className="muted">No log lines: a pipeline reports them to the execution’s callback URL.</p>
      ) : null}
      {q.data && q.data.length > 0 ? (
        <pre className="snippet">{q.data.map((l) => `${l.at}  ${l.line}`).join('\n')}</pre>
      ) : null}
    </>
  );
}
