import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleChatChannel } from '../../../lib/notify/channels/google-chat.ts';
import { json } from '../../support/receivers/base.ts';
import {
  GOOGLE_CHAT_MAX_BYTES,
  type GoogleChatReceiver,
  startGoogleChatReceiver,
} from '../../support/receivers/google-chat.ts';
import { createTlsFixtures, type TlsFixtures } from '../../support/tls-fixtures.ts';
import { alerts, bigDigest, chatDeps, stored } from './chat-fixture.ts';

const KEY = 'AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI';
const TOKEN = 'tokSpaceSecret0123456789abcdef';

let tls: TlsFixtures;
let receiver: GoogleChatReceiver;

beforeAll(async () => {
  tls = createTlsFixtures();
  receiver = await startGoogleChatReceiver(tls.valid, 'AAAAspace01', KEY, TOKEN);
});
afterAll(() => receiver.close());

function last() {
  const got = receiver.received.at(-1);
  if (!got) throw new Error('the receiver got nothing');
  const body = JSON.parse(got.request.body.toString('utf8'));
  return { request: got.request, answer: got.answer, body, card: body.cardsV2[0].card };
}

const send = (alert: ReturnType<typeof alerts.down>, url = receiver.url) =>
  googleChatChannel.send(chatDeps(tls.caCert), stored({ url }), alert);

describe('Google Chat channel', () => {
  it('posts an alert as text and a cardsV2 card in the entity’s thread (200 with the message)', async () => {
    expect(await send(alerts.down())).toEqual({ ok: true, status_code: 200, error: null });
    const { request, answer, body, card } = last();
    expect(body.text).toBe('Payments API is down');
    expect(card.header.title).toBe('Payments API is down');
    expect(card.sections[0].widgets).toContainEqual({
      decoratedText: { topLabel: 'Last error', text: 'the endpoint answered 503', wrapText: true },
    });
    expect(card.sections[0].widgets.at(-1).buttonList.buttons[0].onClick.openLink.url).toBe(
      'https://vigil.example.com/entities/service/payments-api',
    );
    const url = new URL(request.path, 'https://localhost');
    expect(url.searchParams.get('threadKey')).toBe('ent_01JTEST');
    expect(url.searchParams.get('messageReplyOption')).toBe('REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    expect(JSON.parse(answer.body ?? '{}').thread.threadKey).toBe('ent_01JTEST');
  });

  it('sends a recovery and an escalation in the same thread', async () => {
    expect((await send(alerts.recovery())).ok).toBe(true);
    expect(last().body.text).toBe('Payments API recovered: it is up again');
    expect((await send(alerts.escalation())).ok).toBe(true);
    const { body, card } = last();
    expect(body.text).toBe('Escalation: Payments API is down and unacknowledged');
    expect(card.sections[0].widgets[0].textParagraph.text).toContain('unacknowledged for 15 minutes');
  });

  it('escapes a hostile entity name: HTML in the card, no mention or link in the text', async () => {
    expect((await send(alerts.hostile())).ok).toBe(true);
    const { body, card } = last();
    expect(body.text).not.toContain('<users/all>');
    expect(body.text).not.toMatch(/[<>]/);
    expect(card.header.title).toContain('&lt;b&gt;x&lt;/b&gt; &lt;users/all&gt;');
    expect(JSON.stringify(card)).not.toContain('<b>');
  });

  it('fails with Google’s reason and never the key or token', async () => {
    const wrong = receiver.url.replace(TOKEN, 'tokWrongButLong0123456789');
    const outcome = await send(alerts.down(), wrong);
    expect(outcome).toMatchObject({ ok: false, status_code: 401 });
    expect(outcome.error).toContain('UNAUTHENTICATED');
    expect(outcome.error).not.toContain(KEY);
    expect(outcome.error).not.toContain('tokWrongButLong0123456789');
  });

  it('fails a rate-limited attempt (429 RESOURCE_EXHAUSTED)', async () => {
    receiver.answerNext(
      json(429, {
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
        },
      }),
    );
    const outcome = await send(alerts.down());
    expect(outcome).toMatchObject({ ok: false, status_code: 429 });
    expect(outcome.error).toContain('RESOURCE_EXHAUSTED');
  });

  it('keeps a 1,000-event digest under 32,000 bytes, saying how many it left out', async () => {
    const outcome = await googleChatChannel.sendDigest(
      chatDeps(tls.caCert),
      stored({ url: receiver.url }),
      bigDigest(),
    );
    expect(outcome).toEqual({ ok: true, status_code: 200, error: null });
    const { request, card } = last();
    expect(request.body.length).toBeLessThanOrEqual(GOOGLE_CHAT_MAX_BYTES);
    expect(card.header.title).toBe('Digest: host: 1000 down');
    expect(card.sections[1].widgets[0].textParagraph.text).toMatch(/… and \d+ more in this digest$/);
  });

  it('shows the URL to read-only keys as ********', () => {
    expect(
      googleChatChannel.present({ url: receiver.url }, 'tnt_1', { readOnly: true, natsPrefix: 'v' }),
    ).toEqual({
      config: { url: '********' },
    });
    expect(googleChatChannel.destinations({ url: receiver.url })).toEqual([
      { path: 'config.url', url: receiver.url },
    ]);
  });
});
