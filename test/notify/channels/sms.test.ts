import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_DEFINITIONS } from '../../../lib/notify/channels/registry.ts';
import { createSnsSmsTransport } from '../../../lib/notify/channels/sms-sns.ts';
import { type SmsConfig, SNS_LOCALLY } from '../../../lib/providers/sms.ts';
import { MAX_SEGMENTS, smsSegments } from '../../../lib/providers/sms-text.ts';
import { startTwilioReceiver, type TwilioReceiver } from '../../support/receivers/twilio.ts';
import { sampleAlert } from './alert-fixture.ts';
import { channelOf, sampleDigest, sendDeps } from './phone-fixtures.ts';

/**
 * The SMS definition: Twilio against a receiver that checks the documented request and answers as
 * Twilio does; Amazon SNS through the SNS transport with the SDK's client mocked (there is no local
 * SNS engine), and its refusal where no SNS transport is composed (the local runtime).
 */

const smsChannel = CHANNEL_DEFINITIONS.sms;

const ACCOUNT = `AC${'a1'.repeat(16)}`;
const AUTH = 'f2c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5';
const KEY_SID = `SK${'b2'.repeat(16)}`;
const KEY_SECRET = 'keysecret-0123456789abcdef';
let receiver: TwilioReceiver;

beforeAll(async () => {
  receiver = await startTwilioReceiver(ACCOUNT, [`${ACCOUNT}:${AUTH}`, `${KEY_SID}:${KEY_SECRET}`]);
});
afterAll(async () => {
  await receiver.close();
});

const twilio = (extra: Partial<SmsConfig> = {}): SmsConfig => ({
  provider: 'twilio',
  to: ['+14155550100'],
  account_sid: ACCOUNT,
  auth_token: AUTH,
  from: '+14155550199',
  ...extra,
});
const send = (config: SmsConfig, alert = sampleAlert()) =>
  smsChannel.send(sendDeps(receiver), channelOf(config), alert);

describe('SMS through Twilio', () => {
  it('sends one message per number, form-encoded with Basic auth, within two segments', async () => {
    const before = receiver.messages.length;
    const outcome = await send(twilio({ to: ['+14155550100', '+447700900123'] }));
    expect(outcome).toEqual({ ok: true, status_code: 201, error: null });
    const sent = receiver.messages.slice(before);
    expect(sent.map((m) => m.fields.To)).toEqual(['+14155550100', '+447700900123']);
    const body = sent[0]?.fields.Body ?? '';
    expect(sent[0]?.fields.From).toBe('+14155550199');
    expect(body).toMatch(/^Vigil: Payments API is down\n/);
    expect(body).toContain('Last error: the endpoint answered 503');
    expect(body).toContain('https://vigil.example.com/entities/service/payments-api');
    expect(smsSegments(body)).toBeLessThanOrEqual(MAX_SEGMENTS);
  });

  it('sends through a messaging service with an API key, and a recovery', async () => {
    const config = twilio({
      from: undefined,
      messaging_service_sid: `MG${'c3'.repeat(16)}`,
      api_key_sid: KEY_SID,
      auth_token: KEY_SECRET,
    });
    const outcome = await send(config, sampleAlert({}, { from_state: 'down', to_state: 'up' }));
    expect(outcome.ok).toBe(true);
    expect(receiver.messages.at(-1)?.fields).toMatchObject({ MessagingServiceSid: `MG${'c3'.repeat(16)}` });
    expect(receiver.messages.at(-1)?.fields.Body).toMatch(/^Vigil: Payments API recovered: it is up again/);
  });

  it('keeps a non-GSM name within two UCS-2 segments (134 characters)', async () => {
    const name = '決済API サーバー 東京 リージョン 本番環境 '.repeat(6);
    const alert = sampleAlert(
      { entity: { id: 'e', name, blueprint_slug: 's', slug: 'x' } },
      { entity_name: name },
    );
    expect((await send(twilio(), alert)).ok).toBe(true);
    const body = receiver.messages.at(-1)?.fields.Body ?? '';
    expect(body.length).toBeLessThanOrEqual(134);
    expect(body.startsWith('Vigil: 決済API')).toBe(true);
  });

  it("fails with Twilio's message and code, naming the number, never the token", async () => {
    const wrong = await send(twilio({ auth_token: 'wrong-token-abcdef' }));
    expect(wrong).toEqual({
      ok: false,
      status_code: 401,
      error: 'to +14155550100: Twilio answered 401: Authenticate (error 20003)',
    });
    const limited = await send(twilio({ to: ['+15005550429', '+14155550100'] }));
    expect(limited).toEqual({
      ok: false,
      status_code: 429,
      error: 'to +15005550429: Twilio answered 429: Too Many Requests (error 20429)',
    });
    expect(JSON.stringify([wrong, limited])).not.toMatch(/wrong-token|f2c9d8/);
  });

  it('sends a digest part as one short text', async () => {
    const outcome = await smsChannel.sendDigest(sendDeps(receiver), channelOf(twilio()), sampleDigest(1000));
    expect(outcome.ok).toBe(true);
    const body = receiver.messages.at(-1)?.fields.Body ?? '';
    expect(body).toMatch(/^Vigil: Digest: host: 1000 down/);
    expect(smsSegments(body)).toBeLessThanOrEqual(MAX_SEGMENTS);
  });

  it('validates numbers, SIDs and the sender at create; redacts the token; checks the API URL', () => {
    const ok = (config: unknown) => smsChannel.input.safeParse(config).success;
    expect(ok(twilio())).toBe(true);
    expect(ok(twilio({ to: ['4155550100'] }))).toBe(false);
    expect(ok(twilio({ to: [] }))).toBe(false);
    expect(
      ok(twilio({ to: Array.from({ length: 11 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`) })),
    ).toBe(false);
    expect(ok(twilio({ account_sid: 'AC123' }))).toBe(false);
    expect(ok(twilio({ messaging_service_sid: `MG${'c3'.repeat(16)}` }))).toBe(false);
    expect(ok(twilio({ from: 'VigilOps' }))).toBe(true);
    expect(ok({ provider: 'sns', to: ['+14155550100'] })).toBe(true);
    expect(ok({ provider: 'sns', to: ['+14155550100'], auth_token: 'x' })).toBe(false);
    expect(ok({ provider: 'carrier-pigeon', to: ['+14155550100'] })).toBe(false);
    expect(smsChannel.present(twilio(), 'tnt', { readOnly: true, natsPrefix: 'v' }).config).toEqual({
      provider: 'twilio',
      to: ['+14155550100'],
      account_sid: ACCOUNT,
      auth_token: '********',
      from: '+14155550199',
    });
    expect(smsChannel.destinations(twilio())).toEqual([
      {
        path: 'config.account_sid',
        url: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Messages.json`,
      },
    ]);
    expect(smsChannel.destinations({ provider: 'sns', to: ['+14155550100'] })).toEqual([]);
  });
});

describe('SMS through Amazon SNS', () => {
  it('publishes to each number as a transactional SMS in the cloud', async () => {
    const sns = mockClient(SNSClient);
    sns.on(PublishCommand).resolves({ MessageId: 'm-1' });
    const transport = createSnsSmsTransport({
      region: 'eu-west-1',
      client: new SNSClient({ region: 'eu-west-1' }),
    });
    const config: SmsConfig = { provider: 'sns', to: ['+14155550100', '+33612345678'] };
    const outcome = await smsChannel.send(sendDeps(undefined, transport), channelOf(config), sampleAlert());
    expect(outcome).toEqual({ ok: true, status_code: null, error: null });
    const calls = sns.commandCalls(PublishCommand).map((c) => c.args[0].input);
    expect(calls.map((c) => c.PhoneNumber)).toEqual(['+14155550100', '+33612345678']);
    expect(calls[0]?.Message).toMatch(/^Vigil: Payments API is down/);
    expect(calls[0]?.MessageAttributes?.['AWS.SNS.SMS.SMSType']).toEqual({
      DataType: 'String',
      StringValue: 'Transactional',
    });
    sns.restore();
  });

  it("fails with SNS's error name and message", async () => {
    const sns = mockClient(SNSClient);
    const err = Object.assign(
      new Error('Invalid parameter: PhoneNumber Reason: +999 is not valid to publish to'),
      {
        name: 'InvalidParameterException',
        $metadata: { httpStatusCode: 400 },
      },
    );
    sns.on(PublishCommand).rejects(err);
    const transport = createSnsSmsTransport({
      region: 'eu-west-1',
      client: new SNSClient({ region: 'eu-west-1' }),
    });
    const outcome = await smsChannel.send(
      sendDeps(undefined, transport),
      channelOf<SmsConfig>({ provider: 'sns', to: ['+14155550100'] }),
      sampleAlert(),
    );
    expect(outcome).toEqual({
      ok: false,
      status_code: 400,
      error:
        'to +14155550100: SNS refused the SMS: InvalidParameterException: Invalid parameter: PhoneNumber Reason: +999 is not valid to publish to',
    });
    sns.restore();
  });

  it('fails each delivery saying to use Twilio where no SNS transport is composed (the local runtime)', async () => {
    const outcome = await smsChannel.send(
      sendDeps(undefined),
      channelOf<SmsConfig>({ provider: 'sns', to: ['+14155550100'] }),
      sampleAlert(),
    );
    expect(outcome).toEqual({ ok: false, status_code: null, error: SNS_LOCALLY });
    expect(SNS_LOCALLY).toContain('use provider twilio');
  });
});
