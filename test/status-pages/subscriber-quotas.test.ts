import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { SUBSCRIBE_QUOTAS } from '../../lib/status-pages/subscribers/subscribe-service.ts';
import { type ApiHarness, adminCall } from '../support/api-harness.ts';
import { type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * The subscription quotas on both engines (issue 54 item 3: a keyless form must not be a way to
 * mail strangers): requests for one address to one page are counted per hour, and confirmation
 * links per page per UTC day; past either, nothing is issued (the keyless route answers the same
 * bytes whatever happened; the tenant's CSV import says why per row), and the next hour or day
 * counts afresh. The counters are conditional adds on the store, so each engine enforces them.
 * The keyless form's requests are worked after their answer (a queued job): each is let run
 * before the count is read. Mail is configured (the form is refused where none can go).
 */

const T0 = Date.parse('2026-09-14T22:10:00.000Z');
const HOUR = 3_600_000;

describe.each(subscriberRuntimes)('subscription quotas ($runtime runtime)', ({ start }) => {
  let rt: SubscriberRuntime;
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  const call = (method: string, path: string, body?: unknown) => adminCall(api, method, path, body);
  const importCsv = async (slug: string, addresses: string[]) => {
    const res = await api.request('POST', `/v1/status-pages/${slug}/subscribers/import`, {
      key: api.adminKey,
      rawBody: `email\n${addresses.join('\n')}\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body as { queued: number; rejected: { row: number; reason: string }[] };
  };
  /** The keyless form's request, answered 202 at once, then worked (its job run). */
  const keylessSubscribe = async (slug: string, email: string) => {
    const res = await api.request('POST', `/p/${slug}/subscribe`, { body: { email } });
    expect(res.status, res.text).toBe(202);
    await api.runNotifyJobs();
  };
  /** How many subscribers of the page are pending, read page by page. */
  const pending = async (slug: string) => {
    let count = 0;
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages += 1) {
      const query: string = `state=pending&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { subscribers: unknown[]; next_cursor: string | null } = await call(
        'GET',
        `/v1/status-pages/${slug}/subscribers?${query}`,
      );
      count += page.subscribers.length;
      cursor = page.next_cursor;
      if (cursor === null) return count;
    }
    throw new Error('more than 20 pages of subscribers');
  };

  beforeAll(async () => {
    rt = await start(clock);
    api = rt.api;
    await call('POST', '/v1/status-pages', { slug: 'hourly', title: 'Hourly', entity_ids: [] });
    await call('POST', '/v1/status-pages', { slug: 'daily', title: 'Daily', entity_ids: [] });
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  it('counts one address’s requests to a page per hour, and starts again the next hour', async () => {
    const limit = SUBSCRIBE_QUOTAS.addressPerHour;
    const answers = [];
    for (let i = 0; i <= limit; i += 1) answers.push(await importCsv('hourly', ['Pat@Example.com']));
    expect(answers[0]).toMatchObject({ queued: 1, rejected: [] });
    // Within the limit: refused for the link already out, never counted as spent.
    for (const answer of answers.slice(1, limit))
      expect(answer.rejected).toEqual([{ row: 2, reason: 'a confirmation link went out within the hour' }]);
    expect(answers[limit]?.rejected).toEqual([
      { row: 2, reason: `more than ${limit} requests for the address this hour` },
    ]);
    // The keyless form answers as for any address, and issues nothing more.
    await keylessSubscribe('hourly', 'pat@example.com');
    expect(await pending('hourly')).toBe(1);
    // Another address is its own count.
    expect(await importCsv('hourly', ['sam@example.com'])).toMatchObject({ queued: 1 });

    clock.advance(HOUR + 1);
    expect(await importCsv('hourly', ['pat@example.com'])).toMatchObject({ queued: 1, rejected: [] });
  }, 60_000);

  it('issues at most the daily number of confirmation links a page, and again the next UTC day', async () => {
    const limit = SUBSCRIBE_QUOTAS.pagePerDay;
    const addresses = Array.from({ length: limit + 1 }, (_, i) => `reader${i}@example.com`);
    const first = await importCsv('daily', addresses);
    expect(first.queued).toBe(limit);
    expect(first.rejected).toEqual([
      { row: limit + 2, reason: 'the daily quota of confirmation emails is spent' },
    ]);
    expect(await pending('daily')).toBe(limit);
    await keylessSubscribe('daily', 'late@example.com');
    expect(await pending('daily')).toBe(limit);
    // Another page's links are its own count (the tenant's is far from spent).
    expect(await importCsv('hourly', ['kim@example.com'])).toMatchObject({ queued: 1 });

    // The next UTC day (T0 is 22:10 UTC): the page's count starts again.
    clock.advance(3 * HOUR);
    expect(await importCsv('daily', ['late@example.com'])).toMatchObject({ queued: 1, rejected: [] });
  }, 120_000);
});
