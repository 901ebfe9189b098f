import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintAckLinks } from '../../lib/ack-links/compose.ts';
import { createContactReach } from '../../lib/contacts/reach.ts';
import { createSesTransport } from '../../lib/notify/ses-transport.ts';
import { createSmtpTransport } from '../../lib/notify/smtp-transport.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { loadCursorSecret } from '../../lib/store/cursor-secret.ts';
import { join } from '../auth/team-helpers.ts';
import {
  addVerifiedMethod,
  personInboxes,
  sixDigits,
  twilioSmsChannel,
} from '../contacts/support/person-inboxes.ts';
import { type ApiHarness, type ApiResponse, bothRuntimes } from '../support/api-harness.ts';
import { pushCheckFixtures } from '../support/push-fixtures.ts';
import { providerEgress } from '../support/receivers/provider-host.ts';

/**
 * Acknowledgement links (issue 55 item 4, docs/on-call.md "Acknowledge from the message") through
 * both runtimes: a link minted for a person and an incident shows a page on GET and changes nothing,
 * acknowledges as that person on POST, once; it expires after 24 hours (a fake clock), names one
 * incident only, never sets a cookie, and works when read out of an e-mail (SMTP locally, SES in
 * the cloud) and an SMS (a Twilio account on 127.0.0.1) sent to the person's contact methods.
 */

const PUBLIC_URL = 'https://vigil.example.com';
const ACCOUNT = `AC${'c3'.repeat(16)}`;
const AUTH = 'b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4';
const DAY_MS = 24 * 3_600_000;

const inbox = personInboxes(ACCOUNT, AUTH);

/** The path of a link (`/a/<token>`) found in a message's text. */
const linkIn = (text: string | undefined) =>
  /https:\/\/vigil\.example\.com(\/a\/vack_[0-9A-Za-z]{40})/.exec(text ?? '')?.[1];

describe.each(bothRuntimes)('acknowledgement links ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  // biome-ignore lint/suspicious/noExplicitAny: the API's answers are inspected freely
  const call = async (method: string, path: string, body?: unknown, expected?: number): Promise<any> => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    if (expected !== undefined) expect(res.status, `${method} ${path}: ${res.text}`).toBe(expected);
    return res.body;
  };
  const fx = pushCheckFixtures(call, () => api.drainChanges());
  let member: { key: string; userId: string };
  const mint = (incidentId: string, userId = member.userId) =>
    mintAckLinks(
      { table: api.table, clock, config: { publicUrl: PUBLIC_URL } },
      { tenantId: api.tenantId, incidentId, userId },
    );
  /** A keyless request to a link's path, as a browser sends it (the form posts an empty urlencoded body). */
  const follow = (method: 'GET' | 'POST', path: string): Promise<ApiResponse> =>
    api.request(
      method,
      path,
      method === 'POST'
        ? { rawBody: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } }
        : {},
    );
  const incident = async (id: string) => call('GET', `/v1/incidents/${id}`, undefined, 200);
  const downIncident = async (name: string): Promise<string> => {
    const { entityId, checkId } = await fx.entityWithCheck(name);
    await fx.result(checkId, true);
    await fx.result(checkId, false);
    const listed = await call('GET', `/v1/incidents?entity_id=${entityId}`, undefined, 200);
    expect(listed.incidents).toHaveLength(1);
    return listed.incidents[0].id;
  };
  const pathOf = (url: string | undefined) => (url ?? '').slice(PUBLIC_URL.length);
  /** Every answer of a link: an HTML page, never stored, never a referrer, never a cookie. */
  const expectLinkPage = (res: ApiResponse, status: number) => {
    expect(res.status, res.text).toBe(status);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).not.toContain('<script');
  };

  beforeAll(async () => {
    api = await start({
      clock,
      egress: providerEgress(new Map([['api.twilio.com', inbox.twilio.port]])),
      env: {
        VIGIL_PUBLIC_URL: PUBLIC_URL,
        VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
        VIGIL_EMAIL_FROM: 'Vigil <pages@vigil.example.com>',
        ...(runtime === 'local' ? { VIGIL_SMTP_URL: inbox.smtp.url } : {}),
      },
    });
    const joined = await join(api, api.adminKey, { role: 'member' });
    member = { key: joined.key, userId: joined.userId };
  });
  afterAll(async () => {
    await api?.close();
  });

  it('shows the incident on GET and changes nothing; POST acknowledges as the link’s person, once', async () => {
    const id = await downIncident('Shop API');
    const links = await mint(id);
    expect(links?.acknowledge).toMatch(/^https:\/\/vigil\.example\.com\/a\/vack_[0-9A-Za-z]{40}$/);
    const path = pathOf(links?.acknowledge);

    // A mail scanner's prefetch, twice: the page, and nothing changed.
    for (let i = 0; i < 2; i += 1) {
      const page = await follow('GET', path);
      expectLinkPage(page, 200);
      expect(page.text).toContain('Shop API');
      expect(page.text).toContain('incident open since');
      expect(page.text).toContain('<form method="post">');
    }
    expect(await incident(id)).toMatchObject({ state: 'open', acknowledged_by: null });

    const done = await follow('POST', path);
    expectLinkPage(done, 200);
    expect(done.text).toContain('Acknowledged by');
    const acked = await incident(id);
    // The link's person, not the key's owner nor anyone signed in.
    expect(acked).toMatchObject({ state: 'acknowledged', acknowledged_by: member.userId });
    expect(acked.timeline.some((e: { type: string }) => e.type === 'acknowledgement')).toBe(true);

    // Used: a second press and a later look both say so, and by whom it was acknowledged.
    for (const method of ['POST', 'GET'] as const) {
      const again = await follow(method, path);
      expectLinkPage(again, 410);
      expect(again.text).toContain('This link was used');
      expect(again.text).toContain('Acknowledged by');
    }
    expect((await incident(id)).acknowledged_at).toBe(acked.acknowledged_at);

    // Only the token's hash is stored: no item holds the token.
    const token = path.slice('/a/'.length);
    const items = JSON.stringify(await api.table.query({ pk: `TENANT#${api.tenantId}` }));
    expect(items).not.toContain(token);
  });

  it('answers an expired link as an unknown one (one 404 page), and acknowledges nothing with it', async () => {
    const id = await downIncident('Billing');
    const path = pathOf((await mint(id))?.acknowledge);
    const unknown = await follow('GET', `/a/vack_${'Z'.repeat(40)}`);
    expectLinkPage(unknown, 404);
    expect(unknown.text).toContain('This link is not valid');
    expect((await follow('GET', '/a/not-a-token')).text).toBe(unknown.text);

    offset += DAY_MS - 60_000;
    expectLinkPage(await follow('GET', path), 200);
    offset += 61_000;
    try {
      const expired = await follow('GET', path);
      expectLinkPage(expired, 404);
      expect(expired.text).toBe(unknown.text);
      const pressed = await follow('POST', path);
      expectLinkPage(pressed, 404);
      expect(pressed.text).toBe(unknown.text);
      expect(await incident(id)).toMatchObject({ state: 'open', acknowledged_by: null });
    } finally {
      offset = 0;
    }
  });

  it('acknowledges only the incident its link names', async () => {
    const one = await downIncident('Search');
    const other = await downIncident('Images');
    const path = pathOf((await mint(one))?.acknowledge);
    expectLinkPage(await follow('POST', path), 200);
    expect(await incident(one)).toMatchObject({ state: 'acknowledged', acknowledged_by: member.userId });
    expect(await incident(other)).toMatchObject({ state: 'open', acknowledged_by: null });
    // Another incident's link and this one differ: each link is minted for one incident.
    const otherPath = pathOf((await mint(other))?.acknowledge);
    expect(otherPath).not.toBe(path);
  });

  it('mints nothing without VIGIL_PUBLIC_URL (a link must be absolute)', async () => {
    const none = await mintAckLinks(
      { table: api.table, clock, config: { publicUrl: undefined } },
      { tenantId: api.tenantId, incidentId: 'inc_x', userId: member.userId },
    );
    expect(none).toBeUndefined();
  });

  it('works from the body of an e-mail and of an SMS sent to the person’s contact methods', async () => {
    // The account's Twilio channel: the SMS contact methods send through it.
    await call('POST', '/v1/notify/channels', twilioSmsChannel(ACCOUNT, AUTH), 201);
    const lastMail = () => inbox.lastMail(runtime);
    const add = (body: Record<string, unknown>, codeOf: () => string | undefined) =>
      addVerifiedMethod(api, member.key, body, codeOf);
    const emailId = await add({ kind: 'email', address: 'ana@example.com' }, () => sixDigits(lastMail()));
    const smsId = await add({ kind: 'sms', address: '+14155550142' }, () =>
      sixDigits(inbox.twilio.messages.at(-1)?.Body),
    );

    const { config } = api.app;
    const reach = createContactReach({
      table: api.table,
      cursors: createCursorSeal(() => loadCursorSecret(api.table)),
      clock,
      config,
      egress: providerEgress(new Map([['api.twilio.com', inbox.twilio.port]])),
      email:
        runtime === 'local'
          ? createSmtpTransport({ url: inbox.smtp.url, egressAllow: config.egressAllow, runtime: 'local' })
          : createSesTransport({ region: 'us-east-1' }),
      emailDailyLimit: async () => 100,
    });

    for (const [kind, methodId, received] of [
      ['email', emailId, lastMail],
      ['sms', smsId, () => inbox.twilio.messages.at(-1)?.Body],
    ] as const) {
      const id = await downIncident(`Checkout by ${kind}`);
      const links = await mint(id);
      const sent = await reach.send(api.tenantId, member.userId, methodId, {
        subject: `[Vigil] Checkout by ${kind} is down`,
        text: `Checkout by ${kind} is down.\nAcknowledge: ${links?.acknowledge}\n`,
        speech: `Checkout by ${kind} is down.`,
        deliveryId: `ack-test-${kind}`,
      });
      expect(sent, kind).toMatchObject({ ok: true });
      const path = linkIn(received());
      expect(path, kind).toBe(pathOf(links?.acknowledge));
      expectLinkPage(await follow('GET', path ?? ''), 200);
      expectLinkPage(await follow('POST', path ?? ''), 200);
      expect(await incident(id), kind).toMatchObject({
        state: 'acknowledged',
        acknowledged_by: member.userId,
      });
    }
  });
});
