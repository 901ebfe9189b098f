import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { publishUntouchedDraft } from '../../lib/status-pages/page-drafts.ts';
import { PAGE_CACHE_MS } from '../../lib/status-pages/public/public-routes.ts';
import { dueJobRequeuer, settleNotify } from '../cloud/queue-kinds.ts';
import { type ApiHarness, adminCall, bothRuntimes, type LambdaHarness } from '../support/api-harness.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';
import { replayTransitions } from './support/transition-replay.ts';

/**
 * Drafts from the dependency graph (issue 54 item 5), on both runtimes: the local change pump and
 * job runner, and the stream function and notifier Lambda over DynamoDB Local and the queue engine.
 * A root cause with dependents on two pages makes one draft per page (a page that shows only a
 * dependent names only it), widened as dependents go down, never public; its recovery drafts the
 * resolved update; replaying every transition changes nothing; a page's auto-publish publishes an
 * untouched draft after its minutes through the notify job, and never one a person edited.
 */

const T0 = Date.parse('2026-07-01T08:00:00.000Z');
const MINUTE = 60_000;

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected freely
type Json = any;

describe.each(bothRuntimes)('drafts from the dependency graph ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  let requeuer: ReturnType<typeof dueJobRequeuer> | undefined;
  const call = (method: string, path: string, body?: unknown): Promise<Json> =>
    adminCall(api, method, path, body);

  /**
   * Time passes: the app's clock, and locally the timers the job queue arms with it (faked from
   * the start, advancing with real time too: the local queue wakes a delayed job by a timer).
   */
  async function advance(ms: number) {
    clock.advance(ms);
    if (api.runtime === 'local') await vi.advanceTimersByTimeAsync(ms);
    await settle();
  }

  /** Runs the change feed and the notify jobs due by the clock until nothing moves. */
  const settle = () => settleNotify(api, requeuer);

  async function push(checkId: string, success: boolean) {
    clock.advance(1000);
    await call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
    await settle();
  }

  /** An entity with a push check, up. */
  async function upEntity(slug: string, name: string) {
    const made = await entityWithPushCheck(call, { slug, name }, { intervalSeconds: 3600 });
    await push(made.checkId, true);
    return made;
  }

  const dependsOn = (from: string, to: string) =>
    call('POST', '/v1/relations', { from_entity_id: from, to_entity_id: to, relation_type: 'depends_on' });

  const incidentsOf = async (slug: string): Promise<Json[]> =>
    (await call('GET', `/v1/status-pages/${slug}/incidents?limit=100`)).incidents;
  const draftsOf = async (slug: string, rootId: string) =>
    (await incidentsOf(slug)).filter((i: Json) => i.drafted_from?.entity_id === rootId);

  /** Every entity transition of the tenant fed again to every change consumer, in order: a replay. */
  async function replay() {
    expect(await replayTransitions(api)).toBeGreaterThan(3);
    await settle();
  }

  beforeAll(async () => {
    if (start === bothRuntimes[0]?.start)
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    api = await start({ clock });
    if (api.runtime === 'lambda') requeuer = dueJobRequeuer(api as LambdaHarness, clock.now);
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    vi.useRealTimers();
  });

  it('makes one draft per page, in the page’s own words, widens it, keeps it private, and drafts the all-clear', async () => {
    const db = await upEntity('orders-db', 'Orders DB');
    const checkout = await upEntity('checkout', 'Checkout');
    const shop = await upEntity('shop', 'Shop Front');
    await dependsOn(checkout.entityId, db.entityId);
    await dependsOn(shop.entityId, db.entityId);
    await call('POST', '/v1/status-pages', {
      slug: 'platform',
      title: 'Platform',
      entity_ids: [db.entityId, checkout.entityId],
    });
    await call('POST', '/v1/status-pages', {
      slug: 'storefront',
      title: 'Storefront',
      entity_ids: [shop.entityId],
    });

    await push(db.checkId, false);
    const [first] = await draftsOf('platform', db.entityId);
    expect(first).toMatchObject({
      draft: true,
      status: 'investigating',
      impact: [{ entity_id: db.entityId, level: 'major_outage' }],
      title: 'Investigating problems with Orders DB',
      drafted_update: null,
    });
    // The storefront shows only Shop Front, still up: nothing to say there yet.
    expect(await incidentsOf('storefront')).toEqual([]);

    await push(checkout.checkId, false);
    await push(shop.checkId, false);
    const platform = await draftsOf('platform', db.entityId);
    const storefront = await draftsOf('storefront', db.entityId);
    expect(platform).toHaveLength(1);
    expect(storefront).toHaveLength(1);
    expect(platform[0]).toMatchObject({
      id: first.id,
      impact: [
        { entity_id: db.entityId, level: 'major_outage' },
        { entity_id: checkout.entityId, level: 'major_outage' },
      ],
      title: 'Investigating problems with Orders DB and Checkout',
    });
    // The root change is the incident the root's transition opened.
    const [open] = (await call('GET', `/v1/incidents?entity_id=${db.entityId}&state=open`)).incidents;
    expect(platform[0].drafted_from.transition_id.slice(4)).toBe(String(open.id).slice(4));
    expect(storefront[0]).toMatchObject({
      draft: true,
      impact: [{ entity_id: shop.entityId, level: 'major_outage' }],
      title: 'Investigating problems with Shop Front',
      drafted_from: platform[0].drafted_from,
    });
    expect(storefront[0].updates[0].body).toBe(
      'We are investigating problems affecting Shop Front (major outage). We will post an update here soon.',
    );
    // The storefront's draft names nothing the page does not show (the root is only its provenance).
    const { drafted_from: _provenance, ...words } = storefront[0];
    expect(JSON.stringify(words)).not.toMatch(/Orders|Checkout|orders-db/);
    expect(JSON.stringify(words)).not.toContain(db.entityId);

    // Drafts are never public.
    clock.advance(PAGE_CACHE_MS + 1000);
    for (const slug of ['platform', 'storefront']) {
      const html = (await api.request('GET', `/p/${slug}`)).text;
      expect(html).not.toContain('Investigating problems');
      const json = (await api.request('GET', `/p/${slug}/status.json`)).body;
      expect(JSON.stringify(json.written_incidents)).not.toContain('Investigating problems');
    }

    // A replay of every transition (redelivered changes) makes and changes nothing.
    const before = { platform: await incidentsOf('platform'), storefront: await incidentsOf('storefront') };
    await replay();
    expect({ platform: await incidentsOf('platform'), storefront: await incidentsOf('storefront') }).toEqual(
      before,
    );

    // The all-clear drafts the resolved update on both; publishing is one call.
    await push(db.checkId, true);
    const [cleared] = await draftsOf('storefront', db.entityId);
    expect(cleared).toMatchObject({
      draft: true,
      status: 'investigating',
      drafted_update: {
        status: 'resolved',
        body: 'The problems affecting Shop Front are resolved. Everything is working normally again.',
      },
    });
    const published = await call('PATCH', `/v1/status-pages/platform/incidents/${first.id}`, {
      draft: false,
    });
    expect(published).toMatchObject({ draft: false, status: 'resolved', drafted_update: null });
    expect(published.updates.map((u: Json) => u.status)).toEqual(['investigating', 'resolved']);
    clock.advance(PAGE_CACHE_MS + 1000);
    expect((await api.request('GET', '/p/platform')).text).toContain(
      'Investigating problems with Orders DB and Checkout',
    );
    expect((await api.request('GET', '/p/storefront')).text).not.toContain('Investigating problems');

    // The recovery replayed drafts nothing again.
    const after = await incidentsOf('storefront');
    await replay();
    expect(await incidentsOf('storefront')).toEqual(after);
    expect(await draftsOf('platform', db.entityId)).toEqual([published]);
  });

  it('drafts the all-clear on a page whose components recover while the root is still down, and withdraws it when they go down again', async () => {
    const queue = await upEntity('queue', 'Queue');
    const mailer = await upEntity('mailer', 'Mailer');
    await dependsOn(mailer.entityId, queue.entityId);
    await call('POST', '/v1/status-pages', { slug: 'mailing', title: 'Mail', entity_ids: [mailer.entityId] });

    await push(queue.checkId, false);
    await push(mailer.checkId, false);
    const [made] = await draftsOf('mailing', queue.entityId);
    expect(made).toMatchObject({ draft: true, drafted_update: null });

    // The mailer is back while the queue is still down: the page's own trouble is over.
    await push(mailer.checkId, true);
    const [cleared] = await draftsOf('mailing', queue.entityId);
    expect(cleared).toMatchObject({
      id: made.id,
      drafted_update: {
        status: 'resolved',
        body: 'The problems affecting Mailer are resolved. Everything is working normally again.',
      },
    });
    const before = await incidentsOf('mailing');
    await replay();
    expect(await incidentsOf('mailing')).toEqual(before);

    // Down again in the same root change: the same draft, its all-clear withdrawn.
    await push(mailer.checkId, false);
    expect(await draftsOf('mailing', queue.entityId)).toEqual([
      expect.objectContaining({ id: made.id, draft: true, drafted_update: null }),
    ]);
    await push(queue.checkId, true);
    await push(mailer.checkId, true);
    expect((await draftsOf('mailing', queue.entityId))[0].drafted_update).toMatchObject({
      status: 'resolved',
    });
    await call('DELETE', '/v1/status-pages/mailing');
  });

  it('auto-publishes an untouched draft after the page’s minutes through the notify job, never an edited one', async () => {
    const cache = await upEntity('cache', 'Cache');
    const search = await upEntity('search', 'Search');
    const feed = await upEntity('feed', 'Feed');
    await dependsOn(search.entityId, cache.entityId);
    await dependsOn(feed.entityId, cache.entityId);
    const auto = { auto_publish_drafts_after_minutes: 5 };
    const page = await call('POST', '/v1/status-pages', {
      slug: 'search-status',
      title: 'Search',
      entity_ids: [search.entityId],
      ...auto,
    });
    expect(page.auto_publish_drafts_after_minutes).toBe(5);
    // 1..1440 or null; a page that names none never auto-publishes (null).
    for (const minutes of [0, 1441, 2.5])
      expect(
        (
          await api.request('POST', '/v1/status-pages', {
            key: api.adminKey,
            body: { slug: 'bad-minutes', title: 'Bad', auto_publish_drafts_after_minutes: minutes },
          })
        ).status,
      ).toBe(400);
    expect((await call('GET', '/v1/status-pages/platform')).auto_publish_drafts_after_minutes).toBeNull();
    await call('POST', '/v1/status-pages', {
      slug: 'feed-status',
      title: 'Feed',
      entity_ids: [feed.entityId],
      ...auto,
    });

    await push(cache.checkId, false);
    await push(search.checkId, false);
    await push(feed.checkId, false);
    const [searchDraft] = await draftsOf('search-status', cache.entityId);
    const [feedDraft] = await draftsOf('feed-status', cache.entityId);
    expect(searchDraft?.draft).toBe(true);
    // A person edits the feed page's draft: it is theirs now.
    await call('PATCH', `/v1/status-pages/feed-status/incidents/${feedDraft.id}`, { title: 'Feed delays' });

    await advance(4 * MINUTE);
    expect((await draftsOf('search-status', cache.entityId))[0].draft).toBe(true);

    await advance(2 * MINUTE);
    const [publishedDraft] = await draftsOf('search-status', cache.entityId);
    expect(publishedDraft).toMatchObject({ draft: false, status: 'investigating' });
    expect((await draftsOf('feed-status', cache.entityId))[0]).toMatchObject({
      draft: true,
      title: 'Feed delays',
    });
    clock.advance(PAGE_CACHE_MS + 1000);
    expect((await api.request('GET', '/p/search-status')).text).toContain(
      'Investigating problems with Search',
    );

    // The same job delivered again publishes nothing twice.
    const again = await publishUntouchedDraft(api.table, clock, {
      kind: 'page_draft_publish',
      tenant_id: api.tenantId,
      page: 'search-status',
      incident_id: searchDraft.id,
      version: 1,
      due_ms: clock.now(),
    });
    expect(again).toBe(false);
    expect((await draftsOf('search-status', cache.entityId))[0]).toEqual(publishedDraft);

    // The all-clear's resolved update of an incident the drafting published is published after the minutes too.
    await push(cache.checkId, true);
    expect((await draftsOf('search-status', cache.entityId))[0]).toMatchObject({
      draft: false,
      status: 'investigating',
      drafted_update: { status: 'resolved' },
    });
    await advance(6 * MINUTE);
    expect((await draftsOf('search-status', cache.entityId))[0]).toMatchObject({
      draft: false,
      status: 'resolved',
      drafted_update: null,
    });
    // The edited draft got its drafted update, and waits for a person.
    expect((await draftsOf('feed-status', cache.entityId))[0]).toMatchObject({
      draft: true,
      title: 'Feed delays',
      drafted_update: { status: 'resolved' },
    });
  });
});
