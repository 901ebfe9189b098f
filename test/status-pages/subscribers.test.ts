import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { tagProblems } from './support/html-balance.ts';
import { linkIn, type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * Subscribers of a status page end to end on both runtimes (issue 54 item 3): the keyless
 * subscribe form, one confirmation email with a single-use link (GET shows a button, POST
 * confirms), notices of updates with `notify` to confirmed subscribers whose components the
 * incident impacts, with RFC 8058 one-click unsubscribe, and a redelivered notice job that tells
 * nobody twice. The answer to a subscription is byte-identical whatever the address.
 */

const T0 = Date.parse('2026-07-01T09:00:00.000Z');
const HOUR = 3_600_000;

describe.each(subscriberRuntimes)('status page subscribers ($runtime runtime)', ({ start }) => {
  let rt: SubscriberRuntime;
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  let apiEntity: string;
  let dbEntity: string;
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const form = (fields: Record<string, string | string[]>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) params.append(k, one);
    return params.toString();
  };
  const subscribe = (fields: Record<string, string | string[]>) =>
    api.request('POST', '/p/acme/subscribe', {
      rawBody: form(fields),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const settle = async () => {
    await api.drainChanges();
    await api.runNotifyJobs();
    await api.drainChanges();
    await api.runNotifyJobs();
  };
  const mailsTo = (address: string) => rt.mails().filter((m) => m.to.includes(address));
  /** Subscribes and confirms by the link emailed; answers the confirmation mail. */
  const subscribed = async (address: string, components?: string[]) => {
    const res = await subscribe({ email: address, ...(components ? { components } : {}) });
    expect(res.status, res.text).toBe(202);
    await settle();
    const mail = mailsTo(address).at(-1);
    if (!mail) throw new Error(`no confirmation mail to ${address}`);
    const link = linkIn(mail.text, '/p/acme/confirm/');
    const confirmed = await api.request('POST', link, { rawBody: '' });
    expect(confirmed.status, confirmed.text).toBe(200);
    return mail;
  };
  const incidentWithUpdate = async (title: string, entity: string) => {
    const incident = await req('POST', '/v1/status-pages/acme/incidents', {
      title,
      body: 'We are looking into it.',
      impact: [{ entity_id: entity, level: 'partial_outage' }],
    });
    clock.advance(60_000);
    await req('POST', `/v1/status-pages/acme/incidents/${incident.id}/updates`, {
      status: 'identified',
      body: 'A **bad** deploy; rolled back.',
      notify: true,
    });
    await settle();
    return incident;
  };

  beforeAll(async () => {
    rt = await start(clock);
    api = rt.api;
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    apiEntity = (await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'Public API' }))
      .id;
    dbEntity = (await req('POST', '/v1/blueprints/service/entities', { slug: 'db', name: 'Database' })).id;
    await req('POST', '/v1/status-pages', { slug: 'acme', title: 'Acme', entity_ids: [apiEntity, dbEntity] });
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  it('shows a subscribe form on the public page: a plain POST, valid markup, no script', async () => {
    const res = await api.request('GET', '/p/acme');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<form class="subscribe" method="post" action="/p/acme/subscribe">');
    expect(res.text).toContain('<label for="subscribe-email">Email</label>');
    expect(tagProblems(res.text)).toEqual([]);
    expect(res.text).not.toMatch(/<script/i);
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
  });

  it('emails one confirmation link; its GET confirms nothing, its POST confirms once', async () => {
    const res = await subscribe({ email: 'Ann@Example.com' });
    expect(res.status).toBe(202);
    expect(res.text).toContain('Check your inbox');
    await settle();
    const mails = mailsTo('ann@example.com');
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    if (!mail) throw new Error('no mail');
    expect(mail.subject).toBe('Confirm updates of Acme');
    const link = linkIn(mail.text, '/p/acme/confirm/');
    const page = await api.request('GET', link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post"><button type="submit">Confirm</button></form>');
    expect(tagProblems(page.text)).toEqual([]);
    // The GET (a mail scanner's) confirmed nothing: the link still works, once.
    expect((await api.request('POST', link, { rawBody: '' })).status).toBe(200);
    const again = await api.request('POST', link, { rawBody: '' });
    expect(again.status).toBe(404);
    expect(again.text).toContain('This link is not valid');
    expect((await api.request('GET', link)).status).toBe(404);
  });

  it('answers the same bytes for a new, a pending and a confirmed address, and mails none of them again', async () => {
    const known = await subscribe({ email: 'ann@example.com' });
    const fresh = await subscribe({ email: 'bob@example.com' });
    const pending = await subscribe({ email: 'bob@example.com' });
    expect(known.status).toBe(202);
    expect(known.text).toBe(fresh.text);
    expect(pending.text).toBe(fresh.text);
    const json = await api.request('POST', '/p/acme/subscribe', { body: { email: 'ann@example.com' } });
    const jsonFresh = await api.request('POST', '/p/acme/subscribe', { body: { email: 'cat@example.com' } });
    expect(json.status).toBe(202);
    expect(json.text).toBe(jsonFresh.text);
    await settle();
    expect(mailsTo('ann@example.com')).toHaveLength(1);
    expect(mailsTo('bob@example.com')).toHaveLength(1);
    // An hour on, a pending address may have a new link; a confirmed one never gets one.
    clock.advance(HOUR + 1);
    await subscribe({ email: 'bob@example.com' });
    await subscribe({ email: 'ann@example.com' });
    await settle();
    expect(mailsTo('bob@example.com')).toHaveLength(2);
    expect(mailsTo('ann@example.com')).toHaveLength(1);
  });

  it('refuses bad input with 400 and an unknown page with 404, writing nothing', async () => {
    expect((await subscribe({ email: 'not an address' })).status).toBe(400);
    expect((await subscribe({ email: 'dan@example.com', components: ['ent_unknown'] })).status).toBe(400);
    const unknown = await api.request('POST', '/p/nope/subscribe', {
      rawBody: form({ email: 'dan@example.com' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unknown.status).toBe(404);
    await settle();
    expect(mailsTo('dan@example.com')).toHaveLength(0);
  });

  it('tells confirmed subscribers of an impacted component of an update with notify, with one-click unsubscribe', async () => {
    await subscribed('api-watcher@example.com', [apiEntity]);
    await subscribed('db-watcher@example.com', [dbEntity]);
    await subscribe({ email: 'never-confirmed@example.com' });
    await settle();
    const before = rt.mails().length;
    await incidentWithUpdate('Checkout errors', apiEntity);
    const notices = rt.mails().slice(before);
    // ann (all), api-watcher (the impacted entity); not db-watcher, not the pending ones.
    expect(notices.map((m) => m.to[0]).sort()).toEqual(['ann@example.com', 'api-watcher@example.com']);
    const notice = notices.find((m) => m.to[0] === 'api-watcher@example.com');
    if (!notice) throw new Error('no notice');
    expect(notice.subject).toBe('[Acme] Checkout errors: Identified');
    expect(notice.text).toContain('A **bad** deploy; rolled back.');
    expect(notice.html).toContain('A <strong>bad</strong> deploy; rolled back.');
    expect(notice.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribeUrl = notice.headers.get('list-unsubscribe')?.match(/^<(.+)>$/)?.[1] ?? '';
    expect(unsubscribeUrl.startsWith('https://status.example.com/p/acme/subscription/')).toBe(true);
    const manage = unsubscribeUrl.slice('https://status.example.com'.length);
    expect(notice.text).toContain(unsubscribeUrl);
    const page = await api.request('GET', manage);
    expect(page.status).toBe(200);
    expect(tagProblems(page.text)).toEqual([]);
    // RFC 8058: a POST of List-Unsubscribe=One-Click, no cookie, no key.
    const oneClick = await api.request('POST', manage, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain('Unsubscribed');
    const next = rt.mails().length;
    await incidentWithUpdate('API slow', apiEntity);
    expect(
      rt
        .mails()
        .slice(next)
        .map((m) => m.to[0]),
    ).toEqual(['ann@example.com']);
  });

  it('tells nobody twice when a notice job is delivered again', async () => {
    const before = rt.mails().length;
    const incident = await incidentWithUpdate('Database failover', dbEntity);
    const told = rt.mails().slice(before);
    expect(told.map((m) => m.to[0]).sort()).toEqual(['ann@example.com', 'db-watcher@example.com']);
    const read = await req('GET', `/v1/status-pages/acme/incidents/${incident.id}`);
    const update = read.updates.at(-1);
    const job = {
      kind: 'page_notice' as const,
      tenant_id: api.tenantId,
      page: 'acme',
      incident_id: incident.id,
      update_id: update.id,
      after: null,
    };
    await api.app.notifyQueue.enqueue([{ id: `pgn:${update.id}`, body: job }]);
    await api.runNotifyJobs();
    await settle();
    expect(rt.mails().length).toBe(before + told.length);
  });

  it('a page’s delete takes its subscribers: a link of theirs is then unknown', async () => {
    await req('POST', '/v1/status-pages', { slug: 'gone', title: 'Gone', entity_ids: [apiEntity] });
    await api.request('POST', '/p/gone/subscribe', { body: { email: 'erin@example.com' } });
    await settle();
    const link = linkIn(mailsTo('erin@example.com').at(-1)?.text ?? '', '/p/gone/confirm/');
    await req('DELETE', '/v1/status-pages/gone');
    await req('POST', '/v1/status-pages', { slug: 'gone', title: 'Gone', entity_ids: [apiEntity] });
    expect((await api.request('GET', link)).status).toBe(404);
  });
});
