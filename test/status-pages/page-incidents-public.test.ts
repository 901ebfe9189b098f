import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { PAGE_CACHE_MS } from '../../lib/status-pages/public/public-routes.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { tagProblems } from './support/html-balance.ts';

/**
 * Written incidents on the public page, on both engines (the page's open incidents are a sparse
 * gsi2 read, its history and month archives gsi1 range reads): open incidents on top with their
 * latest update, drafts nowhere, the 90-day history paged without skipping incidents that share a
 * start time, a month's archive, Markdown in its safe subset, HTML well formed and without script.
 */

const T0 = Date.parse('2026-06-10T12:00:00.000Z');
const HOUR = 3_600_000;

describe.each(bothRuntimes)('written incidents on the public page ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const base = '/v1/status-pages/acme/incidents';
  const backfill = (title: string, startMs: number) =>
    req('POST', base, {
      title,
      status: 'resolved',
      body: `Done: ${title}.`,
      started_at: new Date(startMs).toISOString(),
      resolved_at: new Date(startMs + HOUR).toISOString(),
    });
  const publicPage = async (path: string) => {
    const res = await api.request('GET', path);
    expect(res.status, res.text).toBe(200);
    expect(tagProblems(res.text)).toEqual([]);
    expect(res.text).not.toMatch(/<script/i);
    return res.text;
  };

  beforeAll(async () => {
    api = await start({ clock });
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    const entity = await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'Public API' });
    await req('POST', '/v1/status-pages', { slug: 'acme', title: 'Acme', entity_ids: [entity.id] });
    // Twelve resolved incidents, one a day before T0 (newest: "Day 1"); days 9 and 10 start together.
    for (let day = 1; day <= 12; day += 1) {
      const startMs = day === 10 ? T0 - 9 * 24 * HOUR : T0 - day * 24 * HOUR;
      await backfill(`Day ${day}`, startMs);
    }
    await backfill('Winter outage', Date.parse('2026-02-03T08:00:00.000Z'));
    await req('POST', base, { title: 'Secret draft', body: 'Not yet.', draft: true });
    const open = await req('POST', base, {
      title: 'Checkout errors',
      body: 'We are investigating <b>errors</b>.',
      impact: [{ entity_id: entity.id, level: 'partial_outage' }],
    });
    clock.advance(60_000);
    await req('POST', `${base}/${open.id}/updates`, {
      status: 'identified',
      body: 'A **bad** deploy; see [the notice](https://example.com/notice).',
      notify: true,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('shows the open incident on top with its latest update, and never the draft', async () => {
    const html = await publicPage('/p/acme');
    const current = html.indexOf('<h2>Current incidents</h2>');
    expect(current).toBeGreaterThan(-1);
    expect(current).toBeLessThan(html.indexOf('<h2>Services</h2>'));
    // Once: the history below lists the resolved ones.
    expect(html.split('Checkout errors')).toHaveLength(2);
    expect(html).toContain('Affects Public API (partial outage)');
    expect(html).toContain(
      'A <strong>bad</strong> deploy; see <a href="https://example.com/notice" rel="nofollow noopener">the notice</a>.',
    );
    expect(html.indexOf('Identified')).toBeLessThan(html.indexOf('Earlier updates (1)'));
    expect(html).toContain('We are investigating &lt;b&gt;errors&lt;/b&gt;.');
    expect(html).not.toContain('Secret draft');

    const json = (await api.request('GET', '/p/acme/status.json')).body;
    expect(json.written_incidents.open).toEqual([
      expect.objectContaining({ title: 'Checkout errors', status: 'identified' }),
    ]);
    expect(JSON.stringify(json)).not.toMatch(/pin_|piu_|ent_|Secret draft|notify/);
  });

  it('pages the 90-day history newest first without skipping incidents that start together', async () => {
    const json = (await api.request('GET', '/p/acme/status.json')).body;
    const first = json.written_incidents.history;
    const titles = first.incidents.map((i: { title: string }) => i.title);
    // The open one, Day 1 to Day 8, then Days 10 and 9 together (the page runs past ten for the tie).
    expect(titles).toEqual([
      'Checkout errors',
      ...Array.from({ length: 8 }, (_, i) => `Day ${i + 1}`),
      'Day 10',
      'Day 9',
    ]);
    expect(first.older).toBe(new Date(T0 - 9 * 24 * HOUR).toISOString());

    const older = await publicPage(`/p/acme/history?before=${encodeURIComponent(first.older)}`);
    expect(older).toContain('Day 11<');
    expect(older).toContain('Day 12<');
    expect(older).not.toMatch(/Day (9|10)</);
    expect(older).not.toContain('Winter outage');
    expect(older).not.toContain('Older incidents');
    const html = await publicPage('/p/acme');
    expect(html).toContain(`href="/p/acme/history?before=${encodeURIComponent(first.older)}"`);
    // The archive: the months since the page was created (June), and May's backfilled incidents;
    // not March or April, empty months from before the page existed.
    expect(html).toContain('href="/p/acme/history/2026-05"');
    expect(html).not.toContain('href="/p/acme/history/2026-03"');
  });

  it('keeps each month in an archive page, the history’s older months included', async () => {
    const february = await publicPage('/p/acme/history/2026-02');
    expect(february).toContain('Winter outage');
    expect(february).not.toContain('Day 1');
    const june = await publicPage('/p/acme/history/2026-06');
    expect(june).toContain('Checkout errors');
    expect(june).toContain('Day 9');
    expect(june).not.toContain('Secret draft');
    expect((await api.request('GET', '/p/nobody/history/2026-06')).status).toBe(404);
    expect((await api.request('GET', '/p/acme/history/2026-13')).status).toBe(404);
  });

  it('shows a published draft and a resolution within the cache time', async () => {
    const { incidents } = await req('GET', `${base}?limit=100`);
    const draft = incidents.find((i: { title: string }) => i.title === 'Secret draft');
    await req('PATCH', `${base}/${draft.id}`, { draft: false });
    clock.advance(PAGE_CACHE_MS + 1);
    const html = await publicPage('/p/acme');
    expect(html).toContain('Secret draft');
    const open = (await api.request('GET', '/p/acme/status.json')).body.written_incidents.open;
    expect(open.map((i: { title: string }) => i.title).sort()).toEqual(['Checkout errors', 'Secret draft']);
  });
});
