import { beforeEach, describe, expect, it } from 'vitest';
import { readAuditLog } from '../../lib/audit/audit-items.ts';
import { createAuditSink } from '../../lib/audit/audit-sink.ts';
import { actionOf, redactedSummary, targetOf } from '../../lib/audit/describe-write.ts';
import type { Principal } from '../../lib/domain/principal.ts';
import type { HttpRequest, Route, WriteEvent } from '../../lib/http/types.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';

/**
 * The sink the router tells of every write, over a real SQLite table: what it names, what it
 * leaves out, and that no value but a name or slug reaches a stored entry — passwords, TOTP codes,
 * recovery codes and SSO client secrets included (the people routes' bodies, as they will be sent).
 */

const TENANT = 'tnt_01J9Z3AAAAAAAAAAAAAAAAAAAA';
const NOW = Date.parse('2026-11-25T01:00:00.000Z');
const SECRETS = ['correct horse battery staple', '492039', 'rcv-aaaa-bbbb', 'sso-client-SECRET', 'vat_token'];

const route = (method: Route['method'], path: string, operationId: string, auth: Route['auth'] = 'key') =>
  ({
    method,
    path,
    operationId,
    auth,
    tag: 't',
    schemas: { responses: {} },
    handler: async () => ({ status: 200 }),
  }) as Route;

const req = (headers: Record<string, string> = {}): HttpRequest => ({
  method: 'POST',
  path: '/',
  query: {},
  headers,
  body: Buffer.alloc(0),
  requestId: 'req-1',
  sourceIp: '203.0.113.7',
});

const session: Principal = {
  tenantId: TENANT,
  userId: 'usr_01J9Z3BBBBBBBBBBBBBBBBBBBB',
  keyId: 'ses_01J9Z3CCCCCCCCCCCCCCCCCCCC',
  role: 'admin',
  readOnly: false,
  credential: 'session',
  actor: { type: 'user', id: 'usr_01J9Z3BBBBBBBBBBBBBBBBBBBB', label: 'ada@example.com' },
};

describe('the audit sink', () => {
  let table: SqliteTable;
  const clock = createFakeClock(NOW);
  const cursors = createCursorSeal(async () => Buffer.alloc(32, 7));
  const sink = () => createAuditSink({ table, clock, retentionDays: async () => 7 });
  const event = (over: Partial<WriteEvent>): WriteEvent => ({
    route: route('POST', '/v1/things', 'createThing'),
    req: req(),
    params: {},
    body: undefined,
    status: 201,
    replyBody: undefined,
    ...over,
  });
  const entries = async () => (await readAuditLog({ table, cursors }, TENANT, { limit: 200 }, NOW)).entries;
  const rawItems = async () =>
    JSON.stringify((await table.query({ pk: `AUDIT#${TENANT}`, limit: 1000 })).items);

  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  });

  it('keeps field names and name/slug values only: no password, TOTP code, recovery code or client secret', async () => {
    const write = sink();
    await write(
      event({
        route: route('POST', '/v1/session', 'createSession', 'none'),
        body: { email: 'ada@example.com', password: SECRETS[0], totp: SECRETS[1] },
        note: { tenantId: TENANT, actor: session.actor, action: 'session.create' },
      }),
    );
    await write(
      event({
        route: route('PUT', '/v1/settings/sso', 'putSsoSettings'),
        principal: session,
        body: {
          issuer: 'https://idp.example.com',
          client_id: 'vigil',
          client_secret: SECRETS[3],
          name: 'Okta',
        },
      }),
    );
    await write(
      event({
        route: route('POST', '/v1/me/totp/confirm', 'confirmTotp'),
        principal: session,
        body: { code: SECRETS[1], recovery_code: SECRETS[2], refresh_token: SECRETS[4] },
      }),
    );
    const stored = await entries();
    expect(stored.map((e) => e.summary)).toEqual([
      'fields: code, recovery_code, refresh_token',
      'fields: client_id, client_secret, issuer, name; name: "Okta"',
      'fields: email, password, totp',
    ]);
    const raw = await rawItems();
    for (const secret of SECRETS) expect(raw).not.toContain(secret);
    expect(stored[2]).toMatchObject({
      action: 'session.create',
      actor: session.actor,
      via: 'api',
      source_ip: '203.0.113.7',
    });
    expect(stored[1]).toMatchObject({
      via: 'console',
      action: 'sso_settings.update',
      target: { type: 'sso', id: TENANT },
    });
  });

  it('leaves out public writes without a note, and writes whose note says skip', async () => {
    const write = sink();
    await write(
      event({ route: route('POST', '/v1/ping/{key}/{slug}', 'pingBySlug', 'none'), body: { a: 1 } }),
    );
    await write(event({ principal: session, note: { skip: true } }));
    expect(await rawItems()).toBe('[]');
  });

  it('names a session without an actor as its user, via the console', async () => {
    const { actor: _none, ...bare } = session;
    await sink()(event({ principal: bare, replyBody: { id: 'chk_01J9Z3DDDDDDDDDDDDDDDDDDDD' } }));
    expect((await entries())[0]).toMatchObject({
      actor: { type: 'user', id: session.userId },
      via: 'console',
      target: { type: 'thing', id: 'chk_01J9Z3DDDDDDDDDDDDDDDDDDDD' },
    });
  });

  it('keeps an OAuth client actor the authentication named', async () => {
    const oauth: Principal = {
      ...session,
      credential: 'oauth',
      actor: { type: 'oauth_client', id: 'https://claude.ai/client.json', label: 'Claude' },
    };
    await sink()(event({ principal: oauth }));
    expect((await entries())[0]?.actor).toEqual(oauth.actor);
  });

  it('cuts name values to 100 characters and never names keys that are not field names', () => {
    expect(redactedSummary({ name: 'n'.repeat(300), 'Authorization: Bearer x': 1 })).toBe(
      `fields: name; name: "${'n'.repeat(100)}"`,
    );
    expect(redactedSummary([{ password: 'x' }, {}])).toBe('2 items');
    expect(redactedSummary(undefined)).toBe('');
  });

  it('derives stable actions and targets from the route', () => {
    expect(actionOf(route('DELETE', '/v1/notify/channels/{id}', 'deleteTenantChannel'))).toBe(
      'tenant_channel.delete',
    );
    expect(actionOf(route('PUT', '/v1/settings/alerting', 'putAlertSettings'))).toBe('alert_settings.update');
    expect(actionOf(route('POST', '/v1/incidents/{incident_id}/acknowledge', 'acknowledgeIncident'))).toBe(
      'incident.acknowledge',
    );
    const ack = route('POST', '/v1/incidents/{incident_id}/acknowledge', 'acknowledgeIncident');
    expect(targetOf(ack, { incident_id: 'inc_1' }, { id: 'inc_1' }, TENANT)).toEqual({
      type: 'incident',
      id: 'inc_1',
    });
    const entities = route('POST', '/v1/blueprints/{slug}/entities', 'createEntity');
    expect(targetOf(entities, { slug: 'web' }, { id: 'ent_1' }, TENANT)).toEqual({
      type: 'entity',
      id: 'ent_1',
    });
    const policies = route('PUT', '/v1/checks/{check_id}/policy', 'putNotificationPolicy');
    expect(targetOf(policies, { check_id: 'chk_1' }, {}, TENANT)).toEqual({ type: 'check', id: 'chk_1' });
  });
});
