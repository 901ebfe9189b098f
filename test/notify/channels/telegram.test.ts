import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_DEFINITIONS } from '../../../lib/notify/channels/registry.ts';
import { escapeMarkdownV2 } from '../../../lib/providers/telegram.ts';
import {
  parseMarkdownV2,
  startTelegramReceiver,
  type TelegramReceiver,
} from '../../support/receivers/telegram.ts';
import { sampleAlert } from './alert-fixture.ts';
import { channelOf, sampleDigest, sendDeps } from './phone-fixtures.ts';

/** The Telegram definition against a receiver that parses MarkdownV2 as the Bot API documents it. */

const telegramChannel = CHANNEL_DEFINITIONS.telegram;

const TOKEN = '123456789:AAEhBP0av28fNvN2vE5k1Qx8Vq2bYp9T3xQ';
let receiver: TelegramReceiver;

beforeAll(async () => {
  receiver = await startTelegramReceiver(TOKEN);
});
afterAll(async () => {
  await receiver.close();
});

const send = (chat_id: string, alert = sampleAlert(), bot_token = TOKEN) =>
  telegramChannel.send(sendDeps(receiver), channelOf({ bot_token, chat_id }), alert);

describe('Telegram channel', () => {
  it('sends an alert as MarkdownV2 to sendMessage: bold title, facts, console link, no preview', async () => {
    const outcome = await send('-1001234567890');
    expect(outcome).toEqual({ ok: true, status_code: 200, error: null });
    const message = receiver.messages.at(-1);
    expect(message?.chat_id).toBe('-1001234567890');
    expect(message?.text).toContain('Payments API is down');
    expect(message?.text).toContain('Last error: the endpoint answered 503');
    expect(message?.entities).toContainEqual({ type: 'bold', text: 'Payments API is down' });
    expect(message?.entities).toContainEqual({
      type: 'text_link',
      text: 'Open in Vigil',
      url: 'https://vigil.example.com/entities/service/payments-api',
    });
    expect(message?.body.link_preview_options).toEqual({ is_disabled: true });
  });

  it('sends a recovery', async () => {
    const alert = sampleAlert({}, { from_state: 'down', to_state: 'up' });
    expect((await send('@vigil_alerts', alert)).ok).toBe(true);
    expect(receiver.messages.at(-1)?.text).toContain('Payments API recovered: it is up again');
  });

  it('keeps markup in names and errors inert: no link, no formatting, every character shown', async () => {
    const name = 'Shop *bold* _it_ [click](https://evil.example/) `code` ~s~ ||sp|| > # + - = { } . ! \\ (x)';
    const alert = sampleAlert(
      {
        entity: { id: 'ent_1', name, blueprint_slug: 'service', slug: 'shop' },
        lastError: 'status 500. [a](b)',
      },
      { entity_name: name },
    );
    expect(await send('-42', alert)).toEqual({ ok: true, status_code: 200, error: null });
    const message = receiver.messages.at(-1);
    expect(message?.text).toContain(`${name} is down`);
    expect(message?.text).toContain('Last error: status 500. [a](b)');
    // The only link is the console's; the only formatting is Vigil's own (title and labels bold).
    expect(message?.entities.filter((e) => e.type === 'text_link').map((e) => e.url)).toEqual([
      'https://vigil.example.com/entities/service/shop',
    ]);
    expect(message?.entities.filter((e) => e.type !== 'bold' && e.type !== 'text_link')).toEqual([]);
  });

  it('escapes every character the API reserves (the receiver refuses one unescaped)', () => {
    const all = '_*[]()~`>#+-=|{}.!\\';
    expect(parseMarkdownV2(escapeMarkdownV2(all))).toEqual({ text: all, entities: [] });
    expect(parseMarkdownV2('a.b')).toMatchObject({ error: expect.stringContaining("can't parse entities") });
  });

  it('fails with the API description and never shows the token (401, 403, an answer that echoes it)', async () => {
    const unauthorized = await send('-42', sampleAlert(), '987654321:AAEwrongwrongwrongwrongwrongwrongwro');
    expect(unauthorized).toEqual({
      ok: false,
      status_code: 401,
      error: 'Telegram answered 401: Unauthorized',
    });
    const blocked = await send('@blocked');
    expect(blocked).toEqual({
      ok: false,
      status_code: 403,
      error: 'Telegram answered 403: Forbidden: bot was blocked by the user',
    });
    const echoed = await send('@echo');
    expect(echoed.ok).toBe(false);
    expect(echoed.error).toBe(
      'Telegram answered 400: Bad Request: chat not found at /bot********/sendMessage',
    );
    expect(JSON.stringify(echoed)).not.toContain(TOKEN.split(':')[1]);
  });

  it('says how long a 429 asks to wait', async () => {
    expect(await send('@flood')).toEqual({
      ok: false,
      status_code: 429,
      error: 'Telegram answered 429: Too Many Requests: retry after 7',
    });
  });

  it('names no token when the API cannot be reached', async () => {
    const deps = sendDeps(receiver);
    deps.http = { ...deps.http, resolve: async () => [{ address: '10.9.9.9', family: 4 }] };
    const outcome = await telegramChannel.send(
      deps,
      channelOf({ bot_token: TOKEN, chat_id: '-42' }),
      sampleAlert(),
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain('api.telegram.org resolves to 10.9.9.9');
    expect(outcome.error).not.toContain(TOKEN.split(':')[1]);
  });

  it('sends a 1,000-event digest within 4,096 characters after parsing', async () => {
    const outcome = await telegramChannel.sendDigest(
      sendDeps(receiver),
      channelOf({ bot_token: TOKEN, chat_id: '-42' }),
      sampleDigest(1000),
    );
    expect(outcome).toEqual({ ok: true, status_code: 200, error: null });
    const message = receiver.messages.at(-1);
    expect(message?.text.length).toBeLessThanOrEqual(4096);
    expect(message?.text).toContain('Web node 1 (rack_0) *α*: up → down');
    expect(message?.text).toMatch(/… and \d+ more in this digest$/);
  });

  it('refuses a malformed token or chat at create, and shows the token redacted', () => {
    expect(telegramChannel.input.safeParse({ bot_token: 'nope', chat_id: '-42' }).success).toBe(false);
    expect(telegramChannel.input.safeParse({ bot_token: TOKEN, chat_id: 'general' }).success).toBe(false);
    expect(
      telegramChannel.present({ bot_token: TOKEN, chat_id: '-42' }, 'tnt', {
        readOnly: false,
        natsPrefix: 'v',
      }),
    ).toEqual({ config: { bot_token: '********', chat_id: '-42' } });
    expect(telegramChannel.destinations({ bot_token: TOKEN, chat_id: '-42' })).toEqual([
      { path: 'config.bot_token', url: 'https://api.telegram.org/' },
    ]);
  });
});
