import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_SMTP_SERVER, noSenderError } from '../../lib/providers/email.ts';
import {
  type ApiHarness,
  bothRuntimes,
  startLambdaHarness,
  startLocalHarness,
} from '../support/api-harness.ts';
import { decodeWords, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';

/**
 * The email channel through the API of both runtimes: validation (1-10 plain addresses, nothing
 * that could add a header or a recipient), then alerts end to end: locally a check going down
 * sends real mail to an SMTP server on 127.0.0.1 (and a refused attempt is retried as any
 * channel's); in the cloud the notifier and the api function send through SES v2 (mocked).
 */

const PUBLIC_URL = 'https://vigil.example.com';

async function call(api: ApiHarness, method: string, path: string, body?: unknown) {
  const res = await api.request(method, path, { key: api.adminKey, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

/** A push check (failure threshold 1, no cooldown) of a new entity named `name`. */
async function pushCheck(api: ApiHarness, name: string) {
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const bp = await call(api, 'POST', '/v1/blueprints', { slug: `svc-${tag}`, name: 'Service' });
  const entity = await call(api, 'POST', `/v1/blueprints/${bp.slug}/entities`, { slug: 'checkout', name });
  const check = await call(api, 'POST', '/v1/checks', {
    entity_id: entity.id,
    check_type: 'push',
    name: 'Checkout heartbeat',
    interval_seconds: 60,
    failure_threshold: 1,
  });
  await call(api, 'POST', `/v1/checks/${check.id}/policy`, { cooldown_seconds: 0 });
  return { bp, entity, check };
}

async function goDown(api: ApiHarness, checkId: string) {
  await call(api, 'POST', `/v1/checks/${checkId}/results`, { success: true, latency_ms: 5 });
  await api.drainChanges();
  await api.runNotifyJobs();
  await call(api, 'POST', `/v1/checks/${checkId}/results`, {
    success: false,
    latency_ms: 5,
    error_message: 'upstream timed out',
  });
  await api.drainChanges();
  await api.runNotifyJobs();
}

/** Confirms an address by the link its confirmation email carries (issue 36: only confirmed addresses get alerts). */
async function confirmByLink(api: ApiHarness, mailText: string | undefined) {
  const link = mailText?.match(/https:\/\/vigil\.example\.com(\/v1\/email-confirmations\/\S+)/)?.[1];
  if (!link) throw new Error(`no confirmation link in ${mailText}`);
  const res = await api.request('POST', link, { rawBody: '' });
  expect(res.status, res.text).toBe(200);
}

const logsOf = async (api: ApiHarness, checkId: string) =>
  (await call(api, 'GET', `/v1/notify/logs?check_id=${checkId}`)).logs as {
    status: string;
    channel_type: string | null;
    error: string | null;
    attempt_log: { error: string | null }[];
  }[];

describe.each(bothRuntimes)('email channel validation on the $runtime runtime', ({ runtime, start }) => {
  let api: ApiHarness;
  let checkId: string;
  beforeAll(async () => {
    api = await start();
    checkId = (await pushCheck(api, 'Checkout')).check.id;
  });
  afterAll(async () => {
    await api?.close();
  });

  const create = (config: unknown) =>
    api.request('POST', `/v1/checks/${checkId}/policy/channels`, {
      key: api.adminKey,
      body: { channel_type: 'email', config },
    });

  it('creates an email channel without VIGIL_SMTP_URL or VIGIL_EMAIL_FROM, and shows its recipients', async () => {
    const res = await create({ to: ['ops@example.com', 'on-call+vigil@team.example.org'] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      channel_type: 'email',
      config: { to: ['ops@example.com', 'on-call+vigil@team.example.org'] },
    });
    const policy = await call(api, 'GET', `/v1/checks/${checkId}/policy`);
    expect(policy.channels.map((c: { channel_type: string }) => c.channel_type)).toContain('email');
  });

  it('warns, when an email channel is saved, that its deliveries will fail, in the words of the failure', async () => {
    // Locally no VIGIL_SMTP_URL comes first; the cloud sends through SES but has no sender here.
    const failure = runtime === 'local' ? NO_SMTP_SERVER : noSenderError('cloud');
    const own = await create({ to: ['ops@example.com'] });
    expect(own.status, own.text).toBe(201);
    expect(own.body.warnings).toEqual([failure]);
    const shared = await call(api, 'POST', '/v1/notify/channels', {
      name: 'Ops mail',
      channel_type: 'email',
      config: { to: ['ops@example.com'] },
    });
    expect(shared.warnings).toEqual([failure]);
    const attached = await call(api, 'POST', `/v1/checks/${checkId}/policy/channels`, {
      channel_id: shared.id,
    });
    expect(attached.warnings).toEqual([failure]);
    const updated = await call(api, 'PUT', `/v1/notify/channels/${shared.id}`, {
      name: 'Ops mail',
      channel_type: 'email',
      config: { to: ['oncall@example.com'] },
    });
    expect(updated.warnings).toEqual([failure]);
    const read = await call(api, 'GET', `/v1/notify/channels/${shared.id}`);
    expect(read.warnings).toBeUndefined();
    const tests = await call(api, 'POST', `/v1/checks/${checkId}/policy/test`);
    expect(tests).toEqual(
      expect.arrayContaining([expect.objectContaining({ status: 'failed', error: failure })]),
    );
  });

  const eleven = Array.from({ length: 11 }, (_, i) => `ops${i}@example.com`);
  it.each([
    ['11 recipients', { to: eleven }],
    ['no recipient', { to: [] }],
    ['no to', {}],
    ['an unknown key', { to: ['ops@example.com'], cc: ['x@example.com'] }],
    ['not an address', { to: ['not-an-address'] }],
    ['a display name', { to: ['Ops <ops@example.com>'] }],
    ['two addresses in one', { to: ['ops@example.com,victim@example.com'] }],
    ['a semicolon', { to: ['ops@example.com;victim@example.com'] }],
    ['CRLF and a Bcc header', { to: ['ops@example.com\r\nBcc: victim@example.com'] }],
    ['a bare LF', { to: ['ops@example.com\nvictim@example.com'] }],
    ['an encoded CRLF', { to: ['ops%0d%0a@example.com'] }],
    ['a space', { to: ['ops @example.com'] }],
    ['a quoted local part', { to: ['"ops\r\n"@example.com'] }],
    ['a 255-character address', { to: [`${'a'.repeat(64)}@${'b'.repeat(180)}.example.com`] }],
    ['a string instead of a list', { to: 'ops@example.com' }],
  ])('answers 400 for %s', async (_case, config) => {
    const res = await create(config);
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('config');
  });
});

describe('email alerts end to end on the local runtime (SMTP)', () => {
  let smtp: TestSmtpServer;
  let api: ApiHarness;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    api = await startLocalHarness({
      env: {
        VIGIL_SMTP_URL: smtp.url,
        VIGIL_EMAIL_FROM: 'Vigil <alerts@vigil.example.com>',
        VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
        VIGIL_PUBLIC_URL: PUBLIC_URL,
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  it('emails the down alert with text and HTML parts when a check goes down', async () => {
    const { bp, check } = await pushCheck(api, 'Checkout <script>x</script>');
    const channel = await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'email',
      config: { to: ['ops@example.com'] },
    });
    expect(channel.warnings).toEqual([]);
    await confirmByLink(api, smtp.received.at(-1)?.message.text);
    const before = smtp.received.length;

    await goDown(api, check.id);

    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const mail = smtp.received[before];
    if (!mail) throw new Error('no mail');
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.from).toBe('alerts@vigil.example.com');
    expect(decodeWords(mail.message.headers.get('subject') ?? '')).toBe(
      '[Vigil] Checkout <script>x</script> is down',
    );
    const link = `${PUBLIC_URL}/entities/${bp.slug}/checkout`;
    expect(mail.message.text).toContain('State: up → down');
    expect(mail.message.text).toContain('Last error: upstream timed out');
    expect(mail.message.text).toContain('Check: Checkout heartbeat');
    expect(mail.message.text).toContain(link);
    expect(mail.message.html).toContain('Checkout &lt;script&gt;x&lt;/script&gt; is down');
    expect(mail.message.html).not.toContain('<script>');
    expect(mail.message.html).toContain(`href="${link}"`);
    await expect
      .poll(async () => (await logsOf(api, check.id)).filter((l) => l.channel_type === 'email')[0]?.status)
      .toBe('sent');
  });

  it('logs a refused attempt as failed, retries it and logs it sent', async () => {
    const { check } = await pushCheck(api, 'Billing');
    await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'email',
      config: { to: ['billing@example.com'] },
    });
    await confirmByLink(api, smtp.received.at(-1)?.message.text);
    const before = smtp.received.length;
    smtp.refuseNext(2, { code: 451, message: 'Greylisted, try again' });

    await goDown(api, check.id);

    const email = async () => (await logsOf(api, check.id)).find((l) => l.channel_type === 'email');
    await expect.poll(async () => (await email())?.status, { timeout: 15_000 }).toBe('sent');
    const record = await email();
    expect(record?.attempt_log.map((a) => a.error)).toEqual([
      expect.stringMatching(/^the SMTP server answered: 451 .*Greylisted/),
      expect.stringMatching(/^the SMTP server answered: 451 .*Greylisted/),
      null,
    ]);
    expect(smtp.received.slice(before).filter((m) => m.to.includes('billing@example.com'))).toHaveLength(1);
  });
});

describe('email without VIGIL_SMTP_URL on the local runtime', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startLocalHarness({ env: { VIGIL_EMAIL_FROM: 'alerts@vigil.example.com' } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('creates the channel, and a send fails with a clear error in the delivery log', async () => {
    const { check } = await pushCheck(api, 'Checkout');
    await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'email',
      config: { to: ['ops@example.com'] },
    });
    const records = await call(api, 'POST', `/v1/checks/${check.id}/policy/test`);
    expect(records).toMatchObject([{ kind: 'test', status: 'failed', error: NO_SMTP_SERVER }]);
  });
});

describe('email alerts through SES on the Lambda runtime', () => {
  const ses = mockClient(SESv2Client);
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startLambdaHarness({
      env: { VIGIL_EMAIL_FROM: 'Vigil <alerts@vigil.example.com>', VIGIL_PUBLIC_URL: PUBLIC_URL },
    });
  });
  afterEach(() => {
    ses.reset();
  });
  afterAll(async () => {
    ses.restore();
    await api?.close();
  });

  it('the notifier sends a SendEmailCommand with the destination, the sender and text and HTML content', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
    const { bp, check } = await pushCheck(api, 'Checkout <b>');
    const channel = await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'email',
      config: { to: ['ops@example.com', 'oncall@example.org'] },
    });
    expect(channel.warnings).toEqual([]);
    for (const call of ses.commandCalls(SendEmailCommand))
      await confirmByLink(api, call.args[0].input.Content?.Simple?.Body?.Text?.Data);
    const before = ses.commandCalls(SendEmailCommand).length;
    expect(before).toBe(2);

    await goDown(api, check.id);

    await expect.poll(() => ses.commandCalls(SendEmailCommand).length).toBe(before + 1);
    const input = ses.commandCalls(SendEmailCommand)[before]?.args[0].input;
    expect(input?.FromEmailAddress).toBe('"Vigil" <alerts@vigil.example.com>');
    expect(input?.Destination).toEqual({ ToAddresses: ['ops@example.com', 'oncall@example.org'] });
    const simple = input?.Content?.Simple;
    expect(simple?.Subject).toEqual({ Data: '[Vigil] Checkout <b> is down', Charset: 'UTF-8' });
    const link = `${PUBLIC_URL}/entities/${bp.slug}/checkout`;
    expect(simple?.Body?.Text?.Data).toContain('State: up → down');
    expect(simple?.Body?.Text?.Data).toContain('Last error: upstream timed out');
    expect(simple?.Body?.Text?.Data).toContain(link);
    expect(simple?.Body?.Html?.Data).toContain('Checkout &lt;b&gt; is down');
    expect(simple?.Body?.Html?.Data).toContain(`href="${link}"`);
    expect(simple?.Headers?.[0]?.Name).toBe('X-Vigil-Delivery');
    const logs = await logsOf(api, check.id);
    expect(logs.find((l) => l.channel_type === 'email')?.status).toBe('sent');
  });

  it('logs a refusal by SES as a failed attempt to retry, and the api function sends test messages through SES too', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-confirm' });
    const { check } = await pushCheck(api, 'Billing');
    await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, {
      channel_type: 'email',
      config: { to: ['billing@example.com'] },
    });
    await confirmByLink(
      api,
      ses.commandCalls(SendEmailCommand).at(-1)?.args[0].input.Content?.Simple?.Body?.Text?.Data,
    );
    ses.reset();
    ses
      .on(SendEmailCommand)
      .rejectsOnce(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }))
      .resolves({ MessageId: 'ses-2' });

    await goDown(api, check.id);

    const record = (await logsOf(api, check.id)).find((l) => l.channel_type === 'email');
    expect(record?.status).toBe('retrying');
    expect(record?.error).toBe('SES refused the email: MessageRejected: Email address is not verified.');

    const tests = await call(api, 'POST', `/v1/checks/${check.id}/policy/test`);
    expect(tests).toMatchObject([{ kind: 'test', status: 'sent' }]);
    expect(ses.commandCalls(SendEmailCommand).at(-1)?.args[0].input.Destination).toEqual({
      ToAddresses: ['billing@example.com'],
    });
  });
});
