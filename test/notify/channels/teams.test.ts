import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamsChannel } from '../../../lib/notify/channels/teams.ts';
import { json } from '../../support/receivers/base.ts';
import { startTeamsReceiver, TEAMS_MAX_BYTES, type TeamsReceiver } from '../../support/receivers/teams.ts';
import { createTlsFixtures, type TlsFixtures } from '../../support/tls-fixtures.ts';
import { alerts, bigDigest, chatDeps, HOSTILE_NAME, stored } from './chat-fixture.ts';

const SIGNATURE = 'sigTeamsSecret0123456789abcdef';

let tls: TlsFixtures;
let receiver: TeamsReceiver;

beforeAll(async () => {
  tls = createTlsFixtures();
  receiver = await startTeamsReceiver(tls.valid, 'wf0123456789abcdef', SIGNATURE);
});
afterAll(() => receiver.close());

function lastCard() {
  const last = receiver.received.at(-1);
  if (!last) throw new Error('the receiver got nothing');
  const body = JSON.parse(last.request.body.toString('utf8'));
  return { answer: last.answer, body, card: body.attachments[0].content };
}

const send = (alert: ReturnType<typeof alerts.down>, url = receiver.url) =>
  teamsChannel.send(chatDeps(tls.caCert), stored({ url }), alert);

describe('Microsoft Teams channel', () => {
  it('posts an alert as an Adaptive Card the workflow accepts (202)', async () => {
    expect(await send(alerts.down())).toEqual({ ok: true, status_code: 202, error: null });
    const { card } = lastCard();
    expect(card.type).toBe('AdaptiveCard');
    expect(card.body[0]).toMatchObject({
      text: 'Payments API is down',
      color: 'Attention',
      weight: 'Bolder',
    });
    expect(card.body.at(-1).facts).toContainEqual({
      title: 'Last error',
      value: 'the endpoint answered 503',
    });
    expect(card.actions).toEqual([
      {
        type: 'Action.OpenUrl',
        title: 'Open in Vigil',
        url: 'https://vigil.example.com/entities/service/payments-api',
      },
    ]);
  });

  it('colours a recovery good and names an escalation', async () => {
    expect((await send(alerts.recovery())).ok).toBe(true);
    expect(lastCard().card.body[0]).toMatchObject({
      text: 'Payments API recovered: it is up again',
      color: 'Good',
    });
    expect((await send(alerts.escalation())).ok).toBe(true);
    const { card } = lastCard();
    expect(card.body[0].text).toBe('Escalation: Payments API is down and unacknowledged');
    expect(card.body[1].text).toContain('unacknowledged for 15 minutes');
  });

  it('escapes Markdown so a hostile entity name stays text', async () => {
    expect((await send(alerts.hostile())).ok).toBe(true);
    const title: string = lastCard().card.body[0].text;
    expect(title).toContain('\\[pay here\\](https://evil.example) \\*now\\*');
    expect(title).not.toMatch(/(^|[^\\])\[pay here/);
    expect(HOSTILE_NAME).toContain('[pay here]');
  });

  it('fails with the workflow’s reason and never the signature', async () => {
    const outcome = await send(alerts.down(), receiver.url.replace(SIGNATURE, 'sigWrongButLong0123456789'));
    expect(outcome.ok).toBe(false);
    expect(outcome.status_code).toBe(401);
    expect(outcome.error).toContain('DirectApiInvalidAuthorizationSignature');
    expect(outcome.error).not.toContain('sigWrongButLong0123456789');
    expect(outcome.error).not.toContain(SIGNATURE);
  });

  it('fails a rate-limited attempt (429) with what the workflow said', async () => {
    receiver.answerNext(
      json(
        429,
        { error: { code: 'WorkflowTriggerIsThrottled', message: 'Rate limit.' } },
        { 'retry-after': '5' },
      ),
    );
    const outcome = await send(alerts.down());
    expect(outcome).toMatchObject({ ok: false, status_code: 429 });
    expect(outcome.error).toContain('WorkflowTriggerIsThrottled');
  });

  it('keeps a 1,000-event digest under 28 KB, saying how many it left out', async () => {
    const outcome = await teamsChannel.sendDigest(
      chatDeps(tls.caCert),
      stored({ url: receiver.url }),
      bigDigest(),
    );
    expect(outcome).toEqual({ ok: true, status_code: 202, error: null });
    const last = receiver.received.at(-1);
    expect(last?.request.body.length).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    const texts: string[] = lastCard().card.body.map((block: { text: string }) => block.text);
    expect(texts[0]).toBe('Digest: host: 1000 down');
    expect(texts.at(-1)).toMatch(/^… and \d+ more in this digest$/);
  });

  it('shows the URL to read-only keys as ******** and names it for the SSRF guard', () => {
    const options = { readOnly: true, natsPrefix: 'vigil' };
    expect(teamsChannel.present({ url: receiver.url }, 'tnt_1', options)).toEqual({
      config: { url: '********' },
    });
    expect(
      teamsChannel.present({ url: receiver.url }, 'tnt_1', { ...options, readOnly: false }).config.url,
    ).toBe(receiver.url);
    expect(teamsChannel.destinations({ url: receiver.url })).toEqual([
      { path: 'config.url', url: receiver.url },
    ]);
    expect(teamsChannel.input.safeParse({ url: 'ftp://x' }).success).toBe(false);
  });
});
