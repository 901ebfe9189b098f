import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mattermostChannel } from '../../../lib/notify/channels/mattermost.ts';
import { json } from '../../support/receivers/base.ts';
import {
  MATTERMOST_MAX_TEXT,
  type MattermostReceiver,
  startMattermostReceiver,
} from '../../support/receivers/mattermost.ts';
import { createTlsFixtures, type TlsFixtures } from '../../support/tls-fixtures.ts';
import { alerts, bigDigest, chatDeps, stored } from './chat-fixture.ts';

const KEY = 'hookkey0123456789abcdefghij';

let tls: TlsFixtures;
let receiver: MattermostReceiver;

beforeAll(async () => {
  tls = createTlsFixtures();
  receiver = await startMattermostReceiver(tls.valid, KEY, ['town-square', 'ops-alerts']);
});
afterAll(() => receiver.close());

function last() {
  const got = receiver.received.at(-1);
  if (!got) throw new Error('the receiver got nothing');
  return { answer: got.answer, body: JSON.parse(got.request.body.toString('utf8')) };
}

const send = (
  alert: ReturnType<typeof alerts.down>,
  config: { url: string; channel?: string } = { url: receiver.url },
) => mattermostChannel.send(chatDeps(tls.caCert), stored(config), alert);

describe('Mattermost channel', () => {
  it('posts an alert with a coloured attachment (200 "ok"), to the channel set', async () => {
    expect(await send(alerts.down(), { url: receiver.url, channel: 'ops-alerts' })).toEqual({
      ok: true,
      status_code: 200,
      error: null,
    });
    const { body, answer } = last();
    expect(answer.body).toBe('ok');
    expect(body.text).toBe('**Payments API is down**');
    expect(body.channel).toBe('ops-alerts');
    const [attachment] = body.attachments;
    expect(attachment.color).toBe('#e5484d');
    expect(attachment.title_link).toBe('https://vigil.example.com/entities/service/payments-api');
    expect(attachment.fields).toContainEqual({
      short: false,
      title: 'Last error',
      value: 'the endpoint answered 503',
    });
  });

  it('colours a recovery green and names an escalation', async () => {
    expect((await send(alerts.recovery())).ok).toBe(true);
    expect(last().body.attachments[0].color).toBe('#2eb67d');
    expect((await send(alerts.escalation())).ok).toBe(true);
    expect(last().body.text).toBe('**Escalation: Payments API is down and unacknowledged**');
  });

  it('escapes Markdown and breaks mentions in a hostile entity name', async () => {
    expect((await send(alerts.hostile())).ok).toBe(true);
    const { body } = last();
    expect(body.text).toContain('\\[pay here\\]\\(https://evil.example\\) \\*now\\*');
    expect(body.text).toContain('@\u200bchannel @\u200broom');
    expect(JSON.stringify(body)).not.toMatch(/@(channel|room|here|all)/);
  });

  it('fails with Mattermost’s reason and never the hook key', async () => {
    const outcome = await send(alerts.down(), { url: `${receiver.origin}/hooks/wrongkey0123456789abc` });
    expect(outcome).toMatchObject({ ok: false, status_code: 400 });
    expect(outcome.error).toContain('Invalid webhook.');
    expect(outcome.error).not.toContain('wrongkey0123456789abc');
    const unknown = await send(alerts.down(), { url: receiver.url, channel: 'no-such-channel' });
    expect(unknown.error).toContain("Couldn't find the channel.");
  });

  it('fails a rate-limited attempt (429)', async () => {
    receiver.answerNext(
      json(
        429,
        { id: 'api.context.rate_limit', message: 'limit exceeded', status_code: 429 },
        { 'retry-after': '1' },
      ),
    );
    const outcome = await send(alerts.down());
    expect(outcome).toMatchObject({ ok: false, status_code: 429 });
    expect(outcome.error).toContain('limit exceeded');
  });

  it('keeps a 1,000-event digest within 16,383 characters, saying how many it left out', async () => {
    const outcome = await mattermostChannel.sendDigest(
      chatDeps(tls.caCert),
      stored({ url: receiver.url }),
      bigDigest(),
    );
    expect(outcome).toEqual({ ok: true, status_code: 200, error: null });
    const { text } = last().body;
    expect(text.length).toBeLessThanOrEqual(MATTERMOST_MAX_TEXT);
    expect(text.startsWith('**Digest: host: 1000 down**')).toBe(true);
    expect(text).toMatch(/… and \d+ more in this digest$/);
  });

  it('refuses a channel name Mattermost cannot have and redacts the URL for read-only keys', () => {
    expect(mattermostChannel.input.safeParse({ url: receiver.url, channel: 'Town Square' }).success).toBe(
      false,
    );
    expect(mattermostChannel.input.safeParse({ url: receiver.url, channel: '@ana' }).success).toBe(true);
    const view = mattermostChannel.present({ url: receiver.url, channel: 'ops' }, 't', {
      readOnly: true,
      natsPrefix: 'v',
    });
    expect(view).toEqual({ config: { url: '********', channel: 'ops' } });
  });
});
