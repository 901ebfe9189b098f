import { describe, expect, it } from 'vitest';
import type { ReadContext, Reading } from '../../lib/integrations/kinds/definition.ts';
import type { IncomingAlert } from '../../lib/integrations/kinds/incoming.ts';
import { INTEGRATION_KINDS, type IntegrationKind } from '../../lib/integrations/kinds/registry.ts';
import { CERT_URL, createSnsSigner, TOPIC_ARN } from './support/sns-signer.ts';

/**
 * Each integration kind reads its sender's body as the sender's documentation shows it
 * (Alertmanager's webhook version 4, Grafana's webhook contact point, PagerDuty Events v2,
 * CloudWatch alarms through SNS, a generic JSON webhook) into outside alerts, and refuses what it
 * cannot read with the path of what is wrong.
 */

const signer = createSnsSigner();
const NOW = new Date();

function context(overrides: Partial<ReadContext> = {}): ReadContext {
  return {
    severityMap: {},
    settings: undefined,
    headers: {},
    fetchCertificate: async (url) => {
      if (url !== CERT_URL) throw new Error(`fetched ${url}`);
      return signer.certificatePem;
    },
    snsTopicArn: undefined,
    now: NOW,
    ...overrides,
  };
}

async function alertsOf(kind: IntegrationKind, body: unknown, ctx = context()): Promise<IncomingAlert[]> {
  const reading: Reading = await INTEGRATION_KINDS[kind].read(body, ctx);
  if (reading.kind !== 'alerts') throw new Error(`read ${reading.kind}`);
  return reading.alerts;
}

const alertmanagerBody = {
  version: '4',
  groupKey: '{}:{alertname="DiskFull"}',
  truncatedAlerts: 0,
  status: 'firing',
  receiver: 'vigil',
  groupLabels: { alertname: 'DiskFull' },
  commonLabels: { alertname: 'DiskFull' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager:9093',
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'DiskFull', instance: 'db-1:9100', service: 'orders-db', severity: 'warning' },
      annotations: { summary: 'Disk 95% full on db-1', runbook_url: 'https://runbooks.example/disk' },
      startsAt: '2026-11-28T20:58:00.000+01:00',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus:9090/graph?g0.expr=disk',
      fingerprint: '6f1b2c3d4e5f6a7b',
    },
    {
      status: 'resolved',
      labels: { alertname: 'HighLatency', job: 'api' },
      annotations: {},
      startsAt: '2026-11-28T20:00:00Z',
      endsAt: '2026-11-28T20:59:00Z',
      generatorURL: 'javascript:alert(1)',
      fingerprint: 'a1a1a1a1a1a1a1a1',
    },
  ],
};

describe('alertmanager', () => {
  it('reads each alert of a webhook body: fingerprint, firing or resolved, severity label, summary, links', async () => {
    const [disk, latency] = await alertsOf('alertmanager', alertmanagerBody);
    expect(disk).toEqual({
      dedup_key: '6f1b2c3d4e5f6a7b',
      action: 'trigger',
      severity: 'warning',
      summary: 'Disk 95% full on db-1',
      source: 'db-1:9100',
      labels: { alertname: 'DiskFull', instance: 'db-1:9100', service: 'orders-db', severity: 'warning' },
      links: [
        { href: 'http://prometheus:9090/graph?g0.expr=disk', text: 'Source' },
        { href: 'https://runbooks.example/disk', text: 'Runbook' },
      ],
      at: '2026-11-28T19:58:00.000Z',
    });
    // No summary annotation: the alert's name. A javascript: link is not kept.
    expect(latency).toMatchObject({ action: 'resolve', summary: 'HighLatency', source: 'api', links: [] });
    expect(latency?.at).toBe('2026-11-28T20:59:00.000Z');
  });

  it('pages an alert without a severity label, and maps words through severity_map first', async () => {
    const body = (severity?: string) => ({
      alerts: [{ status: 'firing', labels: severity ? { severity } : {}, fingerprint: 'x' }],
    });
    expect((await alertsOf('alertmanager', body()))[0]?.severity).toBe('critical');
    expect((await alertsOf('alertmanager', body('P3')))[0]?.severity).toBe('warning');
    const mapped = await alertsOf('alertmanager', body('sev2'), context({ severityMap: { SEV2: 'error' } }));
    expect(mapped[0]?.severity).toBe('error');
  });

  it('refuses a body it cannot read with the path of what is wrong, and more than 1,000 alerts', async () => {
    await expect(alertsOf('alertmanager', { alerts: [{ status: 'burning' }] })).rejects.toMatchObject({
      status: 400,
      details: [{ path: 'alerts.0.status' }],
    });
    const many = { alerts: Array.from({ length: 1001 }, () => ({ status: 'firing', fingerprint: 'x' })) };
    await expect(alertsOf('alertmanager', many)).rejects.toMatchObject({
      status: 400,
      details: [{ path: 'alerts' }],
    });
  });

  it('keys an alert without a fingerprint by its sorted labels', async () => {
    const a = await alertsOf('alertmanager', { alerts: [{ status: 'firing', labels: { a: '1', b: '2' } }] });
    const b = await alertsOf('alertmanager', { alerts: [{ status: 'firing', labels: { b: '2', a: '1' } }] });
    const c = await alertsOf('alertmanager', { alerts: [{ status: 'firing', labels: { a: '1', b: '3' } }] });
    expect(a[0]?.dedup_key).toBe(b[0]?.dedup_key);
    expect(a[0]?.dedup_key).not.toBe(c[0]?.dedup_key);
  });
});

describe('grafana', () => {
  it("reads Grafana's webhook body with its rule, dashboard, panel and silence links", async () => {
    const [alert] = await alertsOf('grafana', {
      receiver: 'vigil',
      status: 'firing',
      orgId: 1,
      title: '[FIRING:1] High memory usage',
      state: 'alerting',
      message: 'The system has high memory usage',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'High memory usage', team: 'blue', zone: 'us-1' },
          annotations: {
            description: 'The system has high memory usage',
            summary: 'Triggered for zone us-1',
          },
          startsAt: '2021-10-12T09:51:03.157076+02:00',
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'https://play.grafana.org/alerting/1afz29v7z/edit',
          fingerprint: 'c6eadffa33fcdf37',
          silenceURL: 'https://play.grafana.org/alerting/silence/new?alertmanager=grafana',
          dashboardURL: '',
          panelURL: '',
          values: { B: 44.23943737541908, C: 1 },
        },
      ],
    });
    expect(alert).toMatchObject({
      dedup_key: 'c6eadffa33fcdf37',
      action: 'trigger',
      severity: 'critical',
      summary: 'Triggered for zone us-1',
      at: '2021-10-12T07:51:03.157Z',
    });
    expect(alert?.links.map((l) => l.text)).toEqual(['Alert rule', 'Silence']);
  });
});

describe('pagerduty', () => {
  const trigger = {
    routing_key: 'R0UT1NGKEY',
    event_action: 'trigger',
    payload: {
      summary: 'Orders API 5xx above 5%',
      source: 'orders-api',
      severity: 'error',
      component: 'api',
      group: 'shop',
      class: 'http',
      custom_details: { service: 'orders-api', ratio: 0.07 },
      timestamp: '2026-11-28T20:00:00Z',
    },
    links: [{ href: 'https://grafana.example/d/1', text: 'Dashboard' }],
    client: 'Sentinel',
    client_url: 'https://sentinel.example',
  };

  it('reads a trigger: payload severity, source, custom details as labels, links and client', async () => {
    const [alert] = await alertsOf('pagerduty', { ...trigger, dedup_key: 'orders-5xx' });
    expect(alert).toEqual({
      dedup_key: 'orders-5xx',
      action: 'trigger',
      severity: 'error',
      summary: 'Orders API 5xx above 5%',
      source: 'orders-api',
      labels: {
        source: 'orders-api',
        component: 'api',
        group: 'shop',
        class: 'http',
        service: 'orders-api',
        ratio: '0.07',
      },
      links: [
        { href: 'https://grafana.example/d/1', text: 'Dashboard' },
        { href: 'https://sentinel.example/', text: 'Sentinel' },
      ],
      at: '2026-11-28T20:00:00.000Z',
    });
  });

  it('gives a trigger without a dedup_key the same key each time it is sent', async () => {
    const [first] = await alertsOf('pagerduty', trigger);
    const [again] = await alertsOf('pagerduty', structuredClone(trigger));
    const [other] = await alertsOf('pagerduty', { ...trigger, payload: { ...trigger.payload, source: 'b' } });
    expect(first?.dedup_key).toMatch(/^derived:[0-9a-f]{32}$/);
    expect(again?.dedup_key).toBe(first?.dedup_key);
    expect(other?.dedup_key).not.toBe(first?.dedup_key);
  });

  it('reads acknowledge and resolve by dedup_key, and refuses them without one', async () => {
    for (const action of ['acknowledge', 'resolve'] as const) {
      const [alert] = await alertsOf('pagerduty', {
        routing_key: 'k',
        event_action: action,
        dedup_key: 'orders-5xx',
      });
      expect(alert).toMatchObject({ dedup_key: 'orders-5xx', action, severity: undefined });
      await expect(alertsOf('pagerduty', { routing_key: 'k', event_action: action })).rejects.toMatchObject({
        status: 400,
        details: [{ path: 'dedup_key' }],
      });
    }
  });

  it('refuses a trigger without its payload fields or with an unknown severity', async () => {
    await expect(
      alertsOf('pagerduty', { ...trigger, payload: { ...trigger.payload, severity: 'catastrophic' } }),
    ).rejects.toMatchObject({ status: 400, details: [{ path: 'payload.severity' }] });
    await expect(
      alertsOf('pagerduty', { event_action: 'trigger', payload: { summary: 's' } }),
    ).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('cloudwatch (through SNS)', () => {
  const alarm = (state: 'ALARM' | 'OK' | 'INSUFFICIENT_DATA') =>
    JSON.stringify({
      AlarmName: 'orders-db-cpu',
      AlarmDescription: null,
      AWSAccountId: '123456789012',
      NewStateValue: state,
      NewStateReason: 'Threshold Crossed: 1 datapoint [97.0] was greater than the threshold (90.0).',
      StateChangeTime: '2026-11-28T20:59:00.000+0000',
      Region: 'EU (Ireland)',
      AlarmArn: 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:orders-db-cpu',
      OldStateValue: 'OK',
      Trigger: {
        MetricName: 'CPUUtilization',
        Namespace: 'AWS/RDS',
        Dimensions: [{ name: 'DBInstanceIdentifier', value: 'orders-db' }],
      },
    });

  it('reads a signed alarm (signature versions 1 and 2): ALARM triggers critical, OK resolves', async () => {
    for (const version of ['1', '2'] as const) {
      const [fired] = await alertsOf(
        'cloudwatch',
        signer.envelope({ Type: 'Notification', Message: alarm('ALARM') }, version),
      );
      expect(fired).toMatchObject({
        dedup_key: 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:orders-db-cpu',
        action: 'trigger',
        severity: 'critical',
        source: 'AWS/RDS',
        labels: { alarm_name: 'orders-db-cpu', DBInstanceIdentifier: 'orders-db', metric: 'CPUUtilization' },
      });
      expect(fired?.summary).toMatch(/^orders-db-cpu: Threshold Crossed/);
      const [ok] = await alertsOf(
        'cloudwatch',
        signer.envelope({ Type: 'Notification', Message: alarm('OK') }, version),
      );
      expect(ok).toMatchObject({ action: 'resolve', severity: undefined });
    }
    const [unsure] = await alertsOf(
      'cloudwatch',
      signer.envelope({ Type: 'Notification', Message: alarm('INSUFFICIENT_DATA') }),
    );
    expect(unsure).toMatchObject({ action: 'trigger', severity: 'info' });
  });

  it('refuses a message whose signature does not hold: changed after signing, or signed by another key', async () => {
    const signed = signer.envelope({ Type: 'Notification', Message: alarm('OK') });
    await expect(alertsOf('cloudwatch', { ...signed, Message: alarm('ALARM') })).rejects.toMatchObject({
      status: 401,
    });
    const stranger = createSnsSigner();
    await expect(
      alertsOf('cloudwatch', stranger.envelope({ Type: 'Notification', Message: alarm('ALARM') })),
    ).rejects.toMatchObject({ status: 401, message: 'the SNS signature does not verify' });
  });

  it('fetches a certificate only from sns.<the topic region>.amazonaws.com over HTTPS', async () => {
    const fetched: string[] = [];
    const ctx = context({
      fetchCertificate: async (url) => {
        fetched.push(url);
        return signer.certificatePem;
      },
    });
    for (const url of [
      'https://attacker.example/cert.pem',
      'http://sns.eu-west-1.amazonaws.com/cert.pem',
      'https://sns.us-east-1.amazonaws.com/cert.pem',
      'https://sns.eu-west-1.amazonaws.com.attacker.example/cert.pem',
      'https://sns.eu-west-1.amazonaws.com:8443/cert.pem',
      'https://sns.eu-west-1.amazonaws.com/cert.txt',
    ]) {
      const envelope = signer.envelope({
        Type: 'Notification',
        Message: alarm('ALARM'),
        SigningCertURL: url,
      });
      await expect(alertsOf('cloudwatch', envelope, ctx), url).rejects.toMatchObject({ status: 401 });
    }
    expect(fetched).toEqual([]);
  });

  it('confirms a signed subscription, ignores an unsubscribe, and refuses another topic once one is confirmed', async () => {
    const confirmation = signer.envelope({
      Type: 'SubscriptionConfirmation',
      Message: 'You have chosen to subscribe to the topic',
      Token: '2336412f37fb687f5d51e6e2425c464de',
      SubscribeURL: `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}&Token=2336`,
    });
    expect(await INTEGRATION_KINDS.cloudwatch.read(confirmation, context())).toEqual({
      kind: 'subscription',
      topicArn: TOPIC_ARN,
      confirmUrl: confirmation.SubscribeURL,
    });
    const elsewhere = signer.envelope({
      ...confirmation,
      SubscribeURL: 'https://attacker.example/?Action=x',
    });
    await expect(INTEGRATION_KINDS.cloudwatch.read(elsewhere, context())).rejects.toMatchObject({
      status: 400,
    });
    const unsubscribe = signer.envelope({ ...confirmation, Type: 'UnsubscribeConfirmation' });
    expect((await INTEGRATION_KINDS.cloudwatch.read(unsubscribe, context())).kind).toBe('nothing');
    const other = signer.envelope({
      Type: 'Notification',
      Message: alarm('ALARM'),
      TopicArn: 'arn:aws:sns:eu-west-1:123456789012:someone-else',
    });
    await expect(alertsOf('cloudwatch', other, context({ snsTopicArn: TOPIC_ARN }))).rejects.toMatchObject({
      status: 401,
    });
  });

  it('refuses an expired certificate', async () => {
    const envelope = signer.envelope({ Type: 'Notification', Message: alarm('ALARM') });
    const later = context({ now: new Date(Date.now() + 60 * 24 * 3600 * 1000) });
    await expect(alertsOf('cloudwatch', envelope, later)).rejects.toMatchObject({ status: 401 });
  });
});

describe('generic', () => {
  const settings = {
    key: '$.id',
    status: '$.state',
    summary: '$.title',
    severity: '$.level',
    source: '$.host.name',
    labels: '$.tags',
  };

  it('reads one alert or an array of them through the configured paths', async () => {
    const ctx = context({ settings });
    const [one] = await alertsOf(
      'generic',
      {
        id: 42,
        state: 'open',
        title: 'Queue backlog',
        level: 'warn',
        host: { name: 'q-1' },
        tags: { service: 'queue' },
      },
      ctx,
    );
    expect(one).toMatchObject({
      dedup_key: '42',
      action: 'trigger',
      severity: 'warning',
      summary: 'Queue backlog',
      source: 'q-1',
      labels: { service: 'queue' },
    });
    const many = await alertsOf(
      'generic',
      [
        { id: 'a', state: 'RESOLVED', title: 't' },
        { id: 'b', state: 'ack', title: 't' },
      ],
      ctx,
    );
    expect(many.map((a) => a.action)).toEqual(['resolve', 'acknowledge']);
  });

  it('refuses an alert without its key or status, naming the path', async () => {
    await expect(
      alertsOf('generic', [{ id: 'a', state: 'open' }, { state: 'open' }], context({ settings })),
    ).rejects.toMatchObject({
      status: 400,
      details: [{ path: '$[1].id' }],
    });
    await expect(alertsOf('generic', 'text', context({ settings }))).rejects.toMatchObject({ status: 400 });
  });
});
