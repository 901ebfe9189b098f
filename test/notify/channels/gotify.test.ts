import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GotifyConfig, gotifyChannel } from '../../../lib/notify/channels/gotify.ts';
import { type GotifyReceiver, startGotifyReceiver } from '../../support/receivers/gotify.ts';
import { sampleAlert } from './alert-fixture.ts';
import { channelOf, sampleDigest, sendDeps } from './phone-fixtures.ts';

/** The Gotify definition against a receiver that checks the token, the body and answers as Gotify does. */

const TOKEN = 'AbCdEf.gHiJkL1';
let receiver: GotifyReceiver;

beforeAll(async () => {
  receiver = await startGotifyReceiver(TOKEN, '/gotify');
});
afterAll(async () => {
  await receiver.close();
});

const cfg = (extra: Partial<GotifyConfig> = {}): GotifyConfig => ({
  url: 'https://gotify.test/gotify/',
  token: TOKEN,
  ...extra,
});
const send = (config: GotifyConfig, alert = sampleAlert()) =>
  gotifyChannel.send(sendDeps(receiver), channelOf(config), alert);

describe('Gotify channel', () => {
  it('posts the alert to {server}/message with the token header, priority 8 by default, plain text and a click URL', async () => {
    expect(await send(cfg())).toEqual({ ok: true, status_code: 200, error: null });
    const message = receiver.messages.at(-1);
    expect(message?.headers['x-gotify-key']).toBe(TOKEN);
    expect(message).toMatchObject({
      title: 'Payments API is down',
      priority: 8,
      extras: {
        'client::display': { contentType: 'text/plain' },
        'client::notification': { click: { url: 'https://vigil.example.com/entities/service/payments-api' } },
      },
    });
    expect(message?.message).toContain('Last error: the endpoint answered 503');
  });

  it('sends a recovery at priority 4 and a change to down at the channel priority', async () => {
    expect(
      (await send(cfg({ priority: 10 }), sampleAlert({}, { from_state: 'down', to_state: 'up' }))).ok,
    ).toBe(true);
    expect(receiver.messages.at(-1)).toMatchObject({
      title: 'Payments API recovered: it is up again',
      priority: 4,
    });
    expect((await send(cfg({ priority: 10 }))).ok).toBe(true);
    expect(receiver.messages.at(-1)?.priority).toBe(10);
  });

  it("fails with Gotify's error (401, 404) and never shows the token", async () => {
    const outcome = await send(cfg({ token: 'WrongToken.123' }));
    expect(outcome).toEqual({
      ok: false,
      status_code: 401,
      error:
        'Gotify answered 401: Unauthorized: you need to provide a valid access token or user credentials to access this api',
    });
    const missing = await send(cfg({ url: 'https://gotify.test/elsewhere' }));
    expect(missing).toEqual({
      ok: false,
      status_code: 404,
      error: 'Gotify answered 404: Not Found: page not found',
    });
  });

  it('sends a digest part, its text bounded', async () => {
    const outcome = await gotifyChannel.sendDigest(sendDeps(receiver), channelOf(cfg()), sampleDigest(1000));
    expect(outcome.ok).toBe(true);
    const message = receiver.messages.at(-1);
    expect(String(message?.message).length).toBeLessThanOrEqual(4000);
    expect(message?.priority).toBe(8);
  });

  it('refuses a URL with a query or a bad priority; checks the message URL at create; shows the URL, never the token', () => {
    expect(gotifyChannel.input.safeParse(cfg()).success).toBe(true);
    expect(gotifyChannel.input.safeParse(cfg({ url: 'https://g.example.com/?token=x' })).success).toBe(false);
    expect(gotifyChannel.input.safeParse(cfg({ priority: 11 })).success).toBe(false);
    expect(gotifyChannel.destinations(cfg())).toEqual([
      { path: 'config.url', url: 'https://gotify.test/gotify/message' },
    ]);
    expect(gotifyChannel.present(cfg({ priority: 9 }), 'tnt', { readOnly: true, natsPrefix: 'v' })).toEqual({
      config: { url: 'https://gotify.test/gotify/', token: '********', priority: 9 },
    });
  });
});
