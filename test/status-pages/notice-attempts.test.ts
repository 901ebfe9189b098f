import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { takeNotice } from '../../lib/status-pages/subscribers/notice-items.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { type ProviderReceiver, startProviderReceiver } from '../support/receivers/base.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { linkIn, type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * Status-page notices are sent at least once (issue 75 point 3), on both runtimes through their
 * queues (the local SQLite queue; SQS in the cloud, through the notifier Lambda): a subscriber's
 * webhook answering 503 once is called again after 1 s and told exactly once, both calls under
 * the same delivery id; a mail the transport refused (SMTP locally, SES in the cloud) is mailed
 * again, and its retry spends none of the tenant's daily mail quota (one delivery id, one mail); a
 * claim a crashed job left before its send is taken again once it is abandoned (2 min); a notice
 * failing every attempt is listed, with its error and no secret, in the update's notice outcomes.
 * Time moves by hand: the harness clock (the local queue's) and `Date` (fauxqs's) together.
 */

const T0 = Date.parse('2026-10-01T09:00:00.000Z');
const tls = createTlsFixtures();
/** A token in a receiver's URL path, as Slack-like receivers carry one: never in a stored error. */
const PATH_TOKEN = 'T0KENxyz0123456789abcdef';

describe.each(subscriberRuntimes)(
  'status-page notices, at least once ($runtime runtime)',
  ({ runtime, start }) => {
    let rt: SubscriberRuntime;
    let api: ApiHarness;
    let receiver: ProviderReceiver;
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
    };
    /**
     * Moves time on by `ms` and runs the notify jobs then due: the app's clock, and the queue's own
     * time (locally the timers the job queue arms with the clock; fauxqs's `Date` in the cloud).
     */
    const later = async (ms: number) => {
      clock.advance(ms);
      if (runtime === 'local') await vi.advanceTimersByTimeAsync(ms);
      else vi.setSystemTime(Date.now() + ms);
      await api.runNotifyJobs();
    };
    const callsTo = (path: string) => receiver.received.filter((r) => r.request.path === path);
    const webhook = async (slug: string, path: string) =>
      req('POST', `/v1/status-pages/${slug}/subscribers`, { url: `${receiver.origin}${path}` });
    const page = async (slug: string) =>
      req('POST', '/v1/status-pages', { slug, title: slug, entity_ids: [entity] });
    const incident = (slug: string, draft = false) =>
      req('POST', `/v1/status-pages/${slug}/incidents`, {
        title: 'Web down',
        body: 'Investigating.',
        impact: [{ entity_id: entity, level: 'major_outage' }],
        notify: true,
        draft,
      });
    const notices = async (slug: string, id: string) =>
      (await req('GET', `/v1/status-pages/${slug}/incidents/${id}/notices`)).updates[0];

    beforeAll(async () => {
      if (runtime === 'local')
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
      receiver = await startProviderReceiver(tls.valid, (request) =>
        request.path.startsWith('/down/')
          ? { status: 503, body: `unavailable: ${request.path}` }
          : { status: 200, body: 'ok' },
      );
      rt = await start(clock, { ca: [tls.caCert] });
      api = rt.api;
      await req('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
      entity = (await req('POST', '/v1/blueprints/svc/entities', { slug: 'web', name: 'Web' })).id;
    }, 60_000);
    beforeEach(() => {
      if (runtime === 'lambda') vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    });
    afterEach(() => {
      if (runtime === 'lambda') vi.useRealTimers();
    });
    afterAll(async () => {
      await rt?.close();
      await receiver?.close();
      vi.useRealTimers();
    });

    it('calls a webhook answering 503 once again after 1 s: told exactly once, both calls under one delivery id', async () => {
      await page('flaky');
      const hook = await webhook('flaky', '/hooks/flaky');
      receiver.answerNext({ status: 503, body: 'try later' });
      const created = await incident('flaky');
      await settle();
      expect(callsTo('/hooks/flaky').map((c) => c.answer.status)).toEqual([503]);
      await later(1000);
      await later(10_000);
      const calls = callsTo('/hooks/flaky');
      expect(calls.map((c) => c.answer.status)).toEqual([503, 200]);
      const ids = calls.map((c) => c.request.headers['x-service-delivery']);
      expect(ids).toEqual([
        `pgn-${created.updates[0].id}-${hook.id}`,
        `pgn-${created.updates[0].id}-${hook.id}`,
      ]);
      // Redelivered once more, the job tells nobody again.
      await api.app.notifyQueue.enqueue([
        {
          id: `pgn:${created.updates[0].id}`,
          body: {
            kind: 'page_notice',
            tenant_id: api.tenantId,
            page: 'flaky',
            incident_id: created.id,
            update_id: created.updates[0].id,
            after: null,
          },
        },
      ]);
      await settle();
      expect(callsTo('/hooks/flaky')).toHaveLength(2);
      expect(await notices('flaky', created.id)).toMatchObject({ sent: 1, failed: 0, failures: [] });
    });

    it('names each impacted component by id and by name in the webhook’s payload', async () => {
      const body = JSON.parse(callsTo('/hooks/flaky').at(-1)?.request.body.toString('utf8') ?? '{}');
      expect(body.incident.impact).toEqual([
        { entity_id: entity, entity_name: 'Web', level: 'major_outage' },
      ]);
    });

    it('sends a notice again whose claim a crashed job left before its send, once the claim is abandoned', async () => {
      await page('crash');
      const hook = await webhook('crash', '/hooks/crash');
      // A draft's notice goes out when it is published: the claim is written first, as a job that
      // died between its claim and its send leaves it.
      const draft = await incident('crash', true);
      const claim = { tenant_id: api.tenantId, update_id: draft.updates[0].id, subscriber_id: hook.id };
      expect(await takeNotice(api.table, claim, clock.now())).toEqual({ taken: true, attempt: 1 });
      await req('PATCH', `/v1/status-pages/crash/incidents/${draft.id}`, { draft: false });
      await settle();
      expect(callsTo('/hooks/crash')).toHaveLength(0);
      await later(60_000);
      expect(callsTo('/hooks/crash')).toHaveLength(0);
      await later(60_000);
      await later(10_000);
      const calls = callsTo('/hooks/crash');
      expect(calls.map((c) => c.answer.status)).toEqual([200]);
      expect(calls[0]?.request.headers['x-service-delivery']).toBe(`pgn-${draft.updates[0].id}-${hook.id}`);
      expect(await notices('crash', draft.id)).toMatchObject({ sent: 1, failed: 0 });
    });

    it('lists a notice that failed all 3 attempts with its error, without the URL’s token', async () => {
      await page('down');
      const hook = await webhook('down', `/down/${PATH_TOKEN}`);
      const created = await incident('down');
      await settle();
      await later(1000);
      await later(2000);
      await later(4000);
      expect(callsTo(`/down/${PATH_TOKEN}`)).toHaveLength(3);
      const outcome = await notices('down', created.id);
      expect(outcome).toMatchObject({ sent: 0, failed: 1, skipped: 0 });
      expect(outcome.failures).toEqual([
        {
          subscriber_id: hook.id,
          kind: 'webhook',
          to: receiver.origin,
          attempts: 3,
          error: expect.stringContaining('the endpoint answered 503'),
          at: expect.any(String),
        },
      ]);
      expect(JSON.stringify(outcome)).not.toContain(PATH_TOKEN);
    });

    /** Subscribes `address` to the page by the keyless form and confirms it by the link mailed. */
    const confirmedMail = async (slug: string, address: string) => {
      const subscribed = await api.request('POST', `/p/${slug}/subscribe`, { body: { email: address } });
      expect(subscribed.status).toBe(202);
      await settle();
      await settle();
      const confirm = rt.mails().findLast((m) => m.to[0] === address);
      expect(
        (await api.request('POST', linkIn(confirm?.text ?? '', `/p/${slug}/confirm/`), { rawBody: '' }))
          .status,
      ).toBe(200);
    };
    const toldBy = (address: string, slug: string) => () =>
      rt.mails().filter((m) => m.to[0] === address && m.subject.startsWith(`[${slug}]`));

    it('mails a notice again after the transport refused it, once (SMTP on 127.0.0.1 locally, SES in the cloud)', async () => {
      await page('mailing');
      await confirmedMail('mailing', 'mia@example.com');
      clock.advance(1000);
      rt.refuseMails(1);
      const created = await incident('mailing');
      await settle();
      const told = toldBy('mia@example.com', 'mailing');
      expect(told()).toHaveLength(0);
      await later(1000);
      await later(10_000);
      expect(told()).toHaveLength(1);
      expect(told()[0]?.headers.get('x-vigil-delivery')).toMatch(
        new RegExp(`^pgn-${created.updates[0].id}-psb_`),
      );
      expect(await notices('mailing', created.id)).toMatchObject({ sent: 1, failed: 0 });
    });

    it('spends the tenant’s daily mail quota once for a notice mailed again after a refusal', async () => {
      // A tenant of its own, whose mails today are this test's: its confirmation, then the notice.
      const metered = await api.createTenant('Metered');
      const as = async (method: string, path: string, body?: unknown) => {
        const res = await api.request(method, path, { key: metered.key, body });
        expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
        return res.body;
      };
      await as('POST', '/v1/status-pages', { slug: 'metered', title: 'metered', entity_ids: [] });
      await confirmedMail('metered', 'max@example.com');
      // Room for one more mail today: the notice's first attempt.
      await api.operator(['tenant', 'limits', metered.tenantId, '--email-daily-limit', '2']);
      clock.advance(1000);
      rt.refuseMails(1);
      const created = await as('POST', '/v1/status-pages/metered/incidents', {
        title: 'Web down',
        body: 'Investigating.',
        notify: true,
      });
      await settle();
      const told = toldBy('max@example.com', 'metered');
      expect(told()).toHaveLength(0);
      // The retry is the same delivery: it spends nothing more, so the quota does not skip it.
      await later(1000);
      await later(10_000);
      expect(told()).toHaveLength(1);
      const outcome = (await as('GET', `/v1/status-pages/metered/incidents/${created.id}/notices`))
        .updates[0];
      expect(outcome).toMatchObject({ sent: 1, failed: 0, skipped: 0 });
    });
  },
);
