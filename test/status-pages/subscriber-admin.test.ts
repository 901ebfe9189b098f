import { createHmac } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { linkIn, type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * A page's subscribers as the tenant manages them, and webhook subscribers, on both runtimes:
 * list by state, CSV export, CSV import (each address pending with one confirmation email, per-row
 * reasons), remove, another tenant's page is 404 and read-only keys cannot write, notice outcomes
 * per update; a webhook subscriber added with a key is told each update signed as webhook channels
 * sign, and a keyless one is never called before its address confirmed it.
 */

const T0 = Date.parse('2026-09-01T09:00:00.000Z');
const tls = createTlsFixtures();

describe.each(subscriberRuntimes)('a page’s subscribers for its tenant ($runtime runtime)', ({ start }) => {
  let rt: SubscriberRuntime;
  let api: ApiHarness;
  let receiver: Receiver;
  const clock = createFakeClock(T0);
  let entity: string;
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const settle = async () => {
    await api.drainChanges();
    await api.runNotifyJobs();
    await api.drainChanges();
    await api.runNotifyJobs();
  };
  const importCsv = (csv: string, key = api.adminKey) =>
    api.request('POST', '/v1/status-pages/ops/subscribers/import', {
      key,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });

  beforeAll(async () => {
    receiver = await startReceiver(tls.valid, 'unused');
    rt = await start(clock, { ca: [tls.caCert] });
    api = rt.api;
    await req('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    entity = (await req('POST', '/v1/blueprints/svc/entities', { slug: 'web', name: 'Web' })).id;
    await req('POST', '/v1/status-pages', { slug: 'ops', title: 'Ops', entity_ids: [entity] });
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
    await receiver?.close();
  });

  it('imports a CSV: each address pending with one confirmation email; bad rows named with their reason', async () => {
    const res = await importCsv(
      `email,components\nimp1@example.com,\nIMP2@example.com,${entity}\nnot-an-address,\nimp3@example.com,ent_nope\nimp1@example.com,\n`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      queued: 2,
      rejected_count: 3,
      rejected: [
        { row: 4, reason: 'not an email address' },
        { row: 5, reason: 'components the page does not show' },
        { row: 6, reason: 'a confirmation link went out within the hour' },
      ],
    });
    await settle();
    expect(rt.mails().filter((m) => m.to[0] === 'imp1@example.com')).toHaveLength(1);
    expect(rt.mails().filter((m) => m.to[0] === 'imp2@example.com')).toHaveLength(1);
    const noHeader = await importCsv('imp9@example.com\n');
    expect(noHeader.status).toBe(400);
    const tooBig = await importCsv(`email\n${'x@example.com\n'.repeat(30_000)}`);
    expect(tooBig.status).toBe(413);
  });

  it('lists by state, exports CSV and removes; another tenant’s page is 404, a read-only key cannot write', async () => {
    const pending = await req('GET', '/v1/status-pages/ops/subscribers?state=pending');
    expect(pending.subscribers.map((s: { address: string }) => s.address).sort()).toEqual([
      'imp1@example.com',
      'imp2@example.com',
    ]);
    expect((await req('GET', '/v1/status-pages/ops/subscribers?state=confirmed')).subscribers).toEqual([]);
    const first = await req('GET', '/v1/status-pages/ops/subscribers?limit=1');
    const second = await req('GET', `/v1/status-pages/ops/subscribers?limit=1&cursor=${first.next_cursor}`);
    expect(second.subscribers[0].id).not.toBe(first.subscribers[0].id);
    const csv = await api.request('GET', '/v1/status-pages/ops/subscribers.csv', { key: api.adminKey });
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => `${r.address} ${r.state} ${r.source}`).sort()).toEqual([
      'imp1@example.com pending import',
      'imp2@example.com pending import',
    ]);
    const other = await api.createTenant('Stranger');
    for (const [method, path] of [
      ['GET', '/v1/status-pages/ops/subscribers'],
      ['GET', '/v1/status-pages/ops/subscribers.csv'],
      ['DELETE', `/v1/status-pages/ops/subscribers/${first.subscribers[0].id}`],
    ] as const)
      expect((await api.request(method, path, { key: other.key })).status).toBe(404);
    const readOnly = await req('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true });
    expect((await importCsv('email\nro@example.com\n', readOnly.key)).status).toBe(403);
    await req('DELETE', `/v1/status-pages/ops/subscribers/${first.subscribers[0].id}`);
    expect((await req('GET', '/v1/status-pages/ops/subscribers')).subscribers).toHaveLength(1);
    const audit = await req('GET', '/v1/audit?limit=50');
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining([expect.stringMatching(/subscriber/)]),
    );
  });

  it('tells a webhook the tenant added of each update, signed; a keyless one only after its address confirmed it', async () => {
    const added = await req('POST', '/v1/status-pages/ops/subscribers', {
      url: `${receiver.origin}/hooks/tenant`,
    });
    expect(added.state).toBe('confirmed');
    expect(added.secret).toMatch(/^whsec_/);
    expect(
      (
        await api.request('POST', '/v1/status-pages/ops/subscribers', {
          key: api.adminKey,
          body: { url: `${receiver.origin}/hooks/tenant` },
        })
      ).status,
    ).toBe(409);
    // A stranger's webhook: pending until the address confirms it; nothing calls it before.
    const keyless = await api.request('POST', '/p/ops/subscribe', {
      body: { email: 'hooker@example.com', url: `${receiver.origin}/hooks/stranger` },
    });
    expect(keyless.status).toBe(202);
    await settle();
    const incident = await req('POST', '/v1/status-pages/ops/incidents', {
      title: 'Web down',
      body: 'Investigating.',
      impact: [{ entity_id: entity, level: 'major_outage' }],
      notify: true,
    });
    await settle();
    expect(receiver.received.filter((r) => r.path === '/hooks/stranger')).toEqual([]);
    const calls = receiver.received.filter((r) => r.path === '/hooks/tenant');
    expect(calls).toHaveLength(1);
    const body = calls[0]?.body ?? Buffer.alloc(0);
    expect(calls[0]?.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', added.secret).update(body).digest('hex')}`,
    );
    // Its address confirms it: the confirmed page shows its secret, and the next update calls it.
    const mail = rt.mails().findLast((m) => m.to[0] === 'hooker@example.com');
    expect(mail?.text).toContain(`${receiver.origin}/hooks/stranger`);
    const confirmed = await api.request('POST', linkIn(mail?.text ?? '', '/p/ops/confirm/'), { rawBody: '' });
    expect(confirmed.status).toBe(200);
    const secret = confirmed.text.match(/whsec_[A-Za-z0-9_-]+/)?.[0] ?? '';
    clock.advance(60_000);
    await req('POST', `/v1/status-pages/ops/incidents/${incident.id}/updates`, {
      status: 'resolved',
      body: 'Fixed.',
      notify: true,
    });
    await settle();
    const stranger = receiver.received.filter((r) => r.path === '/hooks/stranger');
    expect(stranger).toHaveLength(1);
    const strangerBody = stranger[0]?.body ?? Buffer.alloc(0);
    expect(stranger[0]?.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(strangerBody).digest('hex')}`,
    );
    const notices = await req('GET', `/v1/status-pages/ops/incidents/${incident.id}/notices`);
    expect(notices.updates.map((u: { sent: number; failed: number }) => [u.sent, u.failed])).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });
});
