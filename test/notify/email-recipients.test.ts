import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiHarness } from '../support/api-harness.ts';
import { type MailRig, mailRigs } from '../support/mail-rigs.ts';

/**
 * The email channel is no relay (issue 36): an address gets alerts only after confirming by the
 * link emailed to it (a user of the tenant is confirmed already), the link confirms once, only on
 * its button (POST), within 7 days, in its own tenant; confirmation emails are rate-limited per
 * address; and a tenant's daily email quota skips what passes it. Both runtimes: locally real
 * mail to an SMTP server on 127.0.0.1, in the cloud SES v2 (mocked): `test/support/mail-rigs.ts`.
 */

const PUBLIC_URL = 'https://vigil.example.com';
const START = Date.parse('2026-03-02T09:00:00.000Z');

const rigs = mailRigs({ startMs: START, from: 'alerts@vigil.example.com', publicUrl: PUBLIC_URL });

describe.each(rigs)('email recipients on the $runtime runtime', { timeout: 60_000 }, ({ start }) => {
  let rig: MailRig;
  let api: ApiHarness;

  async function call(method: string, path: string, body?: unknown, key = api.adminKey) {
    const res = await api.request(method, path, { key, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  }

  async function pushCheck(name: string, key = api.adminKey) {
    const tag = Math.random().toString(36).slice(2, 8);
    const bp = await call('POST', '/v1/blueprints', { slug: `svc-${tag}`, name: 'Service' }, key);
    const entity = await call('POST', `/v1/blueprints/${bp.slug}/entities`, { slug: 'app', name }, key);
    const check = await call(
      'POST',
      '/v1/checks',
      {
        entity_id: entity.id,
        check_type: 'push',
        name: 'Heartbeat',
        interval_seconds: 60,
        failure_threshold: 1,
      },
      key,
    );
    return check.id as string;
  }

  const addChannel = (checkId: string, to: string[], key = api.adminKey) =>
    call('POST', `/v1/checks/${checkId}/policy/channels`, { channel_type: 'email', config: { to } }, key);

  const mailsTo = (address: string) => rig.mails().filter((m) => m.to.includes(address));

  /** The path of the latest confirmation link emailed to `address`. */
  function linkTo(address: string): string {
    const mail = mailsTo(address)
      .filter((m) => m.subject === '[Vigil] Confirm alerts to this address')
      .at(-1);
    const found = mail?.text.match(/https:\/\/vigil\.example\.com(\/v1\/email-confirmations\/\S+)/);
    if (!found?.[1]) throw new Error(`no confirmation link to ${address}`);
    return found[1];
  }

  const sendTest = async (checkId: string) =>
    (await call('POST', `/v1/checks/${checkId}/policy/test`)) as { status: string; reason: string | null }[];

  const statesOf = async (checkId: string) =>
    ((await call('GET', `/v1/checks/${checkId}/policy`)).channels as { recipients?: unknown }[])
      .map((c) => c.recipients)
      .filter(Boolean);

  beforeAll(async () => {
    rig = await start();
    api = rig.api;
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('emails one confirmation link to a new address and sends it no alert until confirmed', async () => {
    const checkId = await pushCheck('Checkout');
    const channel = await addChannel(checkId, ['new-rcpt@example.com']);
    expect(channel.recipients).toEqual([{ address: 'new-rcpt@example.com', state: 'pending' }]);
    const confirmations = mailsTo('new-rcpt@example.com');
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.subject).toBe('[Vigil] Confirm alerts to this address');
    // Nothing the tenant typed (the entity's name) reaches an address that never confirmed.
    expect(confirmations[0]?.text).not.toContain('Checkout');

    const [test] = await sendTest(checkId);
    expect(test?.status).toBe('skipped');
    expect(test?.reason).toMatch(/^no confirmed recipient/);
    // The simulation says so too.
    const simulated = await call('POST', '/v1/notify/simulate', { check_id: checkId, to_state: 'down' });
    expect(simulated.decisions).toMatchObject([
      { outcome: 'skip', reason: expect.stringContaining('no confirmed recipient: 1 address(es)') },
    ]);

    // A real alert: the check goes down; the delivery is logged skipped, nothing is sent.
    await call('POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 5 });
    await call('POST', `/v1/checks/${checkId}/results`, {
      success: false,
      latency_ms: 5,
      error_message: 'x',
    });
    await api.drainChanges();
    await api.runNotifyJobs();
    const logs = (await call('GET', `/v1/notify/logs?check_id=${checkId}`)).logs as {
      event: string;
      status: string;
      reason: string | null;
    }[];
    const alert = logs.find((l) => l.event === 'down');
    expect(alert?.status).toBe('skipped');
    expect(alert?.reason).toMatch(/^no confirmed recipient: 1 address\(es\) pending confirmation/);
    expect(mailsTo('new-rcpt@example.com')).toHaveLength(1);
  });

  it('confirms on the page’s button only, once; then the address gets alerts and partial channels send to the confirmed only', async () => {
    const checkId = await pushCheck('Billing');
    await addChannel(checkId, ['billing-rcpt@example.com', 'other-rcpt@example.com']);
    const link = linkTo('billing-rcpt@example.com');

    // GET shows the page (a link scanner's visit): the address and a Confirm button; nothing confirmed.
    const page = await api.request('GET', link);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('billing-rcpt@example.com');
    expect(page.text).toContain('<form method="post">');
    expect(await statesOf(checkId)).toEqual([
      [
        { address: 'billing-rcpt@example.com', state: 'pending' },
        { address: 'other-rcpt@example.com', state: 'pending' },
      ],
    ]);

    const confirmed = await api.request('POST', link, {
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Address confirmed');
    expect(await statesOf(checkId)).toEqual([
      [
        { address: 'billing-rcpt@example.com', state: 'confirmed' },
        { address: 'other-rcpt@example.com', state: 'pending' },
      ],
    ]);
    // Single use: the same link again is the invalid-link page.
    const again = await api.request('POST', link, { rawBody: '' });
    expect(again.status).toBe(404);
    expect(again.text).toContain('This link is not valid');
    expect((await api.request('GET', link)).status).toBe(404);

    const before = rig.mails().length;
    const [test] = await sendTest(checkId);
    expect(test?.status).toBe('sent');
    const sent = rig.mails().slice(before);
    expect(sent.map((m) => m.to)).toEqual([['billing-rcpt@example.com']]);
  });

  it('counts a user of the tenant as confirmed: no confirmation email, alerts from the start', async () => {
    const invited = await call('POST', '/v1/settings/users/invite', { email: 'member-rcpt@example.com' });
    await call('POST', '/v1/settings/users/accept', { token: invited.token, name: 'Member' }, '');
    const checkId = await pushCheck('Search');
    const channel = await addChannel(checkId, ['Member-Rcpt@example.com']);
    expect(channel.recipients).toEqual([{ address: 'Member-Rcpt@example.com', state: 'confirmed' }]);
    expect(mailsTo('Member-Rcpt@example.com')).toHaveLength(0);
    const [test] = await sendTest(checkId);
    expect(test?.status).toBe('sent');
    expect(mailsTo('Member-Rcpt@example.com')).toHaveLength(1);
  });

  it('emails an address one confirmation per 10 minutes, and a link expires after 7 days', async () => {
    const checkId = await pushCheck('Queue');
    await addChannel(checkId, ['slow-rcpt@example.com']);
    const first = linkTo('slow-rcpt@example.com');
    // A second channel naming it within 10 minutes sends nothing more.
    await addChannel(checkId, ['slow-rcpt@example.com']);
    expect(mailsTo('slow-rcpt@example.com')).toHaveLength(1);
    rig.clock.advance(11 * 60_000);
    await addChannel(checkId, ['slow-rcpt@example.com']);
    expect(mailsTo('slow-rcpt@example.com')).toHaveLength(2);
    const second = linkTo('slow-rcpt@example.com');
    expect(second).not.toBe(first);
    // The newer link replaced the older one.
    expect((await api.request('GET', first)).status).toBe(404);

    rig.clock.advance(7 * 86_400_000 + 1000);
    expect((await api.request('GET', second)).status).toBe(404);
    const late = await api.request('POST', second, { rawBody: '' });
    expect(late.status).toBe(404);
    expect((await statesOf(checkId)).flat()).toContainEqual({
      address: 'slow-rcpt@example.com',
      state: 'pending',
    });
  });

  it('answers 404 for a link under another tenant’s id', async () => {
    const other = await api.createTenant('Rcpt');
    const otherCheck = await pushCheck('Theirs', other.key);
    await addChannel(otherCheck, ['theirs-rcpt@example.com'], other.key);
    const link = linkTo('theirs-rcpt@example.com');
    expect(link).toContain(`/${other.tenantId}/`);
    const crossed = link.replace(`/${other.tenantId}/`, `/${api.tenantId}/`);
    expect((await api.request('GET', crossed)).status).toBe(404);
    expect((await api.request('POST', crossed, { rawBody: '' })).status).toBe(404);
    // Its own tenant's link still works (the crossed attempt used nothing up).
    expect((await api.request('POST', link, { rawBody: '' })).status).toBe(200);
  });

  it('skips what passes the tenant’s daily email quota, logged `email quota`, and sends nothing', async () => {
    const tenant = await api.createTenant('Quota');
    const checkId = await pushCheck('Mailer', tenant.key);
    const res = await api.request('POST', `/v1/checks/${checkId}/policy/channels`, {
      key: tenant.key,
      body: { channel_type: 'email', config: { to: ['quota-rcpt@example.com'] } },
    });
    expect(res.status).toBe(201);
    await api.request('POST', linkTo('quota-rcpt@example.com'), { rawBody: '' });
    // The confirmation email counted one of today's 3.
    await api.operator(['tenant', 'limits', tenant.tenantId, '--email-daily-limit', '3']);
    const me = await api.request('GET', '/v1/me', { key: tenant.key });
    expect(me.body.email_daily_limit).toBe(3);

    const sendTestAs = async () =>
      (await api.request('POST', `/v1/checks/${checkId}/policy/test`, { key: tenant.key })).body as {
        status: string;
        reason: string | null;
      }[];
    const before = mailsTo('quota-rcpt@example.com').length;
    expect((await sendTestAs())[0]?.status).toBe('sent');
    expect((await sendTestAs())[0]?.status).toBe('sent');
    const over = (await sendTestAs())[0];
    expect(over?.status).toBe('skipped');
    expect(over?.reason).toBe("email quota: the tenant's daily limit of 3 emails is reached");
    expect(mailsTo('quota-rcpt@example.com')).toHaveLength(before + 2);

    // The next UTC day has a quota of its own.
    rig.clock.advance(86_400_000);
    expect((await sendTestAs())[0]?.status).toBe('sent');
  });
});
