import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBlueprintBody,
  createEntityBody,
  createRelationBody,
} from '../../lib/catalog/api/request-schemas.ts';
import { createCheckBody, definitionFromCreate } from '../../lib/checks/check-input.ts';
import { ImportError } from '../../lib/importers/importer.ts';
import { importKuma, kumaImporter } from '../../lib/importers/kuma.ts';
import { TEXT_IMPORTERS } from '../../lib/importers/registry.ts';
import { windowBody } from '../../lib/maintenance/request-schemas.ts';
import { tenantChannelInputSchema } from '../../lib/notify/api-schemas/channel-config.ts';
import { policyBody } from '../../lib/notify/api-schemas/request-schemas.ts';
import { pageCreateBody } from '../../lib/status-pages/items/request-schemas.ts';
import { applyKumaSchema, buildKumaDatabase } from '../fixtures/kuma/kuma-db-fixture.ts';
import { EXTRAS } from './kuma-extras.ts';

/**
 * The Uptime Kuma importer on test/fixtures/kuma/backup.json (a 1.x backup in the shape Kuma's
 * Backup.vue and monitor.toJSON write) and on a kuma.db built here from Kuma's own schema SQL
 * with the same monitors and notifications, plus maintenance and status pages.
 */

const BACKUP_PATH = new URL('../fixtures/kuma/backup.json', import.meta.url).pathname;
const BACKUP_TEXT = readFileSync(BACKUP_PATH, 'utf8');

type Doc = Record<string, unknown>;
type Obj = Record<string, unknown>;
const list = (doc: Doc, key: string) => doc[key] as Obj[];

/** Every secret value the fixture holds: none may appear in a document or a line. */
const SECRETS = [
  'SLACKSECRET0001',
  'DISCORDSECRET0002',
  'TELEGRAMSECRET0003',
  'TEAMSSECRET0004',
  'PDSECRET0005',
  'OPSGENIESECRET0006',
  'PUSHOVERUSERSECRET0007',
  'PUSHOVERAPPSECRET0008',
  'GOTIFYSECRET0009',
  'MATRIXSECRET0010',
  'MATTERMOSTSECRET0011',
  'GCHATSECRET0012',
  'SMTPSECRET0013',
  'NTFYSECRET0014',
  'APPRISESECRET0016',
  'HEADERSECRET0017',
  'BASICSECRET0018',
  'PUSHTOKENSECRET19',
  'MONGOSECRET0020',
];

const MONITOR_LINES = [
  'notification "Ops Slack": the channel override is not kept',
  'notification "Teams": its URL may need replacing: Vigil posts to a Teams Workflows webhook, not an Office 365 connector',
  'notification "PagerDuty": the severity (Vigil sends critical for down) is not kept',
  'notification "Pushover": the sound is not kept',
  'notification "Mattermost": the user name is not kept',
  'notification "Email": its own mail server (Vigil sends through the server it is configured with) is not kept',
  'notification "ntfy": the priority is not kept',
  'notification "Signal" (type signal): Vigil has no signal channel',
  'notification "Apprise" (type apprise): Vigil has no apprise channel',
  'monitor "Nightly backup": its push URL changes: the job must report to the new check\'s ping URL (the token is not configuration)',
  'monitor "Orders gRPC": its gRPC method, body and keyword are not kept: Vigil asks the server\'s health service',
  'monitor "Mongo" (type mongodb): Vigil has no mongodb check',
  'monitor "Reverse DNS": the record type PTR is not kept: Vigil\'s dns check resolves A, AAAA, CNAME, MX, TXT, NS, SRV, CAA',
  'monitor "Docker app" (type docker): Vigil has no docker check',
  'monitor "API": not imported: upside-down monitors are not supported (Vigil has no inverted check)',
];

const SCHEDULE_LINES = [
  'maintenance "Manual" (manual): Vigil\'s windows have a schedule; start it in Vigil when needed',
  'maintenance "Paused": it is paused in Kuma; Vigil\'s windows have no pause',
  'maintenance "Every other day": its time zone SAME_AS_SERVER is read as UTC (the file does not name the server\'s)',
  'maintenance "Every other day": "every 2 days" is kept as Kuma\'s own cron "30 5 */2 * *", which restarts its count each month',
  'maintenance "Status page only": it covers no monitor the document has (Kuma\'s status-page-only maintenance is not kept)',
  'status page "status": the slug is reserved in Vigil; the page becomes kuma-status',
  'status page "status": its footer text is not kept',
];

/** The `${ENV}` names, in order, each with what its line says to set it to. */
const ENV_NAMES = [
  'KUMA_OPS_SLACK_URL',
  'KUMA_DISCORD_URL',
  'KUMA_TELEGRAM_BOT_TOKEN',
  'KUMA_TEAMS_URL',
  'KUMA_PAGERDUTY_ROUTING_KEY',
  'KUMA_OPSGENIE_API_KEY',
  'KUMA_PUSHOVER_APP_TOKEN',
  'KUMA_PUSHOVER_USER_KEY',
  'KUMA_GOTIFY_TOKEN',
  'KUMA_MATRIX_ACCESS_TOKEN',
  'KUMA_MATTERMOST_URL',
  'KUMA_GOOGLE_CHAT_URL',
  'KUMA_NTFY_TOKEN',
  'KUMA_API_HEADER_AUTHORIZATION',
  'KUMA_ORDERS_JSON_BASIC_AUTH',
];

/** A well-formed value for each secret, as a user would set it, so the API's schemas judge the rest. */
function envValue(name: string): string {
  if (name.endsWith('_URL')) return 'https://hooks.example.com/services/T0/B0/abcdef';
  if (name === 'KUMA_TELEGRAM_BOT_TOKEN') return '123456789:AAbbCCddEEffGGhhIIjjKKllMMnn';
  if (name.startsWith('KUMA_PUSHOVER')) return 'abcdefghijklmnopqrstuvwxyz0123';
  if (name === 'KUMA_PAGERDUTY_ROUTING_KEY') return '0123456789abcdef0123456789abcdef';
  if (name.endsWith('BASIC_AUTH')) return 'Basic a3VtYTpwYXNz';
  return 'Token-0123456789abcdef';
}

const withEnv = (doc: Doc): Doc =>
  JSON.parse(JSON.stringify(doc).replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => envValue(name)));

const ENTITY_ID = 'ent_01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** A `${ENV}` reference as the document writes it. */
const ref = (name: string) => `\${${name}}`;

/** What the API's request schemas refuse in a document, one line per object (none: the API takes it all). */
function problemsOf(document: Doc): string[] {
  const problems: string[] = [];
  const judge = (what: string, run: () => unknown) => {
    try {
      run();
    } catch (err) {
      problems.push(`${what}: ${(err as Error).message}`);
    }
  };
  const entityRefs = new Set(list(document, 'entities').map((e) => `${e.blueprint}/${e.slug}`));
  const channelNames = new Set(list(document, 'channels').map((c) => c.name));
  const refersToEntities = (what: string, refs: unknown) => {
    for (const entityRef of refs as string[]) {
      if (!entityRefs.has(entityRef)) problems.push(`${what}: no entity ${entityRef}`);
    }
  };
  const ids = (refs: unknown) => (refs as string[]).map(() => ENTITY_ID);
  for (const b of list(document, 'blueprints'))
    judge(`blueprint ${b.slug}`, () => createBlueprintBody.parse(b));
  for (const { blueprint, ...e } of list(document, 'entities')) {
    judge(`entity ${e.slug}`, () => createEntityBody.parse(e));
    if (blueprint !== 'kuma') problems.push(`entity ${e.slug}: blueprint ${blueprint}`);
  }
  for (const r of list(document, 'relations')) {
    const body = { from_entity_id: r.from, to_entity_id: r.to, relation_type: r.relation_type };
    judge('relation', () => createRelationBody.parse(body));
    refersToEntities('relation', [r.from, r.to]);
  }
  for (const c of list(document, 'channels'))
    judge(`channel ${c.name}`, () => tenantChannelInputSchema.parse(c));
  for (const { entity, policy, ...body } of list(document, 'checks')) {
    judge(`check ${body.name}`, () =>
      definitionFromCreate(createCheckBody.parse({ ...body, entity_id: ENTITY_ID }), 'local'),
    );
    refersToEntities(`check ${body.name}`, [entity]);
    if (!policy) continue;
    const { channels, ...rest } = policy as Obj;
    judge(`policy of ${body.name}`, () => policyBody.parse(rest));
    for (const { channel: name } of channels as { channel: string }[]) {
      if (!channelNames.has(name)) problems.push(`policy of ${body.name}: no channel ${name}`);
    }
  }
  for (const { entities, ...w } of list(document, 'maintenance')) {
    judge(`maintenance ${w.name}`, () => windowBody.parse({ ...w, entity_ids: ids(entities) }));
    refersToEntities(`maintenance ${w.name}`, entities);
  }
  for (const { entities, ...p } of list(document, 'status_pages')) {
    judge(`status page ${p.slug}`, () => pageCreateBody.parse({ ...p, entity_ids: ids(entities) }));
    refersToEntities(`status page ${p.slug}`, entities);
  }
  return problems;
}

describe('Uptime Kuma importer', () => {
  let dir: string;
  let dbPath: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-kuma-'));
    dbPath = join(dir, 'kuma.db');
    buildKumaDatabase(dbPath, JSON.parse(BACKUP_TEXT), EXTRAS);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is registered as the text importer of .json Kuma backups', () => {
    expect(TEXT_IMPORTERS.kuma).toBe(kumaImporter);
    expect(kumaImporter).toMatchObject({ source: 'kuma', accept: '.json' });
  });

  it('makes the blueprint kuma of the tag names, and an entity per mapped monitor with its tag values', () => {
    const { document } = kumaImporter.convert(BACKUP_TEXT);
    expect(document).toMatchObject({ apiVersion: 'vigil/v1', kind: 'Config' });
    expect(list(document, 'blueprints')).toEqual([
      {
        slug: 'kuma',
        name: 'Uptime Kuma',
        description: 'Monitors imported from Uptime Kuma',
        fields: [
          { name: 'Team_Name', field_type: 'string' },
          { name: 'env', field_type: 'string' },
          { name: 'public', field_type: 'string' },
        ],
      },
    ]);
    const entities = list(document, 'entities');
    expect(entities.map((e) => e.slug)).toEqual([
      'api',
      'web-keyword',
      'orders-json',
      'postgres-port',
      'gateway-ping',
      'dns-example',
      'nightly-backup',
      'orders-grpc',
      'production',
    ]);
    expect(entities.every((e) => e.blueprint === 'kuma')).toBe(true);
    expect(entities[0]).toEqual({
      blueprint: 'kuma',
      slug: 'api',
      name: 'API',
      fields: { env: 'prod', Team_Name: 'core' },
    });
    // A tag without a value still marks the monitor.
    expect(entities[1]?.fields).toEqual({ env: 'prod', public: 'true' });
    expect(list(document, 'relations')).toEqual([
      { from: 'kuma/api', to: 'kuma/production', relation_type: 'part_of' },
      { from: 'kuma/web-keyword', to: 'kuma/production', relation_type: 'part_of' },
    ]);
  });

  it('maps each monitor type Vigil has to its check', () => {
    const checks = list(kumaImporter.convert(BACKUP_TEXT).document, 'checks');
    const check = (entity: string) => checks.find((c) => c.entity === entity);
    expect(checks.map((c) => c.entity)).toEqual([
      'kuma/api',
      'kuma/web-keyword',
      'kuma/orders-json',
      'kuma/postgres-port',
      'kuma/gateway-ping',
      'kuma/dns-example',
      'kuma/nightly-backup',
      'kuma/orders-grpc',
    ]);
    // http: retries 2 → down on the 3rd failure; resend every 5 beats of 60 s → repeat every 300 s.
    expect(check('kuma/api')).toEqual({
      entity: 'kuma/api',
      name: 'API',
      check_type: 'http',
      target_url: 'http://127.0.0.1:9/health',
      interval_seconds: 60,
      failure_threshold: 3,
      timeout_ms: 48_000,
      headers: { authorization: ref('KUMA_API_HEADER_AUTHORIZATION') },
      // Kuma's default accepted codes keep their meaning: any 2xx.
      expected_statuses: ['200-299'],
      policy: {
        channels: [{ channel: 'ops-webhook' }, { channel: 'Ops Slack' }],
        repeat_interval_seconds: 300,
      },
    });
    expect(check('kuma/web-keyword')).toMatchObject({
      check_type: 'http',
      target_url: 'https://www.example.com/',
      failure_threshold: 1,
      tls: { skip_verify: true },
      assertions: [{ source: 'body', op: 'contains', value: 'Welcome' }],
      policy: { channels: [{ channel: 'Telegram' }] },
    });
    expect(check('kuma/web-keyword')).not.toHaveProperty('expected_status');
    expect(check('kuma/orders-json')).toMatchObject({
      method: 'POST',
      body: '{"q": 1}',
      expected_status: 201,
      headers: { authorization: ref('KUMA_ORDERS_JSON_BASIC_AUTH') },
      assertions: [{ source: 'json', path: '$.data.status', op: 'eq', value: 'ok' }],
    });
    expect(check('kuma/postgres-port')).toMatchObject({
      check_type: 'tcp',
      failure_threshold: 2,
      timeout_ms: 10_000,
      config: { host: '127.0.0.1', port: 5432 },
    });
    expect(check('kuma/gateway-ping')).toMatchObject({
      check_type: 'icmp',
      interval_seconds: 30,
      config: { host: '127.0.0.1' },
    });
    expect(check('kuma/dns-example')).toMatchObject({
      check_type: 'dns',
      config: { hostname: 'example.com', record_type: 'MX', nameserver: '9.9.9.9' },
    });
    expect(check('kuma/nightly-backup')).toEqual({
      entity: 'kuma/nightly-backup',
      name: 'Nightly backup',
      check_type: 'push',
      interval_seconds: 86_400,
      failure_threshold: 1,
      config: { grace_seconds: 86_400 },
      policy: { channels: [{ channel: 'Email' }] },
    });
    expect(check('kuma/orders-grpc')).toMatchObject({
      check_type: 'grpc',
      config: { host: '127.0.0.1', port: 50051, service: 'orders.Orders' },
    });
  });

  it('leaves an upside-down monitor out with its line instead of turning it over', () => {
    const { document, unmapped } = kumaImporter.convert(BACKUP_TEXT);
    expect(list(document, 'checks').filter((c) => c.name === 'API')).toHaveLength(1);
    expect(unmapped).toContain(
      'monitor "API": not imported: upside-down monitors are not supported (Vigil has no inverted check)',
    );
    // The same monitor the right way up is imported (a second "API": its own slug), its codes kept.
    const backup = JSON.parse(BACKUP_TEXT);
    for (const m of backup.monitorList) if (m.upsideDown) m.upsideDown = false;
    const upright = list(kumaImporter.convert(JSON.stringify(backup)).document, 'checks');
    expect(upright.find((c) => c.entity === 'kuma/api-2')).toMatchObject({
      name: 'API',
      enabled: false,
      expected_statuses: ['200-299'],
    });
  });

  it('keeps accepted status codes as a code, or as codes and ranges', () => {
    const backup = JSON.parse(BACKUP_TEXT);
    const api = backup.monitorList.find((m: Obj) => m.name === 'API' && !m.upsideDown);
    const convert = (accepted: string[]) => {
      api.accepted_statuscodes = accepted;
      const converted = kumaImporter.convert(JSON.stringify(backup));
      const check = list(converted.document, 'checks').find((c) => c.entity === 'kuma/api') as Obj;
      const lines = converted.unmapped.filter((line) => line.includes('status code'));
      return { status: check.expected_status, statuses: check.expected_statuses, lines };
    };
    expect(convert(['204'])).toEqual({ status: 204, statuses: undefined, lines: [] });
    expect(convert(['200'])).toEqual({ status: undefined, statuses: undefined, lines: [] });
    expect(convert(['200-299', '300-399'])).toEqual({
      status: undefined,
      statuses: ['200-299', '300-399'],
      lines: [],
    });
    expect(convert(['200-299', '600-699'])).toMatchObject({
      statuses: ['200-299'],
      lines: [expect.stringContaining('the accepted status code 600-699 is not kept')],
    });
  });

  it("gives a push monitor threshold 1 unless Kuma's maxretries says otherwise", () => {
    const push = (id: number, name: string, extra: Record<string, unknown>) => ({
      id,
      name,
      type: 'push',
      interval: 3600,
      active: true,
      ...extra,
    });
    const text = JSON.stringify({
      version: '1.23.0',
      notificationList: [],
      monitorList: [
        push(1, 'No retries given', {}),
        push(2, 'Retries null', { maxretries: null }),
        push(3, 'Retries zero', { maxretries: 0 }),
        push(4, 'Retries two', { maxretries: 2 }),
      ],
    });
    const checks = list(kumaImporter.convert(text).document, 'checks');
    expect(checks.map((c) => [c.name, c.check_type, c.failure_threshold])).toEqual([
      ['No retries given', 'push', 1],
      ['Retries null', 'push', 1],
      ['Retries zero', 'push', 1],
      // Kuma goes down on the failure after its last retry.
      ['Retries two', 'push', 3],
    ]);
  });

  it('maps each notification type Vigil has to a shared channel, its secrets as environment references', () => {
    const { document } = kumaImporter.convert(BACKUP_TEXT);
    expect(list(document, 'channels')).toEqual([
      { name: 'ops-webhook', channel_type: 'webhook', config: { url: 'http://127.0.0.1:9/hook' } },
      { name: 'Ops Slack', channel_type: 'slack', config: { url: ref('KUMA_OPS_SLACK_URL') } },
      { name: 'Discord', channel_type: 'discord', config: { url: ref('KUMA_DISCORD_URL') } },
      {
        name: 'Telegram',
        channel_type: 'telegram',
        config: { bot_token: ref('KUMA_TELEGRAM_BOT_TOKEN'), chat_id: '-1001234567890' },
      },
      { name: 'Teams', channel_type: 'teams', config: { url: ref('KUMA_TEAMS_URL') } },
      {
        name: 'PagerDuty',
        channel_type: 'pagerduty',
        config: { routing_key: ref('KUMA_PAGERDUTY_ROUTING_KEY'), region: 'eu' },
      },
      {
        name: 'Opsgenie',
        channel_type: 'opsgenie',
        config: {
          api_key: ref('KUMA_OPSGENIE_API_KEY'),
          region: 'eu',
          priorities: { down: 'P2', degraded: 'P3' },
        },
      },
      {
        name: 'Pushover',
        channel_type: 'pushover',
        config: {
          app_token: ref('KUMA_PUSHOVER_APP_TOKEN'),
          user_key: ref('KUMA_PUSHOVER_USER_KEY'),
          priority: 1,
        },
      },
      {
        name: 'Gotify',
        channel_type: 'gotify',
        config: { url: 'https://gotify.example.com', token: ref('KUMA_GOTIFY_TOKEN'), priority: 8 },
      },
      {
        name: 'Matrix',
        channel_type: 'matrix',
        config: {
          homeserver: 'https://matrix.example.org',
          room_id: '!room:example.org',
          access_token: ref('KUMA_MATRIX_ACCESS_TOKEN'),
        },
      },
      {
        name: 'Mattermost',
        channel_type: 'mattermost',
        config: { url: ref('KUMA_MATTERMOST_URL'), channel: 'alerts' },
      },
      { name: 'Google Chat', channel_type: 'google_chat', config: { url: ref('KUMA_GOOGLE_CHAT_URL') } },
      { name: 'Email', channel_type: 'email', config: { to: ['ops@example.com', 'oncall@example.com'] } },
      {
        name: 'ntfy',
        channel_type: 'ntfy',
        config: { url: 'https://ntfy.example.com/ops', token: ref('KUMA_NTFY_TOKEN') },
      },
    ]);
  });

  it('lists what it could not map line by line, then each secret to set', () => {
    const { unmapped } = kumaImporter.convert(BACKUP_TEXT);
    expect(unmapped.slice(0, MONITOR_LINES.length)).toEqual(MONITOR_LINES);
    const secrets = unmapped.slice(MONITOR_LINES.length);
    expect(secrets.map((line) => /^secret: set ([A-Z0-9_]+) to /.exec(line)?.[1])).toEqual(ENV_NAMES);
    expect(secrets[0]).toBe(
      `secret: set KUMA_OPS_SLACK_URL to the Slack incoming webhook URL of notification "Ops Slack" (the document refers to it as ${ref('KUMA_OPS_SLACK_URL')})`,
    );
    // Every reference in the document has its line, and every line its reference.
    const references = [
      ...JSON.stringify(kumaImporter.convert(BACKUP_TEXT).document).matchAll(/\$\{([A-Z0-9_]+)\}/g),
    ];
    expect(new Set(references.map((m) => m[1]))).toEqual(new Set(ENV_NAMES));
  });

  it('never writes a secret of the Kuma file into the document or the lines', async () => {
    for (const conversion of [kumaImporter.convert(BACKUP_TEXT), await importKuma(dbPath)]) {
      const written = JSON.stringify(conversion);
      expect(SECRETS.filter((secret) => written.includes(secret))).toEqual([]);
    }
    // The fixture does hold them: the check above would see one that leaked.
    expect(SECRETS.filter((secret) => !BACKUP_TEXT.includes(secret))).toEqual([]);
  });

  it('converts the database of the same monitors to the same document, plus its maintenance and status pages', async () => {
    const fromBackup = await importKuma(BACKUP_PATH);
    const fromDb = await importKuma(dbPath);
    expect({ ...fromDb.document, maintenance: [], status_pages: [] }).toEqual(fromBackup.document);
    expect(fromDb.unmapped.filter((line) => !/^(maintenance|status page) "/.test(line))).toEqual(
      fromBackup.unmapped,
    );
    expect(fromDb.unmapped.filter((line) => /^(maintenance|status page) "/.test(line))).toEqual(
      SCHEDULE_LINES,
    );
    expect(fromDb.document.maintenance).toEqual([
      {
        name: 'Nightly DB',
        entities: ['kuma/postgres-port'],
        cron: '0 2 * * 1,3',
        duration_seconds: 3600,
        timezone: 'Europe/Berlin',
      },
      // 22:00 in Berlin in March (CET, UTC+1) is 21:00 UTC.
      {
        name: 'Migration',
        entities: ['kuma/api', 'kuma/orders-json'],
        starts_at: '2026-03-01T21:00:00Z',
        ends_at: '2026-03-02T01:00:00Z',
        public_note: 'Move the orders database',
      },
      {
        name: 'Month end',
        entities: ['kuma/dns-example'],
        cron: '0 1 L * *',
        duration_seconds: 7200,
        timezone: 'UTC',
      },
      {
        name: 'Every other day',
        entities: ['kuma/gateway-ping'],
        cron: '30 5 */2 * *',
        duration_seconds: 1800,
        timezone: 'UTC',
      },
    ]);
    // Groups in their order, monitors in theirs; the unmapped Mongo monitor is left out.
    expect(fromDb.document.status_pages).toEqual([
      {
        slug: 'public',
        title: 'Public status',
        description: 'Our services',
        entities: ['kuma/api', 'kuma/web-keyword', 'kuma/postgres-port'],
      },
      { slug: 'kuma-status', title: 'Status', entities: ['kuma/gateway-ping', 'kuma/api'] },
    ]);
  });

  it('reads Kuma 2.x columns where the database has them (the JSON query operator, conditions)', async () => {
    const path = join(dir, 'kuma-2x.db');
    buildKumaDatabase(path, JSON.parse(BACKUP_TEXT), { maintenance: [], statusPages: [] });
    const db = new Database(path);
    db.exec("ALTER TABLE monitor ADD json_path_operator VARCHAR(10) DEFAULT '=='");
    db.prepare("UPDATE monitor SET json_path_operator = '>=', expected_value = '3' WHERE id = 3").run();
    db.exec("ALTER TABLE monitor ADD conditions TEXT DEFAULT '[]' NOT NULL");
    db.prepare('UPDATE monitor SET conditions = ? WHERE id = 6').run(
      JSON.stringify([{ type: 'expression', variable: 'record', operator: 'contains', value: 'mx1' }]),
    );
    db.close();
    const conversion = await importKuma(path);
    const check = list(conversion.document, 'checks').find((c) => c.entity === 'kuma/orders-json');
    expect(check?.assertions).toEqual([{ source: 'json', path: '$.data.status', op: 'gte', value: 3 }]);
    // Only the monitor with conditions gets a line for them ("[]" is none).
    expect(conversion.unmapped.filter((line) => line.includes('conditions'))).toEqual([
      'monitor "DNS example": its conditions are not kept',
    ]);
  });

  it('writes a document the API accepts: each object parses with its route request schema', async () => {
    const document = (await importKuma(dbPath)).document;
    expect(problemsOf(withEnv(document))).toEqual([]);
    // The judge does refuse: without the environment's values, the secret URLs are no URLs.
    expect(problemsOf(document)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^channel Ops Slack: /),
        expect.stringMatching(/^channel Telegram: /),
      ]),
    );
  });

  it('chooses backup or database by the first bytes, and refuses what is neither', async () => {
    const notKuma = join(dir, 'other.json');
    writeFileSync(notKuma, JSON.stringify({ endpoints: [] }));
    await expect(importKuma(notKuma)).rejects.toThrow(ImportError);
    await expect(importKuma(notKuma)).rejects.toThrow(/no monitorList/);
    expect(() => kumaImporter.convert('{"monitorList": [{"id": 1}, null]}')).toThrow(
      'This Uptime Kuma backup is damaged: monitorList[1] is not an object',
    );
    writeFileSync(join(dir, 'broken.json'), '{"monitorList": [');
    await expect(importKuma(join(dir, 'broken.json'))).rejects.toThrow(/This is not JSON/);
    const otherDb = join(dir, 'other.db');
    const db = new Database(otherDb);
    db.exec('CREATE TABLE things (id INTEGER PRIMARY KEY)');
    db.close();
    await expect(importKuma(otherDb)).rejects.toThrow(/not Uptime Kuma's/);
    // An empty Kuma database (the schema alone) converts to an empty document.
    const empty = join(dir, 'empty.db');
    const fresh = new Database(empty);
    applyKumaSchema(fresh);
    fresh.close();
    const conversion = await importKuma(empty);
    expect(conversion.unmapped).toEqual([]);
    expect(list(conversion.document, 'checks')).toEqual([]);
  });
});
