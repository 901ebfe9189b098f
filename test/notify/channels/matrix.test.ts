import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrixChannel } from '../../../lib/notify/channels/matrix.ts';
import {
  MATRIX_MAX_EVENT_BYTES,
  type MatrixReceiver,
  matrixRateLimit,
  startMatrixReceiver,
} from '../../support/receivers/matrix.ts';
import { createTlsFixtures, type TlsFixtures } from '../../support/tls-fixtures.ts';
import { alerts, bigDigest, chatDeps, stored } from './chat-fixture.ts';

const TOKEN = 'syt_dmlnaWw_SecretAccessToken_0123456789';
const ROOM = '!opsroom01:localhost';

let tls: TlsFixtures;
let receiver: MatrixReceiver;

beforeAll(async () => {
  tls = createTlsFixtures();
  receiver = await startMatrixReceiver(tls.valid, TOKEN, ROOM);
});
afterAll(() => receiver.close());

const config = (overrides: Partial<{ room_id: string; access_token: string }> = {}) => ({
  homeserver: `${receiver.origin}/`,
  room_id: ROOM,
  access_token: TOKEN,
  ...overrides,
});
const send = (alert: ReturnType<typeof alerts.down>, overrides = {}) =>
  matrixChannel.send(chatDeps(tls.caCert), stored(config(overrides)), alert);

function lastEvent() {
  const event = receiver.events.at(-1);
  if (!event) throw new Error('no event');
  return event;
}

describe('Matrix channel', () => {
  it('PUTs an m.room.message with the access token, the delivery id as the transaction id', async () => {
    expect(await send(alerts.down())).toEqual({ ok: true, status_code: 200, error: null });
    const request = receiver.received.at(-1)?.request;
    expect(request?.method).toBe('PUT');
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.path).toBe(
      `/_matrix/client/v3/rooms/${encodeURIComponent(ROOM)}/send/m.room.message/dlv_01JTESTDELIVERY`,
    );
    const { content } = lastEvent();
    expect(content.body.split('\n')[0]).toBe('Payments API is down');
    expect(content.formatted_body).toContain(
      '<li><strong>Last error:</strong> the endpoint answered 503</li>',
    );
    expect(content.formatted_body).toContain(
      '<a href="https://vigil.example.com/entities/service/payments-api">',
    );
    expect(content['m.mentions']).toEqual({});
  });

  it('makes a retried attempt the same event, not a second message', async () => {
    const before = receiver.events.length;
    const alert = { ...alerts.down(), deliveryId: 'dlv_01JRETRIED' };
    expect((await send(alert)).ok).toBe(true);
    expect((await send(alert)).ok).toBe(true);
    expect(receiver.events.length).toBe(before + 1);
  });

  it('sends a recovery and an escalation', async () => {
    expect((await send(alerts.recovery())).ok).toBe(true);
    expect(lastEvent().content.body).toContain('Payments API recovered: it is up again');
    expect((await send(alerts.escalation())).ok).toBe(true);
    expect(lastEvent().content.body).toContain('Escalation: Payments API is down and unacknowledged');
  });

  it('escapes HTML in a hostile entity name', async () => {
    expect((await send(alerts.hostile())).ok).toBe(true);
    const html = lastEvent().content.formatted_body ?? '';
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<b>x');
    expect(html).not.toContain('<users/all>');
  });

  it('fails with the homeserver’s errcode and never the token', async () => {
    const unknown = await send(alerts.down(), { access_token: 'syt_WrongToken_0123456789' });
    expect(unknown).toMatchObject({ ok: false, status_code: 401 });
    expect(unknown.error).toContain('M_UNKNOWN_TOKEN');
    const forbidden = await send(alerts.down(), { room_id: '!elsewhere:localhost' });
    expect(forbidden).toMatchObject({ ok: false, status_code: 403 });
    expect(forbidden.error).toContain('M_FORBIDDEN');
    for (const outcome of [unknown, forbidden]) expect(outcome.error).not.toContain('syt_');
  });

  it('fails a rate-limited attempt (429 M_LIMIT_EXCEEDED with retry_after_ms)', async () => {
    receiver.answerNext(matrixRateLimit());
    const outcome = await send(alerts.down());
    expect(outcome).toMatchObject({ ok: false, status_code: 429 });
    expect(outcome.error).toContain('M_LIMIT_EXCEEDED');
    expect(outcome.error).toContain('retry_after_ms');
  });

  it('keeps a 1,000-event digest under the event size limit', async () => {
    const outcome = await matrixChannel.sendDigest(chatDeps(tls.caCert), stored(config()), bigDigest());
    expect(outcome).toEqual({ ok: true, status_code: 200, error: null });
    expect(receiver.received.at(-1)?.request.body.length).toBeLessThan(MATRIX_MAX_EVENT_BYTES);
    const { content, txnId } = lastEvent();
    expect(txnId).toBe('dlv_01JDIGEST');
    expect(content.body.startsWith('Digest: host: 1000 down')).toBe(true);
    expect(content.body).toMatch(/… and \d+ more in this digest$/);
  });

  it('refuses a room alias with a clear message, and never shows the token', () => {
    const alias = matrixChannel.input.safeParse({ ...config(), room_id: '#ops:localhost' });
    expect(alias.success).toBe(false);
    expect(alias.error?.issues[0]?.message).toMatch(/not its alias: aliases are not resolved/);
    expect(
      matrixChannel.input.safeParse({ ...config(), homeserver: 'https://m.example.org/?x=1' }).success,
    ).toBe(false);
    expect(
      matrixChannel.present(config(), 't', { readOnly: false, natsPrefix: 'v' }).config.access_token,
    ).toBe('********');
    expect(matrixChannel.destinations(config())).toEqual([
      { path: 'config.homeserver', url: `${receiver.origin}/` },
    ]);
  });
});
