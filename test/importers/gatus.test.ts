import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatusImporter } from '../../lib/importers/gatus.ts';
import { envRef } from '../../lib/importers/import-common.ts';
import { ImportError } from '../../lib/importers/importer.ts';
import { TEXT_IMPORTERS } from '../../lib/importers/registry.ts';
import { requestSchemaProblems } from './convert-validation.ts';

const FIXTURE = readFileSync(new URL('../fixtures/gatus/config.yaml', import.meta.url), 'utf8');
/** The values plan and apply would read for the `${ENV}` references the conversion makes. */
const ENV = {
  GATUS_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/abc',
  DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1/abc',
  GATUS_PAGERDUTY_INTEGRATION_KEY: 'a'.repeat(32),
  GATUS_TELEGRAM_TOKEN: '123456:ABCdefghijklmnopqrstuvwxyz',
  GATUS_BACK_END_AUTHORIZATION: 'Bearer x',
};

const converted = gatusImporter.convert(FIXTURE);
const doc = converted.document as Record<string, Record<string, unknown>[]>;
const check = (name: string) => doc.checks?.find((c) => c.name === name);

describe('the Gatus importer', () => {
  it('is registered for .yaml and .yml uploads', () => {
    expect(TEXT_IMPORTERS.gatus).toBe(gatusImporter);
    expect(gatusImporter.accept).toBe('.yaml,.yml');
  });

  it('makes a document every object of which the API create routes accept', () => {
    expect(doc.apiVersion).toBe('vigil/v1');
    expect(doc.kind).toBe('Config');
    expect(requestSchemaProblems(converted.document, ENV)).toEqual([]);
  });

  it('makes one entity per group, else one per endpoint, in blueprint gatus; left-out endpoints make none', () => {
    expect(doc.blueprints?.map((b) => b.slug)).toEqual(['gatus']);
    expect(doc.entities?.map((e) => `${e.blueprint}/${e.slug}`)).toEqual([
      'gatus/core',
      'gatus/status-range',
      'gatus/tcp-database',
      'gatus/icmp-router',
      'gatus/dns-example',
      'gatus/domain-expiry',
      'gatus/ui-hidden',
    ]);
    expect(check('front-end')?.entity).toBe('gatus/core');
    expect(check('back-end')?.entity).toBe('gatus/core');
    expect(check('ext-ep-test')?.entity).toBe('gatus/core');
    expect(check('websocket')).toBeUndefined();
  });

  it('maps an http endpoint: interval, status, json and latency conditions, alerts to thresholds and policy', () => {
    expect(check('front-end')).toEqual({
      entity: 'gatus/core',
      name: 'front-end',
      interval_seconds: 300,
      check_type: 'http',
      target_url: 'https://twin.sh/health',
      expected_status: 200,
      assertions: [
        { source: 'json', path: '$.status', op: 'eq', value: 'UP' },
        { source: 'latency_ms', op: 'lt', value: 150 },
      ],
      timeout_ms: 10_000,
      // slack's default-alert says failure-threshold 4 and send-on-resolved; Gatus's success-threshold is 2.
      failure_threshold: 4,
      success_threshold: 2,
      policy: {
        notify_on_recovery: true,
        channels: [{ channel: 'gatus-slack' }, { channel: 'gatus-pagerduty' }],
      },
    });
  });

  it('adds a tls check for [CERTIFICATE_EXPIRATION] and a domain check for [DOMAIN_EXPIRATION]', () => {
    expect(check('front-end certificate')).toMatchObject({
      entity: 'gatus/core',
      check_type: 'tls',
      config: { host: 'twin.sh', expiry_threshold_days: 2 },
      interval_seconds: 300,
    });
    expect(check('domain-expiry domain')).toMatchObject({
      check_type: 'domain',
      config: { domain: 'example.org', expiry_threshold_days: 30 },
      interval_seconds: 3600,
      policy: { notify_on_recovery: false, channels: [{ channel: 'gatus-telegram' }] },
    });
  });

  it('maps the request (method, body, headers), the client and the body conditions', () => {
    expect(check('back-end')).toEqual({
      entity: 'gatus/core',
      name: 'back-end',
      check_type: 'http',
      target_url: 'https://example.org/api/health',
      expected_status: 201,
      assertions: [
        { source: 'json', path: '$.data[0].id', op: 'gt', value: 5 },
        { source: 'json', path: '$.errors', op: 'exists', value: false },
        { source: 'body', op: 'matches', value: '^[\\s\\S]*ok[\\s\\S]*$' },
      ],
      timeout_ms: 3000,
      method: 'POST',
      body: '{"ping": true}',
      headers: { 'Content-Type': 'application/json', Authorization: envRef('GATUS_BACK_END_AUTHORIZATION') },
      tls: { skip_verify: true },
    });
  });

  it('keeps what the [STATUS] conditions accept, together: a code, codes and ranges, or any status', () => {
    // [STATUS] == 201 and [STATUS] == any(200, 201): 201 alone.
    expect(check('back-end')).toMatchObject({ expected_status: 201 });
    expect(check('back-end')).not.toHaveProperty('expected_statuses');
    expect(check('status-range')).toMatchObject({ expected_statuses: ['100-299'] });
    const statuses = (...conditions: string[]) => {
      const yaml = `endpoints:\n  - name: api\n    url: "https://example.org/"\n    conditions:\n${conditions.map((c) => `      - "${c}"\n`).join('')}`;
      const result = gatusImporter.convert(yaml);
      const [made] = (result.document as Record<string, Record<string, unknown>[]>).checks ?? [];
      return { status: made?.expected_status, statuses: made?.expected_statuses, unmapped: result.unmapped };
    };
    expect(statuses('[STATUS] >= 200', '[STATUS] < 300')).toEqual({
      status: undefined,
      statuses: ['200-299'],
      unmapped: [],
    });
    expect(statuses('[STATUS] == any(200, 204, 304)')).toMatchObject({ statuses: [200, 204, 304] });
    expect(statuses('[STATUS] != 500', '[STATUS] < 600')).toMatchObject({ statuses: ['100-499', '501-599'] });
    // Gatus judges the status only by a condition: without one any status passes, here too.
    expect(statuses('[RESPONSE_TIME] < 500')).toMatchObject({ statuses: ['100-599'] });
    expect(statuses('[STATUS] == 200', '[STATUS] == 201').unmapped).toEqual([
      'endpoints[0].conditions: [STATUS] == 201: no status passes it with the other [STATUS] conditions',
    ]);
  });

  it('maps tcp, icmp and dns endpoints by their url', () => {
    expect(check('tcp-database')).toMatchObject({
      check_type: 'tcp',
      config: { host: 'db.example.org', port: 5432 },
      interval_seconds: 30,
      policy: { notify_on_recovery: false, channels: [{ channel: 'gatus-discord' }] },
    });
    expect(check('icmp-router')).toEqual({
      entity: 'gatus/icmp-router',
      name: 'icmp-router',
      check_type: 'icmp',
      config: { host: '192.168.1.1' },
    });
    expect(check('dns-example')?.config).toEqual({
      hostname: 'example.com',
      record_type: 'A',
      nameserver: '8.8.8.8',
      expected_value: '93.184.216.34',
    });
  });

  it('maps an external endpoint to a push check with its heartbeat interval', () => {
    expect(check('ext-ep-test')).toEqual({
      entity: 'gatus/core',
      name: 'ext-ep-test',
      check_type: 'push',
      interval_seconds: 1800,
      // Its discord alert gives no failure-threshold: a heartbeat is down on its first failure.
      failure_threshold: 1,
      success_threshold: 2,
      policy: { notify_on_recovery: false, channels: [{ channel: 'gatus-discord' }] },
    });
  });

  it("gives an external endpoint's push check threshold 1 unless its alerts give one; pull endpoints keep Gatus's 3", () => {
    const { document } = gatusImporter.convert(`
alerting:
  discord:
    webhook-url: https://discord.com/api/webhooks/1/abc
  slack:
    webhook-url: \${SLACK_URL}
    default-alert:
      failure-threshold: 2
endpoints:
  - name: api
    url: https://api.example.org
    alerts:
      - type: discord
external-endpoints:
  - name: silent-backup
    heartbeat: {interval: 24h}
  - name: alerted-backup
    heartbeat: {interval: 24h}
    alerts:
      - type: discord
  - name: patient-backup
    heartbeat: {interval: 1h}
    alerts:
      - type: discord
        failure-threshold: 5
  - name: defaulted-backup
    heartbeat: {interval: 1h}
    alerts:
      - type: slack
`);
    const threshold = (name: string) =>
      (document.checks as Record<string, unknown>[]).find((c) => c.name === name)?.failure_threshold;
    expect(threshold('api')).toBe(3);
    expect(threshold('silent-backup')).toBe(1);
    expect(threshold('alerted-backup')).toBe(1);
    expect(threshold('patient-backup')).toBe(5);
    expect(threshold('defaulted-backup')).toBe(2);
  });

  it('maps providers to shared channels with secrets as env references, never their values', () => {
    expect(doc.channels).toEqual([
      { name: 'gatus-slack', channel_type: 'slack', config: { url: envRef('GATUS_SLACK_WEBHOOK_URL') } },
      { name: 'gatus-discord', channel_type: 'discord', config: { url: envRef('DISCORD_WEBHOOK_URL') } },
      {
        name: 'gatus-pagerduty',
        channel_type: 'pagerduty',
        config: { routing_key: envRef('GATUS_PAGERDUTY_INTEGRATION_KEY'), region: 'us' },
      },
      {
        name: 'gatus-telegram',
        channel_type: 'telegram',
        config: { bot_token: envRef('GATUS_TELEGRAM_TOKEN'), chat_id: '987654321' },
      },
      { name: 'gatus-custom', channel_type: 'webhook', config: { url: 'https://hooks.example.org/gatus' } },
    ]);
    const text = JSON.stringify(converted);
    for (const secret of [
      'XXXXXXXXXXXXXXXXXXXXXXXX',
      '0'.repeat(32),
      'fake-bot-token',
      'fake-token-value',
      'potato',
      'github_pat_fake',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('maps the maintenance to a recurring window over the blueprint', () => {
    expect(doc.maintenance).toEqual([
      {
        name: 'gatus maintenance',
        blueprint_slugs: ['gatus'],
        cron: '0 23 * * 1,4',
        duration_seconds: 3600,
        timezone: 'Europe/Amsterdam',
      },
    ]);
  });

  it('lists everything it left out, line by line, by YAML path', () => {
    expect(converted.unmapped).toEqual([
      "storage: Gatus's own settings, nothing to import",
      'alerting.slack.webhook-url: a secret, not copied; set GATUS_SLACK_WEBHOOK_URL in the environment of plan and apply',
      'alerting.pagerduty.integration-key: a secret, not copied; set GATUS_PAGERDUTY_INTEGRATION_KEY in the environment of plan and apply',
      'alerting.telegram.token: a secret, not copied; set GATUS_TELEGRAM_TOKEN in the environment of plan and apply',
      "alerting.custom.method: Vigil's webhook channel has no equivalent",
      "alerting.custom.body: Vigil's webhook channel has no equivalent",
      'alerting.github: Vigil has no github channel type',
      "endpoints[0].alerts[0].description: Vigil's alerts carry no per-check text",
      'endpoints[1].conditions: len([BODY].data) == 3: Vigil has no length assertion',
      'endpoints[1].conditions: [BODY].items[*].ok == true: Vigil reads dotted json paths only (no [*] wildcards)',
      'endpoints[1].headers.Authorization: a secret, not copied; set GATUS_BACK_END_AUTHORIZATION in the environment of plan and apply',
      "endpoints[1].client.ignore-redirect: Vigil's http check has no equivalent, left out",
      'endpoints[2].conditions: [IP] == 127.0.0.1: Vigil has no assertion on the resolved IP',
      "endpoints[4].conditions: [RESPONSE_TIME] < 20: Vigil's icmp checks have no response time limit",
      'endpoints[6].alerts[1]: disabled in Gatus, left out',
      'endpoints[7].url: Vigil has no check for wss:// endpoints like "wss://example.org/ws", endpoint left out',
      'endpoints[8].ui: Vigil has no equivalent, left out',
      'endpoints[8].alerts[0]: no channel for alert type "opsgenie" (see alerting.opsgenie)',
      "external-endpoints[0]: results are pushed to Gatus's API with a token; push to the check's Vigil ping URL instead (GET /v1/checks/{id} after apply)",
    ]);
  });

  it('passes Gatus env references through and keeps endpoint alerts over the default-alert', () => {
    const { document, unmapped } = gatusImporter.convert(`
alerting:
  pushover:
    application-token: \${PUSHOVER_TOKEN}
    user-key: $PUSHOVER_USER
    priority: 1
endpoints:
  - name: api
    url: https://api.example.org
    conditions: ["[STATUS] == 200", "[RESPONSE_TIME] <= 1s"]
    alerts:
      - type: pushover
        failure-threshold: 5
        send-on-resolved: true
        minimum-reminder-interval: 30m
`);
    expect(document.channels).toEqual([
      {
        name: 'gatus-pushover',
        channel_type: 'pushover',
        config: { app_token: envRef('PUSHOVER_TOKEN'), user_key: envRef('PUSHOVER_USER'), priority: 1 },
      },
    ]);
    expect((document.checks as Record<string, unknown>[])[0]).toMatchObject({
      assertions: [{ source: 'latency_ms', op: 'lte', value: 1000 }],
      failure_threshold: 5,
      policy: {
        notify_on_recovery: true,
        repeat_interval_seconds: 1800,
        channels: [{ channel: 'gatus-pushover' }],
      },
    });
    expect(unmapped).toEqual([]);
  });

  it('never copies a password in an endpoint url, and leaves out endpoints without a name', () => {
    const { document, unmapped } = gatusImporter.convert(`
endpoints:
  - name: basic
    url: https://monitor:hunter2@example.org/health
    conditions: ["[STATUS] == 200"]
  - url: https://example.org/nameless
external-endpoints:
  - token: abc
`);
    expect(document.checks).toEqual([
      {
        entity: 'gatus/basic',
        name: 'basic',
        check_type: 'http',
        target_url: `https://monitor:${envRef('GATUS_ENDPOINTS_0_URL_PASSWORD')}@example.org/health`,
        expected_status: 200,
        timeout_ms: 10_000,
      },
    ]);
    expect(document.entities).toEqual([{ blueprint: 'gatus', slug: 'basic', name: 'basic' }]);
    expect(unmapped).toEqual([
      'endpoints[0].url: its password is a secret, not copied; set GATUS_ENDPOINTS_0_URL_PASSWORD in the environment of plan and apply',
      'endpoints[1]: no name (Gatus requires one), endpoint left out',
      'external-endpoints[0]: no name (Gatus requires one), endpoint left out',
    ]);
    expect(JSON.stringify(document)).not.toContain('hunter2');
  });

  it('keeps a url whose host is a Gatus env reference, and says what it cannot check beside it', () => {
    const { document, unmapped } = gatusImporter.convert(`
endpoints:
  - name: env-host
    url: https://\${API_HOST}/health
    conditions: ["[STATUS] == 200", "[CERTIFICATE_EXPIRATION] > 240h"]
  - name: env-tcp
    url: tcp://\${DB_HOST}:5432
`);
    expect((document.checks as Record<string, unknown>[]).map((c) => [c.name, c.target_url])).toEqual([
      ['env-host', `https://${envRef('API_HOST')}/health`],
    ]);
    expect(unmapped).toEqual([
      'endpoints[0].conditions: the expiry conditions need the host, which an environment variable names; left out',
      `endpoints[1].url: "tcp://${envRef('DB_HOST')}:5432" names its host by an environment variable, endpoint left out`,
    ]);
  });

  it("maps an endpoint's maintenance-windows to windows over its entity, and lists those it cannot", () => {
    const { document, unmapped } = gatusImporter.convert(`
endpoints:
  - name: api
    group: backend
    url: https://api.example.org
    maintenance-windows:
      - start: "02:30"
        duration: 90m
        every: [Saturday, Sunday]
      - start: "25:00"
        duration: 1h
external-endpoints:
  - name: backup
    heartbeat: {interval: 24h}
    maintenance-windows:
      - {start: "04:00", duration: 170h}
`);
    expect(document.maintenance).toEqual([
      {
        name: 'api maintenance 1',
        entities: ['gatus/backend'],
        cron: '30 2 * * 0,6',
        duration_seconds: 5400,
      },
    ]);
    expect(unmapped).toEqual([
      'endpoints[0].maintenance-windows[1].start: "25:00" is not an hh:mm time, window left out',
      "external-endpoints[0]: results are pushed to Gatus's API with a token; push to the check's Vigil ping URL instead (GET /v1/checks/{id} after apply)",
      'external-endpoints[0].maintenance-windows[0].duration: Vigil windows last 1 minute to 7 days, window left out',
    ]);
  });

  it('refuses text that is not YAML with an ImportError naming the line', () => {
    const broken = 'endpoints:\n  - name: a\n    url: [unclosed\n  - name: b\n';
    expect(() => gatusImporter.convert(broken)).toThrow(ImportError);
    expect(() => gatusImporter.convert(broken)).toThrow(/line \d+/);
    expect(() => gatusImporter.convert('- just\n- a list\n')).toThrow(/not a YAML mapping/);
  });

  it('refuses a config whose aliases would expand without bound', () => {
    const laughs = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 8; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      laughs.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    expect(() => gatusImporter.convert(laughs.join('\n'))).toThrow(ImportError);
  });
});
