import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, must, type Schemas } from '../api/client';
import { DigestSummary } from '../notify/digest-alerts';
import { EntityPicker, type PickedEntity } from '../notify/entity-picker';
import { NotifyTabs } from '../notify/notify-tabs';
import { type DeliveryFilter, deliveriesChanged, notifyQueries } from '../notify/queries';
import { ChannelTarget, deliveryInWords, EVENT_WORDS } from '../notify/words';
import { useSession } from '../session';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';
import { useQueryParams } from '../ui/query-params';
import { scrollRegion } from '../ui/scroll-region';

type Delivery = Schemas['Delivery'];
const STATUSES = ['pending', 'retrying', 'sent', 'failed', 'skipped', 'deferred', 'folded'] as const;
type Status = (typeof STATUSES)[number];

/** The delivery log (filters, pages, attempts, retry) and every channel of the account. */
export function NotificationsPage() {
  return (
    <Page title="Notifications">
      <NotifyTabs />
      <DeliveryLog />
      <AllChannels />
    </Page>
  );
}

/** The delivery log's filters in the URL, so a link reproduces the view. */
const FILTER_KEYS = ['entity_id', 'check_id', 'channel_id', 'status'] as const;

function DeliveryLog() {
  const [params, changeParams] = useQueryParams();
  const filter: DeliveryFilter = {
    entity_id: params.get('entity_id') ?? '',
    check_id: params.get('check_id') ?? '',
    channel_id: params.get('channel_id') ?? '',
    status: (params.get('status') ?? '') as DeliveryFilter['status'],
  };
  const pages = useCursorPages();
  const [retried, setRetried] = useState<Delivery>();
  // The name a filter shows: the one picked here, else the rows' (every row matches the filter).
  const [picked, setPicked] = useState<PickedEntity>();
  const channels = useQuery(notifyQueries.channels(undefined, 200));
  const logs = useQuery(notifyQueries.deliveries(filter, pages.cursor));
  const setFilter = (k: (typeof FILTER_KEYS)[number], v: string) => {
    pages.reset();
    changeParams({ [k]: v });
  };
  const rows = logs.data?.logs ?? [];
  const first = rows[0];
  const sharedChannels = (channels.data?.channels ?? []).filter((c) => c.check_id === null);
  const filtered = FILTER_KEYS.some((k) => filter[k] !== '');
  const entityName =
    (picked?.id === filter.entity_id ? picked.name : undefined) ?? first?.entity_name ?? 'the chosen entity';
  const channelName =
    sharedChannels.find((c) => c.id === filter.channel_id)?.name ??
    (first ? channelWords(first) : 'the chosen channel');
  return (
    <Section title="Delivery log">
      <search aria-label="Filter deliveries">
        <div className="form-grid">
          <SelectField
            label="Outcome"
            value={filter.status}
            onChange={(v) => setFilter('status', v)}
            options={[{ value: '', label: 'Any outcome' }, ...STATUSES]}
          />
          <SelectField
            label="Shared channel"
            value={sharedChannels.some((c) => c.id === filter.channel_id) ? filter.channel_id : ''}
            onChange={(v) => setFilter('channel_id', v)}
            options={[
              { value: '', label: 'Any channel' },
              ...sharedChannels.map((c) => ({
                value: c.id,
                label: `${c.name ?? 'Shared'} (${c.channel_type})`,
              })),
            ]}
          />
        </div>
        <EntityPicker
          label="Entity"
          onPick={(e) => {
            setPicked(e);
            setFilter('entity_id', e.id);
          }}
        />
        {filtered ? (
          <ul className="chips" aria-label="Active filters">
            {filter.entity_id ? (
              <FilterChip what={`Entity: ${entityName}`} onRemove={() => setFilter('entity_id', '')} />
            ) : null}
            {filter.check_id ? (
              <FilterChip
                what={`Check: ${first?.check_name ?? 'the chosen check'}`}
                onRemove={() => setFilter('check_id', '')}
              />
            ) : null}
            {filter.channel_id ? (
              <FilterChip what={`Channel: ${channelName}`} onRemove={() => setFilter('channel_id', '')} />
            ) : null}
            {filter.status ? (
              <FilterChip what={`Outcome: ${filter.status}`} onRemove={() => setFilter('status', '')} />
            ) : null}
          </ul>
        ) : null}
      </search>
      <ErrorNote error={logs.error} title="The delivery log could not be read." />
      {retried ? <Notice>Retried: {deliveryInWords(retried)}</Notice> : null}
      {logs.isPending ? <Loading what="deliveries" /> : null}
      {logs.data && rows.length === 0 ? (
        <Empty title={filtered ? 'No delivery matches these filters on this page.' : 'No deliveries yet.'}>
          {filtered && logs.data.next_cursor
            ? 'A page reads a bounded stretch of the log: older deliveries may still match.'
            : 'Every state change of a check is logged here, sent or not; "Send test" on a check or a shared channel adds one too.'}
        </Empty>
      ) : null}
      {rows.length > 0 ? (
        <div className="table-wrap" {...scrollRegion('Deliveries')}>
          <table aria-label="Deliveries">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Entity</th>
                <th scope="col">Check</th>
                <th scope="col">Channel</th>
                <th scope="col">Outcome</th>
                <th scope="col">Attempts</th>
                <th scope="col">Reason or error</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <DeliveryRow key={d.id} d={d} params={params} onRetried={setRetried} />
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

function FilterChip({ what, onRemove }: { what: string; onRemove: () => void }) {
  return (
    <li>
      <span>{what}</span>
      <button type="button" onClick={onRemove}>
        Remove<span className="visually-hidden"> filter {what}</span>
      </button>
    </li>
  );
}

/** The channel a delivery went to, in words: a shared one's name, else "own slack channel" or none. */
function channelWords(d: Delivery): string {
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

function DeliveryRow({
  d,
  params,
  onRetried,
}: {
  d: Delivery;
  params: URLSearchParams;
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
        {d.kind === 'digest' && d.digest ? (
          <DigestSummary d={d} digest={d.digest} />
        ) : d.entity_id && d.entity_name ? (
          <>
            {d.blueprint_slug && d.entity_slug ? (
              <Link to={`/entities/${d.blueprint_slug}/${d.entity_slug}`}>{d.entity_name}</Link>
            ) : (
              d.entity_name
            )}{' '}
            <Link className="filter-link" to={withFilter(params, 'entity_id', d.entity_id)}>
              only<span className="visually-hidden"> deliveries of {d.entity_name}</span>
            </Link>
          </>
        ) : (
          <span className="muted">none (a channel test)</span>
        )}
      </td>
      <td>
        {d.kind === 'digest' && d.digest ? (
          <span className="muted">several</span>
        ) : d.check_id ? (
          <>
            {d.check_name ? (
              <Link to={`/checks/${d.check_id}`}>{d.check_name}</Link>
            ) : (
              <span className="muted">a deleted check</span>
            )}{' '}
            <Link className="filter-link" to={withFilter(params, 'check_id', d.check_id)}>
              only<span className="visually-hidden"> deliveries of {d.check_name ?? 'this check'}</span>
            </Link>
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </td>
      <td>
        {d.channel_id ? (
          <>
            {channelWords(d)}{' '}
            <Link className="filter-link" to={withFilter(params, 'channel_id', d.channel_id)}>
              only<span className="visually-hidden"> deliveries to {channelWords(d)}</span>
            </Link>
          </>
        ) : (
          <span className="muted">none</span>
        )}
      </td>
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
                      <Link to={`/checks/${c.check_id}`}>{c.check_name ?? 'a check'}</Link>
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
