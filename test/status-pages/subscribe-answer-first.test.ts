import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { Table } from '../../lib/store/table.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { WAIT } from '../support/wait.ts';
import { linkIn, type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * The keyless subscribe route answers first and works after (issue 75 point 6): its time must not
 * tell a known address from a new one, so it looks nothing up before its 202. The proof is
 * structural, not a stopwatch: every read or write of a subscriber or of the subscription quotas
 * (`PAGESUB…` keys) on the api's store is held until the test lets it go, and the route must
 * answer, the same bytes for a pending and a new address, while they are held; once let go, the
 * queued work subscribes the new address and its confirmation mail arrives (SMTP on 127.0.0.1
 * locally, SES v2 in the cloud). And where no mail can go (issue 75 point 10), the page offers no
 * sign-up and the route refuses it, saying why, on both runtimes.
 */

const T0 = Date.parse('2026-07-01T09:00:00.000Z');

/** Holds every call of `table` that names a subscriber or subscription quota key until `release`. */
function holdSubscriberKeys(table: Table) {
  const methods = ['get', 'query', 'update', 'transact'] as const;
  const target = table as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const originals = new Map(methods.map((m) => [m, target[m]] as const));
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  for (const [method, original] of originals) {
    if (!original) throw new Error(`the table has no ${method}`);
    target[method] = async (...args: unknown[]) => {
      if (JSON.stringify(args).includes('PAGESUB')) {
        held += 1;
        await released;
      }
      return original.apply(table, args);
    };
  }
  return {
    held: () => held,
    release() {
      release();
      for (const [method, original] of originals) target[method] = original as never;
    },
  };
}

describe.each(subscriberRuntimes)('the subscribe route answers first ($runtime runtime)', ({ start }) => {
  let rt: SubscriberRuntime;
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  const settle = async () => {
    await api.drainChanges();
    await api.runNotifyJobs();
    await api.drainChanges();
    await api.runNotifyJobs();
  };
  const subscribe = (email: string) =>
    api.request('POST', '/p/acme/subscribe', {
      rawBody: new URLSearchParams({ email }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const mailsTo = (address: string) => rt.mails().filter((m) => m.to.includes(address));

  beforeAll(async () => {
    rt = await start(clock);
    api = rt.api;
    const made = await api.request('POST', '/v1/status-pages', {
      key: api.adminKey,
      body: { slug: 'acme', title: 'Acme', entity_ids: [] },
    });
    expect(made.status, made.text).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  it('answers a known and a new address alike while every lookup of them is held, then mails the new one', async () => {
    // Known: pending, its link mailed.
    expect((await subscribe('known@example.com')).status).toBe(202);
    await settle();
    expect(mailsTo('known@example.com')).toHaveLength(1);

    const hold = holdSubscriberKeys(api.table);
    try {
      const answers: { status: number; text: string }[] = [];
      const asked = (async () => {
        answers.push(await subscribe('known@example.com'));
        answers.push(await subscribe('new@example.com'));
      })();
      // Both answers come while nothing of the subscribers can be read or written: the route
      // looked nothing up (the previous route awaited the address's quota and record first).
      await vi.waitFor(() => expect(answers).toHaveLength(2), WAIT);
      await asked;
      expect(answers.map((a) => a.status)).toEqual([202, 202]);
      expect(answers[0]?.text).toBe(answers[1]?.text);
      expect(answers[0]?.text).toContain('Check your inbox');
    } finally {
      hold.release();
    }
    // The work happens after: the new address gets its link; the pending one none within the hour.
    await settle();
    await vi.waitFor(() => expect(mailsTo('new@example.com')).toHaveLength(1), WAIT);
    const link = linkIn(mailsTo('new@example.com')[0]?.text ?? '', '/p/acme/confirm/');
    expect((await api.request('POST', link, { rawBody: '' })).status).toBe(200);
    expect(mailsTo('known@example.com')).toHaveLength(1);
  });
});

describe.each(bothRuntimes)('no mail, no sign-up ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    // Neither SMTP (locally) nor a sender (VIGIL_EMAIL_FROM; in the cloud, SES's): no mail can go.
    api = await start();
    const made = await api.request('POST', '/v1/status-pages', {
      key: api.adminKey,
      body: { slug: 'quiet', title: 'Quiet', entity_ids: [] },
    });
    expect(made.status, made.text).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('shows no subscribe form on the public page', async () => {
    const page = await api.request('GET', '/p/quiet');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Quiet</h1>');
    expect(page.text).not.toContain('/p/quiet/subscribe');
    expect(page.text).not.toContain('Get updates');
  });

  it('refuses a subscription, by the form or as JSON, saying mail is off, and makes no subscriber', async () => {
    const form = await api.request('POST', '/p/quiet/subscribe', {
      rawBody: 'email=reader%40example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const json = await api.request('POST', '/p/quiet/subscribe', { body: { email: 'reader@example.com' } });
    for (const res of [form, json]) {
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: expect.stringContaining('subscribing by e-mail is off: this deployment sends no mail'),
      });
    }
    await api.drainChanges();
    await api.runNotifyJobs();
    const listed = await api.request('GET', '/v1/status-pages/quiet/subscribers', { key: api.adminKey });
    expect(listed.status).toBe(200);
    expect(listed.body.subscribers).toEqual([]);
  });
});
