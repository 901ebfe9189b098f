import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpTransport } from '../../lib/notify/channels/email-smtp.ts';
import { createChannelSenders } from '../../lib/notify/channels/index.ts';
import { describeAlert } from '../../lib/notify/channels/message.ts';
import type { ChannelSenders } from '../../lib/notify/items/ports.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { NO_SMTP_SERVER } from '../../lib/providers/email.ts';
import { emailContent, headerLine } from '../../lib/providers/email-message.ts';
import { decodeWords, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';
import { channel, sampleAlert } from './channels/alert-fixture.ts';

/**
 * The email channel's sender against a real SMTP server on 127.0.0.1: what arrives (envelope,
 * headers, text and HTML parts), escaping, header injection, refusals, the SSRF guard, smtps with
 * credentials, and the errors of a missing SMTP server or sender.
 */

const FROM = { address: 'alerts@vigil.example.com', name: 'Vigil' };
const LOOPBACK = ['127.0.0.0/8'];

let tls: TlsFixtures;
let smtp: TestSmtpServer;
let senders: ChannelSenders;

function sendersFor(url: string | undefined, options: { egressAllow?: string[]; ca?: string[] } = {}) {
  const egressAllow = options.egressAllow ?? LOOPBACK;
  return createChannelSenders({
    egressAllow,
    natsUrls: [],
    natsPrefix: 'vigil',
    publicUrl: 'https://vigil.example.com/',
    logger: silentLogger,
    clock: createFakeClock(),
    email: url ? createSmtpTransport({ url, egressAllow, ca: options.ca, timeoutMs: 5_000 }) : undefined,
    emailFrom: FROM,
  });
}

const mailTo = (...to: string[]) => channel('email', { to });
const last = () => {
  const mail = smtp.received.at(-1);
  if (!mail) throw new Error('no mail arrived');
  return mail;
};

beforeAll(async () => {
  tls = createTlsFixtures();
  smtp = await startSmtpServer();
  senders = sendersFor(smtp.url);
});

afterAll(async () => {
  await senders?.close();
  await smtp?.close();
});

describe('email channel over SMTP', () => {
  it('sends one message with text and HTML parts: entity, states, check, reason, time and console link', async () => {
    const outcome = await senders.send(mailTo('ops@example.com', 'oncall@example.org'), sampleAlert());

    expect(outcome).toEqual({ ok: true, status_code: null, error: null });
    const mail = last();
    expect(mail.from).toBe('alerts@vigil.example.com');
    expect(mail.to).toEqual(['ops@example.com', 'oncall@example.org']);
    const { headers, text, html } = mail.message;
    expect(headers.get('from')).toBe('Vigil <alerts@vigil.example.com>');
    expect(headers.get('to')).toBe('ops@example.com, oncall@example.org');
    expect(decodeWords(headers.get('subject') ?? '')).toBe('[Vigil] Payments API is down');
    expect(headers.get('x-vigil-delivery')).toBe('dlv_01JTESTDELIVERY');
    expect(headers.get('content-type')).toMatch(/^multipart\/alternative/);
    const link = 'https://vigil.example.com/entities/service/payments-api';
    for (const body of [text, html]) {
      expect(body).toContain('Payments API is down');
      expect(body).toContain('Payments health');
      expect(body).toContain('GET https://payments.example.com/health');
      expect(body).toContain('up → down');
      expect(body).toContain('the endpoint answered 503');
      expect(body).toContain('2026-03-01 12:34:56 UTC');
      expect(body).toContain(link);
    }
    expect(html).toContain(`<a href="${link}">Open in Vigil</a>`);
  });

  it('says what each message is: a repeat how long it has been down, an escalation how long unacknowledged', async () => {
    const to = mailTo('ops@example.com');
    await senders.send(to, sampleAlert({ kind: 'repeat', downForSeconds: 1500 }));
    const repeat = last().message;
    expect(decodeWords(repeat.headers.get('subject') ?? '')).toBe(
      '[Vigil] Payments API is still down for 25 min',
    );
    expect(repeat.text).toContain('Kind: repeat');
    expect(repeat.html).toMatch(/>Kind<\/th><td[^>]*>repeat</);
    await senders.send(
      to,
      sampleAlert({ kind: 'escalation', unacknowledgedMinutes: 5, unacknowledgedSeconds: 300 }),
    );
    const escalation = last().message;
    expect(escalation.text).toContain('Kind: escalation');
    expect(escalation.html).toMatch(/>Kind<\/th><td[^>]*>escalation</);
    for (const body of [escalation.text, escalation.html])
      expect(body).toContain('unacknowledged for 5 minutes');
  });

  it('escapes the HTML: a name with <script> is text, never markup', async () => {
    const name = '<script>alert("x")</script> & <b>co</b>';
    const alert = sampleAlert({
      entity: { id: 'ent_1', name, blueprint_slug: 'service', slug: 'x' },
      lastError: '<img src=x onerror=alert(1)>',
    });
    await senders.send(mailTo('ops@example.com'), alert);

    const { html, text } = last().message;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>co');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;co&lt;/b&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // The text part is plain: shown as written.
    expect(text).toContain(name);
  });

  it('keeps a name with CR/LF on the subject line: no header is added, no one else receives it', async () => {
    const name = 'Evil\r\nBcc: victim@attacker.example\r\nX-Injected: yes\n\nbody';
    const alert = sampleAlert({ entity: { id: 'ent_1', name, blueprint_slug: 'service', slug: 'x' } });
    await senders.send(mailTo('ops@example.com'), alert);

    const mail = last();
    expect(mail.to).toEqual(['ops@example.com']);
    const names = mail.message.headerLines.map((line) => line.split(':')[0]?.toLowerCase());
    expect(names).not.toContain('bcc');
    expect(names).not.toContain('x-injected');
    expect(decodeWords(mail.message.headers.get('subject') ?? '')).toBe(
      '[Vigil] Evil Bcc: victim@attacker.example X-Injected: yes body is down',
    );
  });

  it('shows at most 80 characters of a long entity name in the subject, so the state still shows (issue 36)', async () => {
    const name = `${'Spam offer '.repeat(18)}\r\nBcc: victim@attacker.example`;
    const alert = sampleAlert({ entity: { id: 'ent_1', name, blueprint_slug: 'service', slug: 'x' } });
    await senders.send(mailTo('ops@example.com'), alert);

    const mail = last();
    const subject = decodeWords(mail.message.headers.get('subject') ?? '');
    expect(subject).toMatch(/^\[Vigil\] Spam offer .*… is down$/);
    expect(subject.length).toBeLessThanOrEqual('[Vigil] '.length + 80 + ' is down'.length);
    expect(subject).not.toContain('victim');
    // The body still names the entity whole (up to 200 characters).
    expect(mail.message.text).toContain('Spam offer '.repeat(18).trim());
  });

  it('is guarded by nodemailer too: a raw CR/LF subject given to the transport adds no header', async () => {
    const transport = createSmtpTransport({ url: smtp.url, egressAllow: LOOPBACK });
    const outcome = await transport.send({
      from: FROM,
      to: ['ops@example.com'],
      subject: 'Hello\r\nBcc: victim@attacker.example',
      text: 'x',
      html: '<p>x</p>',
      deliveryId: 'dlv_1',
    });

    expect(outcome.ok).toBe(true);
    const mail = last();
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.message.headerLines.map((line) => line.split(':')[0]?.toLowerCase())).not.toContain('bcc');
  });

  it('strips control characters from subjects', () => {
    expect(headerLine('a\u0000b\u0007c\u2028d\u202ee\tf')).toBe('a b c d e f');
    const content = emailContent(describeAlert(sampleAlert(), undefined));
    expect(content.subject).toBe('[Vigil] Payments API is down');
    expect(content.text).not.toContain('Open in Vigil');
  });

  it('logs a refusal as a failed attempt with the server reply, and sends on the next attempt', async () => {
    const before = smtp.received.length;
    smtp.refuseNext(1, { code: 451, message: 'Mailbox busy, try again' });

    const refused = await senders.send(mailTo('ops@example.com'), sampleAlert());
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^the SMTP server answered: 451 .*Mailbox busy, try again/);
    expect(smtp.received).toHaveLength(before);

    expect((await senders.send(mailTo('ops@example.com'), sampleAlert())).ok).toBe(true);
    expect(smtp.received).toHaveLength(before + 1);
  });

  it('passes the SMTP host through the SSRF guard: loopback is refused unless VIGIL_EGRESS_ALLOW lists it', async () => {
    const guarded = sendersFor(smtp.url, { egressAllow: [] });
    const before = smtp.received.length;

    const outcome = await guarded.send(mailTo('ops@example.com'), sampleAlert());

    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(
      /^not sent: 127\.0\.0\.1 is a loopback address.*VIGIL_EGRESS_ALLOW=127\.0\.0\.1\/32/,
    );
    expect(smtp.received).toHaveLength(before);
    await guarded.close();
  });

  it('sends over smtps:// with credentials, checking the certificate against the URL host', async () => {
    const secure = await startSmtpServer({ tls: tls.valid, auth: { user: 'vigil', pass: 'p@ss w0rd' } });
    try {
      const trusted = sendersFor(secure.url, { ca: [tls.caCert] });
      expect(await trusted.send(mailTo('ops@example.com'), sampleAlert())).toEqual({
        ok: true,
        status_code: null,
        error: null,
      });
      expect(secure.received).toHaveLength(1);

      const untrusting = sendersFor(secure.url);
      const refused = await untrusting.send(mailTo('ops@example.com'), sampleAlert());
      expect(refused.ok).toBe(false);
      expect(refused.error).toMatch(/certificate/i);

      const wrongPassword = sendersFor(secure.url.replace('p%40ss%20w0rd', 'nope'), { ca: [tls.caCert] });
      const denied = await wrongPassword.send(mailTo('ops@example.com'), sampleAlert());
      expect(denied.ok).toBe(false);
      expect(denied.error).toMatch(/535|credentials/);
      expect(denied.error).not.toContain('nope');
      expect(secure.received).toHaveLength(1);
    } finally {
      await secure.close();
    }
  });

  it('fails with a clear error without an SMTP server or a sender', async () => {
    const none = sendersFor(undefined);
    expect(await none.send(mailTo('ops@example.com'), sampleAlert())).toEqual({
      ok: false,
      status_code: null,
      error: NO_SMTP_SERVER,
    });
    const noSender = createChannelSenders({
      egressAllow: LOOPBACK,
      natsUrls: [],
      natsPrefix: 'vigil',
      logger: silentLogger,
      clock: createFakeClock(),
      email: createSmtpTransport({ url: smtp.url, egressAllow: LOOPBACK }),
    });
    const outcome = await noSender.send(mailTo('ops@example.com'), sampleAlert());
    expect(outcome.error).toMatch(/VIGIL_EMAIL_FROM/);
  });
});
