import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { ApiHarness } from '../support/api-harness.ts';
import { nuErrors } from './support/nu-validator.ts';
import { linkIn, type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * Every HTML page a status page's visitor can reach is valid HTML by the W3C Nu Html Checker
 * (issue 54: "status page HTML stays valid (W3C Nu, axe: 0 errors)"; axe runs in Chromium in
 * test/console/subscriber-pages.test.ts and status-pages.test.ts): the page with a written incident
 * (its Markdown rendered), an announced maintenance window, components and bars; the 90-day
 * history and a month's archive; the subscribe answer, the confirmation page and its answer, the
 * manage page, a spent link's page; a password page's form and its refusal. The pages are the
 * runtime's own answers (local; the cloud renders the same templates), checked in one JVM run.
 */

const T0 = Date.parse('2026-07-15T09:00:00.000Z');
const HOUR = 3_600_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const local = subscriberRuntimes[0];

describe('status page HTML under the W3C Nu Html Checker', () => {
  let rt: SubscriberRuntime;
  let api: ApiHarness;
  let apiId = '';
  const clock = createFakeClock(T0);
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const settle = async () => {
    for (let round = 0; round < 2; round += 1) {
      await api.drainChanges();
      await api.runNotifyJobs();
    }
  };

  beforeAll(async () => {
    if (!local) throw new Error('no local runtime');
    rt = await local.start(clock);
    api = rt.api;
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    apiId = (await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'Public API' })).id;
    const dbId = (
      await req('POST', '/v1/blueprints/service/entities', { slug: 'db', name: 'Database <main>' })
    ).id;
    await req('POST', '/v1/status-pages', { slug: 'acme', title: 'Acme & Co', entity_ids: [apiId, dbId] });
    await req('POST', '/v1/status-pages', {
      slug: 'secret',
      title: 'Secret',
      entity_ids: [apiId],
      visibility: 'password',
      password: 'a long page password',
    });
    const incident = await req('POST', '/v1/status-pages/acme/incidents', {
      title: 'Errors on <checkout> & login',
      body: 'We are **looking** into it:\n\n- retries fail\n- see [the log](https://example.com/log)\n\n`code` and <script>alert(1)</script>',
      impact: [{ entity_id: apiId, level: 'partial_outage' }],
    });
    clock.advance(30 * 60_000);
    await req('POST', `/v1/status-pages/acme/incidents/${incident.id}/updates`, {
      status: 'resolved',
      body: 'Fixed by a *rollback*.',
      notify: false,
    });
    // A backfilled incident of an earlier month, for the archive.
    await req('POST', '/v1/status-pages/acme/incidents', {
      title: 'A June outage',
      body: 'Backfilled for the record.',
      impact: [{ entity_id: dbId, level: 'major_outage' }],
      status: 'resolved',
      started_at: '2026-06-10T10:00:00.000Z',
      resolved_at: '2026-06-10T11:00:00.000Z',
    });
    await req('POST', '/v1/maintenance', {
      name: 'Database upgrade',
      entity_ids: [dbId],
      starts_at: new Date(clock.now() + 2 * HOUR).toISOString(),
      ends_at: new Date(clock.now() + 3 * HOUR).toISOString(),
      announce: true,
      public_note: 'Writes pause for *a minute*; see [the plan](https://example.com/plan).',
    });
    await settle();
  }, 120_000);
  afterAll(async () => {
    await rt?.close();
  });

  it('finds no error on any page a visitor reaches', async () => {
    const pages: Record<string, string> = {};
    const get = async (name: string, path: string, status = 200) => {
      const res = await api.request('GET', path);
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(status);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      pages[name] = res.text;
    };
    const post = async (name: string, path: string, body: string, status: number) => {
      const res = await api.request('POST', path, { headers: FORM, rawBody: body });
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(status);
      pages[name] = res.text;
    };

    await get('page', '/p/acme');
    expect(pages.page).toContain('Errors on &lt;checkout&gt;');
    expect(pages.page).toContain('Database upgrade');
    await get('history', '/p/acme/history');
    await get('archive', '/p/acme/history/2026-06');
    expect(pages.archive).toContain('A June outage');

    await post('subscribed', '/p/acme/subscribe', 'email=ann%40example.com', 202);
    await settle();
    const confirmMail = rt.mails().find((m) => m.to.includes('ann@example.com'));
    if (!confirmMail) throw new Error('no confirmation mail');
    const confirm = linkIn(confirmMail.text, '/p/acme/confirm/');
    await get('confirm', confirm);
    await post('confirmed', confirm, '', 200);
    await get('spent link', confirm, 404);
    // A notice of an update carries the manage link.
    await req('POST', '/v1/status-pages/acme/incidents', {
      title: 'Search slow',
      body: 'Looking into it.',
      impact: [{ entity_id: apiId, level: 'degraded_performance' }],
      notify: true,
    });
    await settle();
    const notice = rt
      .mails()
      .filter((m) => m.to.includes('ann@example.com'))
      .at(-1);
    const manage = linkIn(notice?.text ?? '', '/p/acme/subscription/');
    await get('manage', manage);

    await get('password form', '/p/secret', 401);
    await post('wrong password', '/p/secret/access', 'password=wrong', 401);

    const errors = await nuErrors(pages);
    expect(errors, errors.join('\n')).toEqual([]);
  });
});
