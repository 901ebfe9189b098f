import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../api/client';
import { channelWords, DeliveryTable, FILTER_KEYS, STATUSES } from '../notify/delivery-table';
import { EntityPicker, type PickedEntity } from '../notify/entity-picker';
import { NotifyTabs } from '../notify/notify-tabs';
import { type DeliveryFilter, notifyQueries } from '../notify/queries';
import { ChannelTarget, deliveryInWords } from '../notify/words';
import { Time } from '../ui/bits';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Page, Section } from '../ui/page';
import { CursorPager, useCursorPages } from '../ui/pager';
import { useQueryParams } from '../ui/query-params';
import { Table } from '../ui/table';

type Delivery = Schemas['Delivery'];

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
      {rows.length > 0 ? <DeliveryTable rows={rows} params={params} onRetried={setRetried} /> : null}
      <CursorPager pages={pages} next={logs.data?.next_cursor} of="deliveries" />
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
        <Table
          label="Channels"
          rows={channels.data.channels}
          rowKey={(c) => c.id}
          columns={[
            { header: 'Type', cell: (c) => c.channel_type },
            { header: 'Target', cell: (c) => <ChannelTarget channel={c} /> },
            {
              header: 'Check',
              cell: (c) =>
                c.check_id === null ? (
                  <Link to="/channels">Shared: {c.name}</Link>
                ) : (
                  <Link to={`/checks/${c.check_id}`}>{c.check_name ?? 'a check'}</Link>
                ),
            },
            { header: 'Added', cell: (c) => <Time iso={c.created_at} /> },
          ]}
        />
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
