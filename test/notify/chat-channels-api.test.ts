import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { type GoogleChatReceiver, startGoogleChatReceiver } from '../support/receivers/google-chat.ts';
import { type MatrixReceiver, startMatrixReceiver } from '../support/receivers/matrix.ts';
import { type MattermostReceiver, startMattermostReceiver } from '../support/receivers/mattermost.ts';
import { startTeamsReceiver, type TeamsReceiver } from '../support/receivers/teams.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

/**
 * Microsoft Teams, Google Chat, Mattermost and Matrix through the API in both runtimes: a tenant
 * channel of each is created (validated, its URL through the SSRF guard), its "send test" reaches
 * the provider's local receiver, which accepts it, and a read-only key sees its secrets as ********.
 */

const tls = createTlsFixtures();
const MATRIX_TOKEN = 'syt_dmlnaWw_ApiTestToken_0123456789';
const ROOM = '!ops:localhost';
let teams: TeamsReceiver;
let googleChat: GoogleChatReceiver;
let mattermost: MattermostReceiver;
let matrix: MatrixReceiver;

beforeAll(async () => {
  teams = await startTeamsReceiver(tls.valid, 'wfApiTest01', 'sigApiTestSecret0123456789');
  googleChat = await startGoogleChatReceiver(
    tls.valid,
    'AAAAapi',
    'AIzaApiTestKey0123456789',
    'tokApiTest0123456789',
  );
  mattermost = await startMattermostReceiver(tls.valid, 'hookApiTest0123456789', ['ops']);
  matrix = await startMatrixReceiver(tls.valid, MATRIX_TOKEN, ROOM);
});
afterAll(async () => {
  await Promise.all([teams, googleChat, mattermost, matrix].map((receiver) => receiver?.close()));
});

describe.each(runtimes)('chat channels through the API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let viewer: string;
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  beforeAll(async () => {
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { ca: [tls.caCert] } });
    viewer = (await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
  });
  afterAll(async () => {
    await api?.close();
  });

  const cases = () => [
    { type: 'teams', config: { url: teams.url }, hidden: { url: '********' }, receiver: teams },
    {
      type: 'google_chat',
      config: { url: googleChat.url },
      hidden: { url: '********' },
      receiver: googleChat,
    },
    {
      type: 'mattermost',
      config: { url: mattermost.url, channel: 'ops' },
      hidden: { url: '********', channel: 'ops' },
      receiver: mattermost,
    },
    {
      type: 'matrix',
      config: { homeserver: matrix.origin, room_id: ROOM, access_token: MATRIX_TOKEN },
      hidden: { homeserver: matrix.origin, room_id: ROOM, access_token: '********' },
      receiver: matrix,
    },
  ];

  it('creates each type, sends its test to the receiver, and redacts its secret for read-only keys', async () => {
    for (const { type, config, hidden, receiver } of cases()) {
      const made = await call('POST', '/v1/notify/channels', {
        name: `${type} ${api.runtime}`,
        channel_type: type,
        config,
      });
      expect(made.status, made.text).toBe(201);
      const before = receiver.received.length;
      const sent = await call('POST', `/v1/notify/channels/${made.body.id}/test`, {});
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body, type).toMatchObject({ kind: 'test', status: 'sent', channel_id: made.body.id });
      expect(receiver.received.length, type).toBe(before + 1);
      expect(receiver.received.at(-1)?.answer.status, type).toBeLessThan(300);
      const seen = await call('GET', `/v1/notify/channels/${made.body.id}`, undefined, viewer);
      expect(seen.body.config, type).toEqual(hidden);
    }
    expect(matrix.events.at(-1)?.content.body).toContain('This is a test message from Vigil');
  });

  it('refuses a Matrix room alias and a homeserver the SSRF guard denies', async () => {
    const alias = await call('POST', '/v1/notify/channels', {
      name: 'alias',
      channel_type: 'matrix',
      config: { homeserver: matrix.origin, room_id: '#ops:localhost', access_token: MATRIX_TOKEN },
    });
    expect(alias.status).toBe(400);
    expect(alias.text).toContain('aliases are not resolved');
    const denied = await call('POST', '/v1/notify/channels', {
      name: 'denied',
      channel_type: 'matrix',
      config: { homeserver: 'https://10.1.2.3', room_id: ROOM, access_token: MATRIX_TOKEN },
    });
    expect(denied.status).toBe(400);
    expect(denied.text).toContain('config.homeserver');
  });
});
