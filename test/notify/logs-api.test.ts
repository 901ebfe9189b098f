import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logsPageSchema } from '../../lib/notify/deliveries/delivery-responses.ts';
import type { DeliveryRecord, DeliveryStatus } from '../../lib/notify/items/delivery-items.ts';
import { newId } from '../../lib/platform/ids.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const DELIVERY_KEYS = [
  'attempt_log',
  'attempts',
  'blueprint_slug',
  'channel_id',
  'channel_name',
  'channel_type',
  'check_id',
  'check_name',
  'created_at',
  'digest',
  'entity_id',
  'entity_name',
  'entity_slug',
  'error',
  'event',
  'id',
  'kind',
  'reason',
  'sent_at',
  'status',
  'transition_id',
  'updated_at',
];

let clockMs = Date.now() - 60_000;

/** A delivery record as the flow writes one; each later call is newer by a millisecond. */
function delivery(
  tenantId: string,
  fields: { check_id: string; channel_id: string | null; status: DeliveryStatus; created_at?: string },
): DeliveryRecord {
  clockMs += 1;
  const at = fields.created_at ?? new Date(clockMs).toISOString();
  const entityId = newId('ent', clockMs);
  const transitionId = newId('trn', clockMs);
  return {
    id: newId('dlv', Date.parse(at)),
    tenant_id: tenantId,
    channel_id: fields.channel_id,
    check_id: fields.check_id,
    entity_id: entityId,
    transition_id: transitionId,
    channel_type: fields.channel_id ? 'webhook' : null,
    kind: 'alert',
    status: fields.status,
    reason: fields.status === 'skipped' ? 'silenced' : null,
    attempts: fields.status === 'sent' ? 1 : 0,
    attempt_log: fields.status === 'sent' ? [{ at, status_code: 200, error: null }] : [],
    sent_at: fields.status === 'sent' ? at : null,
    error: null,
    created_at: at,
    updated_at: at,
    event: {
      entity_id: entityId,
      entity_name: 'api',
      check_id: fields.check_id,
      tenant_id: tenantId,
      from_state: 'up',
      to_state: 'down',
      transition_id: transitionId,
      timestamp: at,
    },
  };
}

describe.each(runtimes)('notification logs API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let tenant: { tenantId: string; key: string };
  const checkA = newId('chk');
  const checkB = newId('chk');
  const channel1 = newId('chn');
  const channel2 = newId('chn');
  /** Seeded for `tenant`, oldest first. */
  const seeded: DeliveryRecord[] = [];
  const list = async (query = '', key = tenant.key) => {
    const res = await api.request('GET', `/v1/notify/logs${query}`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body as { logs: { id: string; [k: string]: unknown }[]; next_cursor: string | null };
  };
  const ids = (records: DeliveryRecord[]) => records.map((r) => r.id).reverse();

  beforeAll(async () => {
    api = await start();
    tenant = await api.createTenant('Logs');
    const plan: [string, string | null, DeliveryStatus][] = [
      [checkA, channel1, 'sent'],
      [checkA, channel2, 'failed'],
      [checkB, channel1, 'skipped'],
      [checkA, null, 'skipped'],
      [checkB, channel2, 'sent'],
      [checkA, channel1, 'retrying'],
      [checkB, channel1, 'sent'],
    ];
    for (const [check_id, channel_id, status] of plan) {
      const record = delivery(tenant.tenantId, { check_id, channel_id, status });
      expect(await api.app.deliveries.putNew(record, 30)).toBe(true);
      seeded.push(record);
    }
  });
  afterAll(async () => {
    await api.close();
  });

  it('lists the tenant’s deliveries newest first with the documented fields', async () => {
    const page = await list();
    expect(page.logs.map((l) => l.id)).toEqual(ids(seeded));
    expect(page.next_cursor).toBeNull();
    expect(Object.keys(page.logs[0] ?? {}).sort()).toEqual(DELIVERY_KEYS);
    expect(logsPageSchema.safeParse(page).error).toBeUndefined();
    const sent = page.logs.find((l) => l.id === seeded[0]?.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, kind: 'alert', channel_type: 'webhook' });
    expect(sent?.attempt_log).toEqual([{ at: seeded[0]?.created_at, status_code: 200, error: null }]);
  });

  it('says in one word which event each delivery carried, for records stored without that word too', async () => {
    // Stored as the flow has always written them: the word is derived from kind and the state change.
    const other = await api.createTenant('LogsEvents');
    const cases: [DeliveryRecord['kind'], string, string, string][] = [
      ['alert', 'up', 'down', 'down'],
      ['alert', 'up', 'degraded', 'degraded'],
      ['alert', 'down', 'up', 'recovery'],
      ['alert', 'degraded', 'up', 'recovery'],
      ['alert', 'unknown', 'up', 'up'],
      ['alert', 'up', 'unknown', 'unknown'],
      ['repeat', 'up', 'down', 'repeat'],
      ['test', 'unknown', 'down', 'test'],
    ];
    const expected = new Map<string, string>();
    for (const [kind, from_state, to_state, word] of cases) {
      const base = delivery(other.tenantId, { check_id: checkA, channel_id: channel1, status: 'sent' });
      const record: DeliveryRecord = { ...base, kind, event: { ...base.event, from_state, to_state } };
      expect(await api.app.deliveries.putNew(record, 30)).toBe(true);
      expected.set(record.id, word);
    }
    const page = await list('', other.key);
    expect(new Map(page.logs.map((l) => [l.id, l.event]))).toEqual(expected);
  });

  it('pages with limit and a cursor, next_cursor null exactly on the last page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.logs.map((l) => l.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids(seeded));
  });

  it('filters by check, by channel, by status and by check and channel together', async () => {
    const by = (pred: (r: DeliveryRecord) => boolean) => ids(seeded.filter(pred));
    expect((await list(`?check_id=${checkA}`)).logs.map((l) => l.id)).toEqual(
      by((r) => r.check_id === checkA),
    );
    expect((await list(`?channel_id=${channel1}`)).logs.map((l) => l.id)).toEqual(
      by((r) => r.channel_id === channel1),
    );
    expect((await list('?status=sent')).logs.map((l) => l.id)).toEqual(by((r) => r.status === 'sent'));
    expect((await list(`?check_id=${checkB}&channel_id=${channel1}`)).logs.map((l) => l.id)).toEqual(
      by((r) => r.check_id === checkB && r.channel_id === channel1),
    );
    expect((await list(`?check_id=${checkA}&status=skipped`)).logs.map((l) => l.id)).toEqual(
      by((r) => r.check_id === checkA && r.status === 'skipped'),
    );
  });

  it('pages a filtered list without repeating or losing records', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?status=sent&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await list(query);
      seen.push(...page.logs.map((l) => l.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids(seeded.filter((r) => r.status === 'sent')));
  });

  it('shows a digest as one (its batch, group and count) and lists its folded alerts by batch_id', async () => {
    const batch = newId('dig');
    const group = { batch_id: batch, group_id: 'route:blueprint:web', due_ms: clockMs };
    const folded = [1, 2].map(() => ({
      ...delivery(tenant.tenantId, { check_id: checkA, channel_id: channel1, status: 'folded' }),
      digest: group,
    }));
    const other = delivery(tenant.tenantId, { check_id: checkB, channel_id: channel1, status: 'folded' });
    const digest: DeliveryRecord = {
      ...delivery(tenant.tenantId, { check_id: checkA, channel_id: channel1, status: 'sent' }),
      kind: 'digest',
      digest: { ...group, part: 1, parts: 1, events: 2 },
    };
    for (const record of [...folded, { ...other, digest: { ...group, batch_id: newId('dig') } }, digest]) {
      expect(await api.app.deliveries.putNew(record, 30)).toBe(true);
    }
    const [shown] = (await list(`?batch_id=${batch}&limit=200`)).logs;
    expect(shown?.digest).toEqual({
      batch_id: batch,
      group_by: 'blueprint',
      group: 'web',
      events: 2,
      part: 1,
      parts: 1,
    });
    const alerts = await list(`?batch_id=${batch}&status=folded&channel_id=${channel1}`);
    expect(alerts.logs.map((l) => l.id)).toEqual(folded.map((r) => r.id).reverse());
    expect(alerts.logs[0]?.digest).toMatchObject({ batch_id: batch, events: null });
    const bad = await api.request('GET', '/v1/notify/logs?batch_id=not-a-batch', { key: tenant.key });
    expect(bad.status).toBe(400);
  });

  it('shows another tenant nothing, even filtered by this tenant’s check', async () => {
    expect((await list('', api.adminKey)).logs.map((l) => l.id)).not.toContain(seeded[0]?.id);
    const other = await api.createTenant('LogsOther');
    expect(await list('', other.key)).toEqual({ logs: [], next_cursor: null });
    expect(await list(`?check_id=${checkA}`, other.key)).toEqual({ logs: [], next_cursor: null });
  });

  it('lets a read-only key read the log', async () => {
    const viewer = await api.request('POST', '/v1/auth/keys', {
      key: tenant.key,
      body: { label: 'viewer', is_read_only: true },
    });
    expect((await list('?limit=1', viewer.body.key)).logs).toHaveLength(1);
  });

  it('refuses a bad filter, limit or cursor with 400', async () => {
    for (const query of [
      '?status=done',
      '?limit=0',
      '?limit=201',
      '?check_id=abc',
      '?channel_id=chk_x',
      '?cursor=not-a-cursor',
    ]) {
      const res = await api.request('GET', `/v1/notify/logs${query}`, { key: tenant.key });
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const first = await list('?limit=1');
    const elsewhere = await api.request(
      'GET',
      `/v1/notify/logs?check_id=${checkA}&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
      { key: tenant.key },
    );
    expect(elsewhere.status).toBe(400);
  });

  it('does not store a record twice under the same id', async () => {
    const record = delivery(tenant.tenantId, { check_id: checkB, channel_id: channel2, status: 'pending' });
    expect(await api.app.deliveries.putNew(record, 30)).toBe(true);
    expect(await api.app.deliveries.putNew({ ...record, status: 'sent' }, 30)).toBe(false);
    expect((await api.app.deliveries.get(tenant.tenantId, record.id))?.status).toBe('pending');
    expect(await api.app.deliveries.get(api.tenantId, record.id)).toBeUndefined();
    const updated = await api.app.deliveries.update(tenant.tenantId, record.id, { status: 'sent' });
    expect(updated.status).toBe('sent');
    seeded.push(updated);
  });

  it('leaves out records past their retention', async () => {
    const old = delivery(tenant.tenantId, {
      check_id: checkA,
      channel_id: channel1,
      status: 'sent',
      created_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    expect(await api.app.deliveries.putNew(old, 1)).toBe(true);
    expect((await list('?limit=200')).logs.map((l) => l.id)).not.toContain(old.id);
  });
});
