import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createLoadCache } from '../../lib/status-pages/html/page-cache.ts';
import { PAGE_CACHE_MS } from '../../lib/status-pages/public/public-routes.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * One render of a public page per slug per 30 s, whatever the traffic (issue 36 item 3): the cache
 * itself on a fake clock (single flight, expiry, LRU bound, failed loads), then both runtimes
 * through the router, counting the page lookups the renders make in the store.
 */

describe('the load cache', () => {
  const deferred = () => {
    let resolve!: (value: string) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<string>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  it('shares one load among concurrent misses and keeps it until the TTL passes', async () => {
    const clock = createFakeClock();
    const cache = createLoadCache<string>({ clock, ttlMs: 30_000, maxEntries: 10 });
    const pending = deferred();
    const load = vi.fn(() => pending.promise);
    const waiting = Array.from({ length: 50 }, () => cache.get('a', load));
    expect(load).toHaveBeenCalledTimes(1);
    pending.resolve('one');
    expect(await Promise.all(waiting)).toEqual(Array(50).fill('one'));
    clock.advance(29_999);
    expect(await cache.get('a', async () => 'two')).toBe('one');
    clock.advance(1);
    expect(await cache.get('a', async () => 'two')).toBe('two');
  });

  it('drops a failed load and the values `keep` refuses, so the next caller loads again', async () => {
    const clock = createFakeClock();
    const cache = createLoadCache<string | undefined>({
      clock,
      ttlMs: 30_000,
      maxEntries: 10,
      keep: (v) => v !== undefined,
    });
    const failing = deferred();
    const first = cache.get('a', () => failing.promise);
    const second = cache.get('a', async () => 'unused');
    failing.reject(new Error('store down'));
    await expect(first).rejects.toThrow('store down');
    await expect(second).rejects.toThrow('store down');
    expect(await cache.get('a', async () => 'ok')).toBe('ok');
    expect(await cache.get('gone', async () => undefined)).toBeUndefined();
    expect(await cache.get('gone', async () => 'made')).toBe('made');
  });

  it('holds at most maxEntries, evicting the least recently used', async () => {
    const cache = createLoadCache<string>({ clock: createFakeClock(), ttlMs: 30_000, maxEntries: 2 });
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('a', async () => 'a2'); // a is now the most recent
    await cache.get('c', async () => 'c1'); // evicts b
    expect(cache.size()).toBe(2);
    expect(await cache.get('a', async () => 'a3')).toBe('a1');
    expect(await cache.get('b', async () => 'b2')).toBe('b2');
  });
});

describe.each(runtimes)('public pages rendered once per 30 s ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock(Date.parse('2026-06-01T12:00:00.000Z'));
  let api: ApiHarness;
  let renders = 0;

  beforeAll(async () => {
    api = await start({ clock });
    const req = (method: string, path: string, body?: unknown) =>
      api.request(method, path, { key: api.adminKey, body });
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    const entity = await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'API' });
    const made = await req('POST', '/v1/status-pages', {
      slug: 'cached',
      title: 'Cached',
      entity_ids: [entity.body.id],
    });
    expect(made.status, made.text).toBe(201);
    // Each render starts with the page's slug item, and so does the privacy gate in front of it
    // (lib/status-pages/access, held as long): two reads of it per 30 s window.
    const get = api.table.get.bind(api.table);
    vi.spyOn(api.table, 'get').mockImplementation((key, options) => {
      if (key.pk === 'PAGESLUG#cached') renders += 1;
      return get(key, options);
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await api?.close();
  });

  const paths = ['/p/cached', '/p/cached/status.json', '/p/cached/badge.svg'];
  const burst = async (n: number) => {
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => api.request('GET', paths[i % paths.length] ?? '/p/cached')),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    return answers;
  };

  it('renders once for concurrent and repeated requests, and again once the 30 s have passed', async () => {
    renders = 0;
    const first = await burst(30);
    expect(renders).toBe(2);
    // Repeated requests within the max-age: the same render (same generated_at), no store read.
    for (let i = 0; i < 3; i += 1) {
      clock.advance(5_000);
      await burst(9);
    }
    expect(renders).toBe(2);
    const json = (await api.request('GET', '/p/cached/status.json')).body;
    expect(json.generated_at).toBe(first.find((a) => a.body?.generated_at)?.body.generated_at);
    clock.advance(PAGE_CACHE_MS);
    await burst(30);
    expect(renders).toBe(4);
    const fresh = (await api.request('GET', '/p/cached/status.json')).body;
    expect(fresh.generated_at).not.toBe(json.generated_at);
  });

  it('does not keep an unknown slug: a page made after a 404 shows at once', async () => {
    expect((await api.request('GET', '/p/later')).status).toBe(404);
    const made = await api.request('POST', '/v1/status-pages', {
      key: api.adminKey,
      body: { slug: 'later', title: 'Later' },
    });
    expect(made.status).toBe(201);
    expect((await api.request('GET', '/p/later')).status).toBe(200);
  });
});
