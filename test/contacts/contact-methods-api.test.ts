import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactPlan } from '../../lib/contacts/contact-plan.ts';
import { queryAll } from '../../lib/store/items.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import { invite, join, uniqueEmail } from '../auth/team-helpers.ts';
import { cookieValue, csrfOf, GOOD_PASSWORD, withCookie } from '../people/session-helpers.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { startNtfyReceiver } from '../support/receivers/ntfy.ts';
import { providerEgress } from '../support/receivers/provider-host.ts';
import { type PushoverReceiver, startPushoverReceiver } from '../support/receivers/pushover.ts';
import { startTelegramReceiver, type TelegramReceiver } from '../support/receivers/telegram.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';
import { sixDigits, twilioSmsChannel } from './support/person-inboxes.ts';
import { startTwilioAccount, type TwilioAccountReceiver } from './support/twilio-account.ts';

/**
 * A person's contact methods and notification rules through the API of both runtimes (issue 55
 * item 2): each kind added, sent a 6-digit code through its own provider (played on 127.0.0.1 by a
 * receiver under the provider's real host name: Twilio's Messages and Calls, Pushover, Telegram, an
 * ntfy topic; e-mail to a real SMTP server locally and through SES, mocked, in the cloud) and
 * verified with the code received; the refusals (a wrong, expired or burnt code, a resend too soon,
 * a rule on an unverified method); and who may see what: only the person (another member, an admin
 * and another tenant get 404; a read-only key reads but cannot write).
 */

const BOT = '123456789:AAEhBP0av28fNvN2vE5k1Qx8Vq2bYp9T3xQ';
const APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER_KEY = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const ACCOUNT = `AC${'b2'.repeat(16)}`;
const AUTH = 'a9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4';
const CHAT = '987654321';

let twilio: TwilioAccountReceiver;
let pushover: PushoverReceiver;
let telegram: TelegramReceiver;
let smtp: TestSmtpServer;
let ntfy: Awaited<ReturnType<typeof startNtfyReceiver>>;
const ses = mockClient(SESv2Client);

beforeAll(async () => {
  twilio = await startTwilioAccount(ACCOUNT, AUTH);
  pushover = await startPushoverReceiver(APP, USER_KEY);
  telegram = await startTelegramReceiver(BOT);
  smtp = await startSmtpServer();
  ntfy = await startNtfyReceiver('ana-pages');
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
});
afterAll(async () => {
  ses.restore();
  for (const receiver of [twilio, pushover, telegram]) await receiver?.close();
  await smtp?.close();
  await ntfy?.close();
});

const lastMail = (runtime: string) =>
  runtime === 'local'
    ? smtp.received.at(-1)?.message.text
    : ses.commandCalls(SendEmailCommand).at(-1)?.args[0].input.Content?.Simple?.Body?.Text?.Data;

/** Each kind: its address and where its code arrives. */
const KINDS = [
  { kind: 'email', address: 'ana@example.com', code: (runtime: string) => sixDigits(lastMail(runtime)) },
  { kind: 'sms', address: '+14155550111', code: () => sixDigits(twilio.messages.at(-1)?.Body) },
  {
    kind: 'voice',
    address: '+14155550112',
    // "… code is 1, 2, 3, 4, 5, 6. Again: …": the digits said once.
    code: () => /code is ([\d, ]+)\./.exec(twilio.calls.at(-1)?.said ?? '')?.[1]?.replace(/\D/g, ''),
  },
  { kind: 'pushover', address: USER_KEY, code: () => sixDigits(pushover.messages.at(-1)?.fields.message) },
  { kind: 'telegram', address: CHAT, code: () => sixDigits(telegram.messages.at(-1)?.text) },
  { kind: 'ntfy', address: '', code: () => sixDigits(ntfy.bodies.at(-1)) },
] as const;

describe.each(bothRuntimes)(
  'contact methods and notification rules ($runtime runtime)',
  ({ runtime, start }) => {
    let api: ApiHarness;
    let offset = 0;
    const clock = { now: () => Date.now() + offset };
    const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
      api.request(method, path, { key, body });
    const add = (body: Record<string, unknown>, key = api.adminKey) =>
      call('POST', '/v1/me/contact-methods', body, key);
    const verify = (id: string, code: string | undefined, key = api.adminKey) =>
      call('POST', `/v1/me/contact-methods/${id}/verify`, { code }, key);

    beforeAll(async () => {
      const egress = providerEgress(
        new Map([
          ['api.twilio.com', twilio.port],
          ['api.pushover.net', pushover.port],
          ['api.telegram.org', telegram.port],
        ]),
      );
      api = await start({
        clock,
        egress,
        env: {
          VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
          VIGIL_EMAIL_FROM: 'Vigil <pages@vigil.example.com>',
          ...(runtime === 'local' ? { VIGIL_SMTP_URL: smtp.url } : {}),
        },
      });
      for (const channel of [
        twilioSmsChannel(ACCOUNT, AUTH),
        { name: 'Pushover', channel_type: 'pushover', config: { app_token: APP, user_key: USER_KEY } },
        { name: 'Telegram', channel_type: 'telegram', config: { bot_token: BOT, chat_id: '-1001234567890' } },
      ]) {
        const made = await call('POST', '/v1/notify/channels', channel);
        expect(made.status, made.text).toBe(201);
      }
    });
    afterAll(async () => {
      await api?.close();
    });

    it.each(KINDS)('$kind: added unverified, sent a code through its provider, verified by it', async (k) => {
      const address = k.kind === 'ntfy' ? ntfy.url : k.address;
      const made = await add({ kind: k.kind, address, label: `my ${k.kind}` });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject({
        kind: k.kind,
        address,
        verified: false,
        verification: { attempts_left: 5 },
      });
      const code = k.code(runtime);
      expect(code).toMatch(/^\d{6}$/);
      expect(made.text).not.toContain(code);
      const done = await verify(made.body.id, code);
      expect(done.status, done.text).toBe(200);
      expect(done.body).toMatchObject({ verified: true, verification: null });
      expect(done.body.verified_at).toEqual(expect.any(String));
      // Single use: the same code again finds nothing to verify.
      expect((await verify(made.body.id, code)).status).toBe(409);
    });

    it('adds a console method verified at once, sending nothing; a second is 409', async () => {
      const made = await add({ kind: 'console' });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject({ kind: 'console', address: null, verified: true, verification: null });
      expect((await add({ kind: 'console' })).body.code).toBe('CONFLICT');
    });

    it('keeps only the code’s hash: the stored items and the logs hold neither the code nor the number', async () => {
      const made = await add({ kind: 'sms', address: '+14155550120' });
      const code = sixDigits(twilio.messages.at(-1)?.Body) ?? 'none';
      const items = JSON.stringify(
        await queryAll((cursor) => api.table.query({ pk: tenantPk(api.tenantId), cursor })),
      );
      expect(items).toContain(made.body.id);
      expect(items).not.toContain(`is ${code}`);
      expect(items).not.toMatch(new RegExp(`"${code}"`));
      expect(api.logs.join('\n')).not.toContain('+14155550120');
      expect(api.logs.join('\n')).not.toContain(code);
      expect((await call('DELETE', `/v1/me/contact-methods/${made.body.id}`)).status).toBe(204);
    });

    it('refuses a wrong code, burns the code after five, and refuses an expired one', async () => {
      const made = await add({ kind: 'sms', address: '+14155550130' });
      const code = sixDigits(twilio.messages.at(-1)?.Body) ?? '';
      const wrong = code === '000000' ? '000001' : '000000';
      for (let left = 4; left >= 1; left -= 1) {
        const res = await verify(made.body.id, wrong);
        expect(res.status).toBe(400);
        expect(res.body.details).toEqual([
          { path: 'code', message: `Wrong code: ${left} more tries before it stops working.` },
        ]);
      }
      const fifth = await verify(made.body.id, wrong);
      expect(fifth.body.details[0].message).toMatch(/too many wrong codes/);
      // The right code no longer works; the method stays unverified.
      expect((await verify(made.body.id, code)).status).toBe(409);
      expect((await call('GET', `/v1/me/contact-methods/${made.body.id}`)).body).toMatchObject({
        verified: false,
        verification: null,
      });

      const late = await add({ kind: 'sms', address: '+14155550131' });
      const lateCode = sixDigits(twilio.messages.at(-1)?.Body);
      offset += 10 * 60_000 + 1_000;
      const expired = await verify(late.body.id, lateCode);
      expect(expired.status).toBe(400);
      expect(expired.body.details).toEqual([
        { path: 'code', message: 'This code has expired: ask for a new one.' },
      ]);
      for (const id of [made.body.id, late.body.id])
        expect((await call('DELETE', `/v1/me/contact-methods/${id}`)).status).toBe(204);
    });

    it('resends at most once a minute (429 with Retry-After); a new code replaces the old one', async () => {
      const made = await add({ kind: 'sms', address: '+14155550140' });
      const first = sixDigits(twilio.messages.at(-1)?.Body);
      const soon = await call('POST', `/v1/me/contact-methods/${made.body.id}/resend`);
      expect(soon.status).toBe(429);
      expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
      offset += 61_000;
      const again = await call('POST', `/v1/me/contact-methods/${made.body.id}/resend`);
      expect(again.status, again.text).toBe(200);
      const second = sixDigits(twilio.messages.at(-1)?.Body);
      if (first !== second) expect((await verify(made.body.id, first)).status).toBe(400);
      expect((await verify(made.body.id, second)).status).toBe(200);
    });

    it('refuses a kind the account has no provider for, and an address the provider refuses, storing nothing', async () => {
      const other = await api.createTenant('No providers');
      const sms = await add({ kind: 'sms', address: '+14155550150' }, other.key);
      expect(sms.status).toBe(400);
      expect(sms.body.details[0]).toMatchObject({ path: 'kind' });
      expect(sms.body.details[0].message).toMatch(/no shared SMS channel/);
      const before = (await call('GET', '/v1/me/contact-methods')).body.contact_methods.length;
      const bad = await add({ kind: 'pushover', address: 'x'.repeat(30) });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([
        {
          path: 'address',
          message: expect.stringMatching(
            /^The code could not be sent: Pushover answered 400: user identifier is not a valid/,
          ),
        },
      ]);
      expect(bad.text).not.toContain(APP);
      expect((await call('GET', '/v1/me/contact-methods')).body.contact_methods).toHaveLength(before);
      expect((await call('GET', '/v1/me/contact-methods', undefined, other.key)).body).toEqual({
        contact_methods: [],
      });
    });

    it('sets rules on verified methods only, answers them by delay, and plans a page by them', async () => {
      const me = (await call('GET', '/v1/me')).body.user.id as string;
      const list = (await call('GET', '/v1/me/contact-methods')).body.contact_methods as {
        id: string;
        kind: string;
        verified: boolean;
      }[];
      const byKind = (kind: string) => list.find((m) => m.kind === kind && m.verified)?.id;
      const unverified = (await add({ kind: 'sms', address: '+14155550170' })).body.id as string;
      const refused = await call('PUT', '/v1/me/notification-rules', {
        rules: [{ after_seconds: 0, contact_method_id: unverified }],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([
        {
          path: 'rules.0.contact_method_id',
          message: 'This contact method is not verified yet: verify it first.',
        },
      ]);
      const rules = [
        { after_seconds: 300, contact_method_id: byKind('voice') },
        { after_seconds: 0, contact_method_id: byKind('pushover') },
        { after_seconds: 120, contact_method_id: byKind('sms') },
      ];
      const set = await call('PUT', '/v1/me/notification-rules', { rules });
      expect(set.status, set.text).toBe(200);
      expect(set.body.rules.map((r: { after_seconds: number }) => r.after_seconds)).toEqual([0, 120, 300]);
      expect((await call('GET', '/v1/me/notification-rules')).body.rules).toEqual(set.body.rules);

      const plan = await contactPlan({ table: api.table }, api.tenantId, me);
      expect(plan.map((s) => [s.after_seconds, s.contact_method.kind])).toEqual([
        [0, 'pushover'],
        [120, 'sms'],
        [300, 'voice'],
      ]);
      // Deleting a method takes its rule with it.
      expect((await call('DELETE', `/v1/me/contact-methods/${byKind('sms')}`)).status).toBe(204);
      expect(
        (await call('GET', '/v1/me/notification-rules')).body.rules.map(
          (r: { after_seconds: number }) => r.after_seconds,
        ),
      ).toEqual([0, 300]);
      expect(
        (await contactPlan({ table: api.table }, api.tenantId, me)).map((s) => s.contact_method.kind),
      ).toEqual(['pushover', 'voice']);
    });

    it('shows a person’s methods to that person only: another member, an admin and another tenant get 404', async () => {
      const mine = await add({ kind: 'ntfy', address: `${ntfy.url}-private` });
      expect(mine.status, mine.text).toBe(201);
      const id = mine.body.id as string;
      const member = await join(api, api.adminKey, { role: 'admin' });
      const foreign = await api.createTenant('Elsewhere');
      for (const key of [member.key, foreign.key]) {
        expect((await call('GET', `/v1/me/contact-methods/${id}`, undefined, key)).status).toBe(404);
        expect((await verify(id, '123456', key)).status).toBe(404);
        expect((await call('POST', `/v1/me/contact-methods/${id}/resend`, undefined, key)).status).toBe(404);
        expect((await call('DELETE', `/v1/me/contact-methods/${id}`, undefined, key)).status).toBe(404);
        const theirs = (await call('GET', '/v1/me/contact-methods', undefined, key)).body.contact_methods;
        expect(theirs.map((m: { id: string }) => m.id)).not.toContain(id);
        const rule = await call(
          'PUT',
          '/v1/me/notification-rules',
          { rules: [{ after_seconds: 0, contact_method_id: id }] },
          key,
        );
        expect(rule.body.details).toEqual([
          { path: 'rules.0.contact_method_id', message: 'None of your contact methods has this id.' },
        ]);
      }
      expect((await call('GET', `/v1/me/contact-methods/${id}`)).status).toBe(200);
    });

    it('lets a viewer signed in add their own console method, and their read-only key not', async () => {
      const invited = await invite(api, api.adminKey, { email: uniqueEmail('viewer'), role: 'viewer' });
      const accepted = await api.request('POST', '/v1/settings/users/accept', {
        body: { token: invited.body.token, name: 'Vera', password: GOOD_PASSWORD },
      });
      expect(accepted.status, accepted.text).toBe(201);
      expect((await add({ kind: 'console' }, accepted.body.key)).body.code).toBe('READ_ONLY');
      const session = cookieValue(accepted);
      const csrf = await csrfOf(api, session);
      const made = await withCookie(api, 'POST', '/v1/me/contact-methods', session, {
        csrf,
        body: { kind: 'console' },
      });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject({ kind: 'console', verified: true });
      const listed = await call('GET', '/v1/me/contact-methods', undefined, accepted.body.key);
      expect(listed.body.contact_methods.map((m: { id: string }) => m.id)).toEqual([made.body.id]);
    });

    it('sends from the oldest shared channel of the type that lends the kind an account', async () => {
      const other = await api.createTenant('Three SMS channels');
      const twilioChannel = twilioSmsChannel(ACCOUNT, AUTH);
      const service = `MG${'d4'.repeat(16)}`;
      for (const channel of [
        // Oldest: the SMS account, but no number to call from.
        {
          ...twilioChannel,
          name: 'By service',
          config: { ...twilioChannel.config, from: undefined, messaging_service_sid: service },
        },
        // Then the oldest with a number: the caller.
        twilioChannel,
        // Newest, of an account the receiver does not know: used by neither.
        {
          ...twilioChannel,
          name: 'Another account',
          config: { ...twilioChannel.config, account_sid: `AC${'c3'.repeat(16)}`, from: '+14155550198' },
        },
      ]) {
        offset += 1000;
        const made = await call('POST', '/v1/notify/channels', channel, other.key);
        expect(made.status, made.text).toBe(201);
      }
      const sms = await add({ kind: 'sms', address: '+14155550171' }, other.key);
      expect(sms.status, sms.text).toBe(201);
      expect(twilio.messages.at(-1)).toMatchObject({ To: '+14155550171', MessagingServiceSid: service });
      const voice = await add({ kind: 'voice', address: '+14155550172' }, other.key);
      expect(voice.status, voice.text).toBe(201);
      expect(twilio.calls.at(-1)).toMatchObject({ To: '+14155550172', From: '+14155550199' });
    });

    it('lets a read-only key read but not write', async () => {
      const viewer = (await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body
        .key as string;
      expect((await call('GET', '/v1/me/contact-methods', undefined, viewer)).status).toBe(200);
      expect((await call('GET', '/v1/me/notification-rules', undefined, viewer)).status).toBe(200);
      const id = (await call('GET', '/v1/me/contact-methods')).body.contact_methods[0].id as string;
      for (const [method, path, body] of [
        ['POST', '/v1/me/contact-methods', { kind: 'sms', address: '+14155550160' }],
        ['POST', `/v1/me/contact-methods/${id}/verify`, { code: '123456' }],
        ['POST', `/v1/me/contact-methods/${id}/resend`, undefined],
        ['DELETE', `/v1/me/contact-methods/${id}`, undefined],
        ['PUT', '/v1/me/notification-rules', { rules: [] }],
      ] as const) {
        const res = await call(method, path, body, viewer);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.code).toBe('READ_ONLY');
      }
    });
  },
);
