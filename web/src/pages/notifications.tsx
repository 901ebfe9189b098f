import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { useCheckNames } from '../checks/check-names';
import { deliveriesChanged, deliveryKeys, notifyQueries } from '../notify/queries';
import { ChannelTarget, deliveryInWords, EVENT_WORDS } from '../notify/words';
import { useSession } from '../session';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';
import { scrollRegion } from '../ui/scroll-region';

type Delivery = Schemas['Delivery'];
const STATUSES = ['pending', 'retrying', 'sent', 'failed', 'skipped', 'deferred', 'folded'] as const;
type Status = (typeof STATUSES)[number];

/** The delivery log (filters, pages, attempts, retry) and every channel of the account. */
export function NotificationsPage() {
  return (
    <Page title="Notifications">
      <DeliveryLog />
      <AllChannels />
    </Page>
  );
}

function DeliveryLog() {
  const [params, setParams] = useSearchParams();
  const checkId = params.get('check_id') ?? '';
  const channelId = params.get('channel_id') ?? '';
  const status = (params.get('status') ?? '') as Status | '';
  const pages = useCursorPages();
  const { cursor } = pages;
  const [retried, setRetried] = useState<Delivery>();
  const { names } = useCheckNames();
  const channels = useQuery(notifyQueries.channels(undefined, 200));
  const filters = { check_id: checkId, channel_id: channelId, status, cursor: cursor ?? '' };
  const logs = useQuery({
    queryKey: deliveryKeys.list(filters),
    queryFn: () =>
      must(
        api.GET('/v1/notify/logs', {
          params: {
            query: {
              limit: 50,
              ...(checkId ? { check_id: checkId } : {}),
              ...(channelId ? { channel_id: channelId } : {}),
              ...(status ? { status } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
  });
  const setFilter = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    pages.reset();
    setParams(next, { replace: true });
  };
  const channelLabel = (c: Schemas['NotificationChannel']) =>
    c.check_id === null
      ? `${c.channel_type} · shared: ${c.name ?? c.id}`
      : `${c.channel_type} · ${names.get(c.check_id) ?? c.check_id} · ${c.id.slice(-6)}`;
  return (
    <Section title="Delivery log">
      <search className="form-grid" aria-label="Filter deliveries">
        <SelectField
          label="Check"
          value={checkId}
          onChange={(v) => setFilter('check_id', v)}
          options={[
            { value: '', label: 'All checks' },
            ...[...names].map(([id, name]) => ({ value: id, label: name })),
          ]}
        />
        <SelectField
          label="Channel"
          value={channelId}
          onChange={(v) => setFilter('channel_id', v)}
          options={[
            { value: '', label: 'All channels' },
            ...(channels.data?.channels ?? []).map((c) => ({ value: c.id, label: channelLabel(c) })),
          ]}
        />
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => setFilter('status', v)}
          options={[{ value: '', label: 'Any status' }, ...STATUSES]}
        />
      </search>
      <ErrorNote error={logs.error} title="The delivery log could not be read." />
      {retried ? <Notice>Retried: {deliveryInWords(retried)}</Notice> : null}
      {logs.isPending ? <Loading what="deliveries" /> : null}
      {logs.data && logs.data.logs.length === 0 ? (
        <Empty
          title={checkId || channelId || status ? 'No delivery matches these filters.' : 'No deliveries yet.'}
        >
          Every state change of a check with a policy is logged here, sent or not; "Send test" on a check page
          adds one too.
        </Empty>
      ) : null}
      {logs.data && logs.data.logs.length > 0 ? (
        <div className="table-wrap" {...scrollRegion('Deliveries')}>
          <table aria-label="Deliveries">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Check</th>
                <th scope="col">Channel</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Reason or error</th>
              </tr>
            </thead>
            <tbody>
              {logs.data.logs.map((d) => (
                <DeliveryRow key={d.id} d={d} checkName={names.get(d.check_id)} onRetried={setRetried} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <CursorPager
        pages={pages}
        next={logs.data?.next_cursor}
        first="Newest deliveries"
        more="Older deliveries"
      />
    </Section>
  );
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

function DeliveryRow({
  d,
  checkName,
  onRetried,
}: {
  d: Delivery;
  checkName: string | undefined;
  onRetried: (d: Delivery) => void;
}) {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () =>
      must(api.POST('/v1/notify/logs/{id}/retry', { params: { path: { id: d.id } }, body: {} })),
    onSuccess: onRetried,
    onSettled: () => deliveriesChanged(queryClient),
  });
  return (
    <tr>
      <td>
        <Time iso={d.created_at} />
      </td>
      <td>{EVENT_WORDS[d.event]}</td>
      <td>
        <Link to={`/checks/${d.check_id}`}>{checkName ?? d.check_id}</Link>
      </td>
      <td>{d.channel_type ?? <span className="muted">none</span>}</td>
      <td>
        <span className={`badge ${STATUS_CLASS[d.status]}`}>{d.status}</span>
      </td>
      <td>{d.attempts}</td>
      <td>
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
      </td>
    </tr>
  );
}

function AllChannels() {
  const { names } = useCheckNames();
  const pages = useCursorPages();
  const { cursor } = pages;
  const channels = useQuery(notifyQueries.channels(cursor, 50));
  return (
    <Section title="All channels">
      <ErrorNote error={channels.error} title="The channels could not be read." />
      {channels.isPending ? <Loading what="channels" /> : null}
      {channels.data && channels.data.channels.length === 0 ? (
        <Empty title="No channels yet.">
          Add a channel on a check's page, under Notifications, or a shared one on the Channels page.
        </Empty>
      ) : null}
      {channels.data && channels.data.channels.length > 0 ? (
        <div className="table-wrap" {...scrollRegion('Channels')}>
          <table aria-label="Channels">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Target</th>
                <th scope="col">Check</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {channels.data.channels.map((c) => (
                <tr key={c.id}>
                  <td>{c.channel_type}</td>
                  <td>
                    <ChannelTarget channel={c} />
                  </td>
                  <td>
                    {c.check_id === null ? (
                      <Link to="/channels">Shared: {c.name}</Link>
                    ) : (
                      <Link to={`/checks/${c.check_id}`}>{names.get(c.check_id) ?? c.check_id}</Link>
                    )}
                  </td>
                  <td>
                    <Time iso={c.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <CursorPager
        pages={pages}
        next={channels.data?.next_cursor}
        first="First channels"
        more="More channels"
      />
    </Section>
  );
}
