import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNS_LOCALLY } from '../../lib/providers/sms.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { type GotifyReceiver, startGotifyReceiver } from '../support/receivers/gotify.ts';
import { providerEgress } from '../support/receivers/provider-host.ts';
import { type PushoverReceiver, startPushoverReceiver } from '../support/receivers/pushover.ts';
import { startTelegramReceiver, type TelegramReceiver } from '../support/receivers/telegram.ts';
import { startTwilioReceiver, type TwilioReceiver } from '../support/receivers/twilio.ts';

/**
 * Telegram, Pushover, Gotify and SMS (Twilio) end to end in both runtimes: a tenant channel made
 * through the API (validated, its destination checked by the SSRF guard), "send test" reaching the
 * local receiver that plays the provider under its real host name, and a read-only key seeing
 * every secret as ********. Amazon SNS has no local engine: in the cloud runtime its SDK client is
 * mocked (aws-sdk-client-mock) to see the api function's transport publish; locally an sns
 * channel's send fails saying to use Twilio.
 */

const BOT = '123456789:AAEhBP0av28fNvN2vE5k1Qx8Vq2bYp9T3xQ';
const APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const GOTIFY = 'AbCdEf.gHiJkL1';
const ACCOUNT = `AC${'a1'.repeat(16)}`;
const AUTH = 'f2c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5';

let telegram: TelegramReceiver;
let pushover: PushoverReceiver;
let gotify: GotifyReceiver;
let twilio: TwilioReceiver;

beforeAll(async () => {
  telegram = await startTelegramReceiver(BOT);
  pushover = await startPushoverReceiver(APP, USER);
  gotify = await startGotifyReceiver(GOTIFY);
  twilio = await startTwilioReceiver(ACCOUNT, [`${ACCOUNT}:${AUTH}`]);
});
afterAll(async () => {
  for (const receiver of [telegram, pushover, gotify, twilio]) await receiver?.close();
});

const CHANNELS = [
  {
    channel_type: 'telegram',
    config: { bot_token: BOT, chat_id: '-1001234567890' },
    redacted: { bot_token: '********', chat_id: '-1001234567890' },
    received: () => telegram.messages.map((m) => m.text),
  },
  {
    channel_type: 'pushover',
    config: { app_token: APP, user_key: USER, priority: 2 },
    redacted: { app_token: '********', user_key: '********', priority: 2 },
    received: () => pushover.messages.map((m) => m.fields.message ?? ''),
  },
  {
    channel_type: 'gotify',
    config: { url: 'https://gotify.test', token: GOTIFY },
    redacted: { url: 'https://gotify.test', token: '********' },
    received: () => gotify.messages.map((m) => String(m.message)),
  },
  {
    channel_type: 'sms',
    config: {
      provider: 'twilio',
      to: ['+14155550100'],
      account_sid: ACCOUNT,
      auth_token: AUTH,
      from: '+14155550199',
    },
    redacted: {
      provider: 'twilio',
      to: ['+14155550100'],
      account_sid: ACCOUNT,
      auth_token: '********',
      from: '+14155550199',
    },
    received: () => twilio.messages.map((m) => m.fields.Body ?? ''),
  },
] as const;

describe.each(bothRuntimes)(
  'Telegram, Pushover, Gotify and SMS through the API ($runtime runtime)',
  ({ runtime, start }) => {
    let api: ApiHarness;
    let viewer: string;
    const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
      api.request(method, path, { key, body });

    beforeAll(async () => {
      const egress = providerEgress(
        new Map([
          ['api.telegram.org', telegram.port],
          ['api.pushover.net', pushover.port],
          ['gotify.test', gotify.port],
          ['api.twilio.com', twilio.port],
        ]),
      );
      api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress });
      viewer = (await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    });
    afterAll(async () => {
      await api.close();
    });

    it.each(CHANNELS)(
      '$channel_type: created, tested, received; secrets redacted for a read-only key',
      async (c) => {
        const name = `${c.channel_type} ${runtime}`;
        const made = await call('POST', '/v1/notify/channels', {
          name,
          channel_type: c.channel_type,
          config: c.config,
        });
        expect(made.status, made.text).toBe(201);
        expect(made.body.config).toEqual(c.redacted);
        const before = c.received().length;
        const sent = await call('POST', `/v1/notify/channels/${made.body.id}/test`, {});
        expect(sent.status, sent.text).toBe(200);
        expect(sent.body).toMatchObject({ kind: 'test', status: 'sent', channel_id: made.body.id });
        const got = c.received().slice(before);
        expect(got).toHaveLength(1);
        expect(got[0]).toContain('attached to no check yet');
        const read = await call('GET', `/v1/notify/channels/${made.body.id}`, undefined, viewer);
        expect(read.body.config).toEqual(c.redacted);
        for (const secret of [BOT, APP, USER, GOTIFY, AUTH]) expect(read.text).not.toContain(secret);
      },
    );

    it('refuses a malformed config with the field named', async () => {
      const bad = await call('POST', '/v1/notify/channels', {
        name: 'Bad SMS',
        channel_type: 'sms',
        config: {
          provider: 'twilio',
          to: ['4155550100'],
          account_sid: ACCOUNT,
          auth_token: AUTH,
          from: '+14155550199',
        },
      });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('E.164');
    });

    if (runtime === 'lambda')
      it('sends an sns channel’s test through the cloud’s SNS transport (the SDK client mocked)', async () => {
        const sns = mockClient(SNSClient);
        try {
          sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
          const made = await call('POST', '/v1/notify/channels', {
            name: 'SNS cloud',
            channel_type: 'sms',
            config: { provider: 'sns', to: ['+14155550100'] },
          });
          expect(made.status, made.text).toBe(201);
          const sent = await call('POST', `/v1/notify/channels/${made.body.id}/test`, {});
          expect(sent.body).toMatchObject({ status: 'sent' });
          const published = sns.commandCalls(PublishCommand).map((c) => c.args[0].input);
          expect(published).toHaveLength(1);
          expect(published[0]?.PhoneNumber).toBe('+14155550100');
          expect(published[0]?.Message).toMatch(/^Vigil: Test/);
        } finally {
          sns.restore();
        }
      });

    if (runtime === 'local')
      it('fails an sns channel’s send locally, saying to use Twilio', async () => {
        const made = await call('POST', '/v1/notify/channels', {
          name: 'SNS here',
          channel_type: 'sms',
          config: { provider: 'sns', to: ['+14155550100'] },
        });
        expect(made.status, made.text).toBe(201);
        const sent = await call('POST', `/v1/notify/channels/${made.body.id}/test`, {});
        expect(sent.body).toMatchObject({ status: 'failed', error: SNS_LOCALLY });
      });
  },
);
