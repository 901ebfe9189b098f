import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_DEFINITIONS } from '../../../lib/notify/channels/registry.ts';
import type { PushoverConfig } from '../../../lib/providers/pushover.ts';
import { type PushoverReceiver, startPushoverReceiver } from '../../support/receivers/pushover.ts';
import { sampleAlert } from './alert-fixture.ts';
import { channelOf, sampleDigest, sendDeps } from './phone-fixtures.ts';

/** The Pushover definition against a receiver that checks the documented fields and limits. */

const pushoverChannel = CHANNEL_DEFINITIONS.pushover;

const APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
let receiver: PushoverReceiver;

beforeAll(async () => {
  receiver = await startPushoverReceiver(APP, USER);
});
afterAll(async () => {
  await receiver.close();
});

const cfg = (extra: Partial<PushoverConfig> = {}): PushoverConfig => ({
  app_token: APP,
  user_key: USER,
  ...extra,
});
const send = (config: PushoverConfig, alert = sampleAlert()) =>
  pushoverChannel.send(sendDeps(receiver), channelOf(config), alert);

describe('Pushover channel', () => {
  it('sends a change to down at priority 1 by default, with the console link', async () => {
    expect(await send(cfg())).toEqual({ ok: true, status_code: 200, error: null });
    const { fields, contentType } = receiver.messages.at(-1) ?? { fields: {}, contentType: '' };
    expect(contentType).toBe('application/x-www-form-urlencoded');
    expect(fields).toMatchObject({
      token: APP,
      user: USER,
      title: 'Payments API is down',
      priority: '1',
      url: 'https://vigil.example.com/entities/service/payments-api',
      url_title: 'Open in Vigil',
    });
    expect(fields.message).toContain('Last error: the endpoint answered 503');
    expect(fields.retry).toBeUndefined();
  });

  it('sends emergency priority with retry and expire, and the recovery at priority 0', async () => {
    const config = cfg({ priority: 2, emergency_retry: 30, emergency_expire: 10_800 });
    expect((await send(config)).ok).toBe(true);
    expect(receiver.messages.at(-1)?.fields).toMatchObject({ priority: '2', retry: '30', expire: '10800' });
    const recovery = sampleAlert({}, { from_state: 'down', to_state: 'up' });
    expect((await send(config, recovery)).ok).toBe(true);
    expect(receiver.messages.at(-1)?.fields).toMatchObject({
      priority: '0',
      title: 'Payments API recovered: it is up again',
    });
    expect(receiver.messages.at(-1)?.fields.retry).toBeUndefined();
  });

  it('defaults emergency retry and expire when only priority 2 is set', async () => {
    expect((await send(cfg({ priority: 2 }))).ok).toBe(true);
    expect(receiver.messages.at(-1)?.fields).toMatchObject({ priority: '2', retry: '60', expire: '3600' });
  });

  it('fails with the API errors and never shows a key', async () => {
    const wrongUser = await send(cfg({ user_key: 'uWRONGpo4DXghDmr9QzzfQu27cmVRs' }));
    expect(wrongUser).toEqual({
      ok: false,
      status_code: 400,
      error:
        'Pushover answered 400: user identifier is not a valid user, group, or subscribed user key, see https://pushover.net/api#identifiers',
    });
    const wrongApp = await send(cfg({ app_token: 'aWRONGePK8gMaC0QOYAMyEEuzJnyUi' }));
    expect(wrongApp.error).toBe(
      'Pushover answered 400: application token is invalid, see https://pushover.net/api',
    );
    expect(JSON.stringify([wrongUser, wrongApp])).not.toMatch(/WRONG|azGDOR|uQiRzp/);
  });

  it('says so when the application is over its monthly limit (429)', async () => {
    receiver.overLimit = true;
    try {
      expect(await send(cfg())).toEqual({
        ok: false,
        status_code: 429,
        error: 'Pushover answered 429: application has exceeded its monthly message limit',
      });
    } finally {
      receiver.overLimit = false;
    }
  });

  it('keeps a long message and a 1,000-event digest within 1,024 characters', async () => {
    const long = sampleAlert({ lastError: 'x'.repeat(2000), checkLabel: 'y'.repeat(2000) });
    expect((await send(cfg(), long)).ok).toBe(true);
    const digest = await pushoverChannel.sendDigest(
      sendDeps(receiver),
      channelOf(cfg({ priority: 2 })),
      sampleDigest(1000),
    );
    expect(digest).toEqual({ ok: true, status_code: 200, error: null });
    const fields = receiver.messages.at(-1)?.fields ?? {};
    expect([...(fields.message ?? '')].length).toBeLessThanOrEqual(1024);
    expect(fields.message).toMatch(/… and \d+ more in this digest$/);
    // A digest never pages as an emergency: no retries until acknowledged for a batch.
    expect(fields.priority).toBe('1');
  });

  it('validates the keys, the priority and the emergency bounds at create, and redacts both keys', () => {
    const ok = (config: unknown) => pushoverChannel.input.safeParse(config).success;
    expect(ok(cfg())).toBe(true);
    expect(ok(cfg({ app_token: 'short' }))).toBe(false);
    expect(ok(cfg({ priority: 3 }))).toBe(false);
    expect(ok(cfg({ priority: 2, emergency_retry: 29, emergency_expire: 600 }))).toBe(false);
    expect(ok(cfg({ priority: 2, emergency_retry: 60, emergency_expire: 10_801 }))).toBe(false);
    expect(
      pushoverChannel.present(cfg({ priority: -1 }), 'tnt', { readOnly: true, natsPrefix: 'v' }),
    ).toEqual({
      config: { app_token: '********', user_key: '********', priority: -1 },
    });
  });
});
