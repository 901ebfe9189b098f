import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { dueJobRequeuer, settleNotify } from '../cloud/queue-kinds.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { type ApiHarness, adminCall, type LambdaHarness } from '../support/api-harness.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { linkIn, type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * Subscribers told of maintenance on both runtimes (issue 54 item 2): an announced window that
 * covers one of a page's entities is told to the page's confirmed subscribers of those components
 * when it is announced, when it starts and when it ends, by email (with one-click unsubscribe) and
 * by signed webhook, once each: the moments wait on the queue in hops of at most 15 minutes, a
 * window's write starts a chain of its own (an edit tells nothing again), a notice job delivered
 * again tells nobody twice (the cloud's requeuer sends each due job once more), and a window
 * deleted or no longer announced tells nothing more. A window not announced, or over entities no
 * page shows, tells nobody.
 */

const T0 = Date.parse('2026-10-05T08:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
const tls = createTlsFixtures();

describe.each(subscriberRuntimes)(
  'maintenance notices to subscribers ($runtime runtime)',
  ({ runtime, start }) => {
    let rt: SubscriberRuntime;
    let api: ApiHarness;
    let receiver: Receiver;
    let requeuer: ReturnType<typeof dueJobRequeuer> | undefined;
    const clock = createFakeClock(T0);
    const ids: Record<string, string> = {};
    const req = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);

    /** Runs the change feed and the notify jobs due by the clock until nothing moves. */
    const settle = () => settleNotify(api, requeuer);
    /**
     * Time passes in steps of 5 minutes: the app's clock, and locally the timers the job queue arms
     * with it (faked, advancing with real time too: the local queue wakes a delayed job by a timer).
     */
    const advance = async (ms: number) => {
      for (let left = ms; left > 0; left -= 5 * MINUTE) {
        const step = Math.min(left, 5 * MINUTE);
        clock.advance(step);
        if (runtime === 'local') await vi.advanceTimersByTimeAsync(step);
        await settle();
      }
    };
    const subscribe = async (address: string, components?: string[]) => {
      const res = await api.request('POST', '/p/acme/subscribe', {
        body: { email: address, ...(components ? { components } : {}) },
      });
      expect(res.status, res.text).toBe(202);
      await settle();
      const mail = rt.mails().findLast((m) => m.to.includes(address));
      const confirmed = await api.request('POST', linkIn(mail?.text ?? '', '/p/acme/confirm/'), {
        rawBody: '',
      });
      expect(confirmed.status, confirmed.text).toBe(200);
    };
    /** The maintenance mails each address got, as "<address>: <subject>", oldest first (a moment's in any order). */
    const maintenanceMails = () =>
      rt
        .mails()
        .filter((m) => m.subject.startsWith('[Acme] ') && /maintenance/i.test(m.subject))
        .map((m) => `${m.to.join(',')}: ${m.subject}`);
    const hooks = () =>
      receiver.received
        .filter((r) => r.path === '/hooks/acme')
        .map(
          (r) =>
            JSON.parse(r.body.toString('utf8')) as { kind: string; maintenance?: Record<string, unknown> },
        );

    beforeAll(async () => {
      if (runtime === 'local')
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
      receiver = await startReceiver(tls.valid, 'unused');
      rt = await start(clock, { ca: [tls.caCert] });
      api = rt.api;
      if (api.runtime === 'lambda') requeuer = dueJobRequeuer(api as LambdaHarness, clock.now);
      await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
      for (const [slug, name] of [
        ['db', 'Database'],
        ['api', 'Public API'],
        ['hidden', 'Hidden backend'],
      ] as const)
        ids[slug] = (await req('POST', '/v1/blueprints/service/entities', { slug, name })).id;
      await req('POST', '/v1/status-pages', { slug: 'acme', title: 'Acme', entity_ids: [ids.db, ids.api] });
      await subscribe('all@example.com');
      await subscribe('db@example.com', [ids.db ?? '']);
      await subscribe('api@example.com', [ids.api ?? '']);
      await req('POST', '/v1/status-pages/acme/subscribers', { url: `${receiver.origin}/hooks/acme` });
    }, 60_000);
    afterAll(async () => {
      await rt?.close();
      await receiver?.close();
      vi.useRealTimers();
    });

    it('tells the subscribers of the covered components when a window is announced, starts and ends, once each', async () => {
      const input = {
        name: 'Database upgrade',
        entity_ids: [ids.db],
        starts_at: iso(clock.now() + 2 * HOUR),
        ends_at: iso(clock.now() + 3 * HOUR),
        announce: true,
        public_note: 'Writes pause for *a minute*.',
      };
      const window = await req('POST', '/v1/maintenance', input);
      await settle();
      expect(maintenanceMails().sort()).toEqual([
        'all@example.com: [Acme] Scheduled maintenance: Database upgrade',
        'db@example.com: [Acme] Scheduled maintenance: Database upgrade',
      ]);
      const announced = rt.mails().findLast((m) => m.subject.includes('Scheduled maintenance'));
      expect(announced?.text).toContain('Affects: Database');
      expect(announced?.text).toContain('Writes pause for *a minute*.');
      expect(announced?.text).toContain(
        `When: ${iso(T0 + 2 * HOUR)
          .slice(0, 16)
          .replace('T', ' ')} UTC`,
      );
      expect(announced?.html).toContain('<em>a minute</em>');
      expect(announced?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(hooks().map((h) => [h.kind, h.maintenance?.moment, h.maintenance?.status])).toEqual([
        ['page_maintenance', 'announced', 'scheduled'],
      ]);
      expect(hooks()[0]?.maintenance).toMatchObject({ name: 'Database upgrade', components: ['Database'] });

      // An edit an hour before the start: a chain of its own, which tells nothing again.
      await advance(HOUR);
      await req('PUT', `/v1/maintenance/${window.id}`, { ...input, name: 'Database upgrade (v17)' });
      await settle();
      expect(maintenanceMails()).toHaveLength(2);

      await advance(HOUR);
      expect(maintenanceMails().slice(2).sort()).toEqual([
        'all@example.com: [Acme] Maintenance in progress: Database upgrade (v17)',
        'db@example.com: [Acme] Maintenance in progress: Database upgrade (v17)',
      ]);
      await advance(HOUR);
      expect(maintenanceMails().slice(4).sort()).toEqual([
        'all@example.com: [Acme] Maintenance completed: Database upgrade (v17)',
        'db@example.com: [Acme] Maintenance completed: Database upgrade (v17)',
      ]);
      expect(hooks().map((h) => h.maintenance?.status)).toEqual(['scheduled', 'in_progress', 'completed']);
      // Nothing more comes of it.
      await advance(HOUR);
      expect(maintenanceMails()).toHaveLength(6);
    }, 120_000);

    it('tells nobody of a window not announced, or over entities no page shows', async () => {
      const before = maintenanceMails().length;
      await req('POST', '/v1/maintenance', {
        name: 'Quiet fix',
        entity_ids: [ids.db],
        starts_at: iso(clock.now() + 10 * MINUTE),
        ends_at: iso(clock.now() + 20 * MINUTE),
      });
      await req('POST', '/v1/maintenance', {
        name: 'Backend move',
        entity_ids: [ids.hidden],
        starts_at: iso(clock.now() + 10 * MINUTE),
        ends_at: iso(clock.now() + 20 * MINUTE),
        announce: true,
      });
      await settle();
      await advance(30 * MINUTE);
      expect(maintenanceMails().slice(before)).toEqual([]);
    }, 60_000);

    it('tells nothing more of a window deleted, or no longer announced, before its start', async () => {
      const before = maintenanceMails().length;
      const fields = {
        entity_ids: [ids.api],
        starts_at: iso(clock.now() + 30 * MINUTE),
        ends_at: iso(clock.now() + 40 * MINUTE),
        announce: true,
      };
      const gone = await req('POST', '/v1/maintenance', { name: 'API deploy', ...fields });
      const hushed = await req('POST', '/v1/maintenance', { name: 'API tweak', ...fields });
      await settle();
      expect(maintenanceMails().slice(before).sort()).toEqual([
        'all@example.com: [Acme] Scheduled maintenance: API deploy',
        'all@example.com: [Acme] Scheduled maintenance: API tweak',
        'api@example.com: [Acme] Scheduled maintenance: API deploy',
        'api@example.com: [Acme] Scheduled maintenance: API tweak',
      ]);
      await req('DELETE', `/v1/maintenance/${gone.id}`);
      await req('PUT', `/v1/maintenance/${hushed.id}`, { name: 'API tweak', ...fields, announce: false });
      await advance(HOUR);
      expect(maintenanceMails().slice(before)).toHaveLength(4);
    }, 60_000);
  },
);
