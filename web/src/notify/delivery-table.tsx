import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { Time } from '../ui/bits';
import { ErrorNote } from '../ui/feedback';
import { Table } from '../ui/table';
import { DigestSummary } from './digest-alerts';
import { deliveriesChanged } from './queries';
import { EVENT_WORDS } from './words';

type Delivery = Schemas['Delivery'];
export const STATUSES = ['pending', 'retrying', 'sent', 'failed', 'skipped', 'deferred', 'folded'] as const;
type Status = (typeof STATUSES)[number];

/** The delivery log's filters in the URL, so a link reproduces the view. */
export const FILTER_KEYS = ['entity_id', 'check_id', 'channel_id', 'status'] as const;

/** The channel a delivery went to, in words: a shared one's name, else "own slack channel" or none. */
export function channelWords(d: Delivery): string {
  if (d.channel_name) return d.channel_name;
  if (d.channel_type) return `own ${d.channel_type} channel`;
  return 'no channel';
}

/** The log's URL with one more filter (the others kept), so the link reproduces that view. */
function withFilter(params: URLSearchParams, key: (typeof FILTER_KEYS)[number], value: string): string {
  const next = new URLSearchParams(params);
  next.set(key, value);
  return `?${next.toString()}`;
}

const STATUS_CLASS: Record<Status, string> = {
  sent: 'state-up',
  failed: 'state-down',
  retrying: 'state-degraded',
  pending: 'state-unknown',
  skipped: 'state-unknown',
  // A recovery waiting for its cooldown's end: its reason says when it is due.
  deferred: 'state-degraded',
  folded: 'state-unknown',
};

/** A cell's name with an "only" link that narrows the log to it. */
function Narrowed({
  params,
  filterKey,
  id,
  what,
  children,
}: {
  params: URLSearchParams;
  filterKey: (typeof FILTER_KEYS)[number];
  id: string;
  what: string;
  children: ReactNode;
}) {
  return (
    <>
      {children}{' '}
      <Link className="filter-link" to={withFilter(params, filterKey, id)}>
        only<span className="visually-hidden"> deliveries {what}</span>
      </Link>
    </>
  );
}

/** The deliveries of one page of the log: each with links narrowing the log to its entity, check or channel. */
export function DeliveryTable({
  rows,
  params,
  onRetried,
}: {
  rows: readonly Delivery[];
  params: URLSearchParams;
  onRetried: (d: Delivery) => void;
}) {
  return (
    <Table
      label="Deliveries"
      rows={rows}
      rowKey={(d) => d.id}
      columns={[
        { header: 'Time', cell: (d) => <Time iso={d.created_at} /> },
        { header: 'Event', cell: (d) => EVENT_WORDS[d.event] },
        {
          header: 'Entity',
          cell: (d) =>
            d.kind === 'digest' && d.digest ? (
              <DigestSummary d={d} digest={d.digest} />
            ) : d.entity_id && d.entity_name ? (
              <Narrowed params={params} filterKey="entity_id" id={d.entity_id} what={`of ${d.entity_name}`}>
                {d.blueprint_slug && d.entity_slug ? (
                  <Link to={`/entities/${d.blueprint_slug}/${d.entity_slug}`}>{d.entity_name}</Link>
                ) : (
                  d.entity_name
                )}
              </Narrowed>
            ) : (
              <span className="muted">none (a channel test)</span>
            ),
        },
        {
          header: 'Check',
          cell: (d) =>
            d.kind === 'digest' && d.digest ? (
              <span className="muted">several</span>
            ) : d.check_id ? (
              <Narrowed
                params={params}
                filterKey="check_id"
                id={d.check_id}
                what={`of ${d.check_name ?? 'this check'}`}
              >
                {d.check_name ? (
                  <Link to={`/checks/${d.check_id}`}>{d.check_name}</Link>
                ) : (
                  <span className="muted">a deleted check</span>
                )}
              </Narrowed>
            ) : (
              <span className="muted">none</span>
            ),
        },
        {
          header: 'Channel',
          cell: (d) =>
            d.channel_id ? (
              <Narrowed
                params={params}
                filterKey="channel_id"
                id={d.channel_id}
                what={`to ${channelWords(d)}`}
              >
                {channelWords(d)}
              </Narrowed>
            ) : (
              <span className="muted">none</span>
            ),
        },
        {
          header: 'Outcome',
          cell: (d) => <span className={`badge ${STATUS_CLASS[d.status]}`}>{d.status}</span>,
        },
        { header: 'Attempts', cell: (d) => d.attempts },
        { header: 'Reason or error', cell: (d) => <ReasonCell d={d} onRetried={onRetried} /> },
      ]}
    />
  );
}

/** Why a delivery went as it did, its attempts, and Retry for a failed one. */
function ReasonCell({ d, onRetried }: { d: Delivery; onRetried: (d: Delivery) => void }) {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () =>
      must(api.POST('/v1/notify/logs/{id}/retry', { params: { path: { id: d.id } }, body: {} })),
    onSuccess: onRetried,
    onSettled: () => deliveriesChanged(queryClient),
  });
  return (
    <>
      {d.reason ?? d.error ?? (d.status === 'sent' ? '—' : '')}
      {d.attempt_log.length > 0 ? (
        <details className="attempt-log">
          <summary>Attempt log ({d.attempt_log.length})</summary>
          <ol>
            {d.attempt_log.map((a) => (
              <li key={a.at}>
                <Time iso={a.at} />:{' '}
                {[a.status_code ? `HTTP ${a.status_code}` : '', a.error ?? ''].filter(Boolean).join(': ') ||
                  'no answer'}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {canWrite && d.status === 'failed' ? (
        <div className="row">
          <button type="button" disabled={retry.isPending} onClick={() => retry.mutate()}>
            {retry.isPending ? 'Retrying…' : 'Retry'}
          </button>
        </div>
      ) : null}
      <ErrorNote error={retry.error} title="The retry did not start." />
    </>
  );
}
