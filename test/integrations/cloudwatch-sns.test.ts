import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, adminCall, bothRuntimes } from '../support/api-harness.ts';
import { type ProviderServer, startProviderServer } from '../support/receivers/provider-host.ts';
import { createSnsSigner, TOPIC_ARN } from './support/sns-signer.ts';

/**
 * CloudWatch alarms through Amazon SNS into the app, both runtimes (issue 77 points 1 and 6): SNS
 * is played by an HTTPS server on 127.0.0.1 under the name sns.eu-west-1.amazonaws.com (a
 * certificate for it, a resolver and a transport that dial the local port, as provider hosts are
 * played), serving the signing certificate and answering the subscription's confirmation. The
 * subscription is confirmed by a visit through the egress guard; an alarm in ALARM takes the entity
 * down, OK brings it up; a message changed after signing is refused and stores nothing.
 */

const signer = createSnsSigner();

const alarm = (state: 'ALARM' | 'OK') =>
  JSON.stringify({
    AlarmName: 'orders-db-cpu',
    AlarmDescription: null,
    AWSAccountId: '123456789012',
    NewStateValue: state,
    NewStateReason: `Threshold Crossed: 1 datapoint was ${state === 'ALARM' ? 'greater' : 'not greater'} than the threshold (90.0).`,
    StateChangeTime: '2026-11-29T04:00:00.000+0000',
    Region: 'EU (Ireland)',
    AlarmArn: 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:orders-db-cpu',
    OldStateValue: state === 'ALARM' ? 'OK' : 'ALARM',
    Trigger: {
      MetricName: 'CPUUtilization',
      Namespace: 'AWS/RDS',
      Dimensions: [{ name: 'DBInstanceIdentifier', value: 'orders-db' }],
    },
  });

describe.each(bothRuntimes)('CloudWatch through SNS ($runtime)', ({ start }) => {
  let sns: ProviderServer;
  let api: ApiHarness;
  let token: string;
  const seen: string[] = [];

  /** SNS posts each message as text/plain, as it does. */
  const post = (message: unknown) =>
    api.request('POST', `/in/${token}`, {
      rawBody: JSON.stringify(message),
      headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
    });
  const state = async () => (await adminCall(api, 'GET', '/v1/blueprints/service/entities/orders-db')).state;

  beforeAll(async () => {
    sns = await startProviderServer((req) => {
      seen.push(`${req.method} ${req.path.split('&Token=')[0]}`);
      if (req.path.endsWith('.pem')) return { status: 200, text: signer.certificatePem };
      return { status: 200, text: '<ConfirmSubscriptionResponse/>' };
    });
    api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: sns.egress });
    await adminCall(api, 'POST', '/v1/blueprints', { slug: 'service', name: 'Service', fields: [] });
    await adminCall(api, 'POST', '/v1/blueprints/service/entities', {
      slug: 'orders-db',
      name: 'Orders DB',
      fields: {},
    });
    const made = await adminCall(api, 'POST', '/v1/integrations', {
      name: 'CloudWatch',
      kind: 'cloudwatch',
      entity_rules: [{ match: {}, entity: 'service/{{labels.DBInstanceIdentifier}}' }],
    });
    token = made.token;
  });
  afterAll(async () => {
    await api?.close();
    await sns?.close();
  });

  it('confirms the subscription by visiting its SubscribeURL, and remembers the topic', async () => {
    const res = await post(
      signer.envelope({
        Type: 'SubscriptionConfirmation',
        Message: 'You have chosen to subscribe to the topic',
        Token: '2336412f37fb687f5d51e6e2425c464de',
        SubscribeURL: `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}&Token=2336412f37fb687f5d51e6e2425c464de`,
      }),
    );
    expect(res.status, res.text).toBe(202);
    expect(seen).toContain(`GET /?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}`);
    expect(seen).toContain('GET /SimpleNotificationService-test.pem');
    const [integration] = (await adminCall(api, 'GET', '/v1/integrations')).integrations;
    expect(integration.sns_topic_arn).toBe(TOPIC_ARN);
  });

  it('takes the entity down on ALARM and up on OK, the alarm named as the reason', async () => {
    const fired = await post(signer.envelope({ Type: 'Notification', Message: alarm('ALARM') }, '2'));
    expect(fired.status, fired.text).toBe(202);
    await api.drainChanges();
    expect(await state()).toBe('down');
    const [open] = (await adminCall(api, 'GET', '/v1/outside-alerts?status=open')).alerts;
    expect(open).toMatchObject({
      dedup_key: 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:orders-db-cpu',
      severity: 'critical',
      summary: expect.stringMatching(/^orders-db-cpu: Threshold Crossed/),
    });
    const ok = await post(signer.envelope({ Type: 'Notification', Message: alarm('OK') }));
    expect(ok.status, ok.text).toBe(202);
    await api.drainChanges();
    expect(await state()).toBe('up');
  });

  it('refuses a message changed after signing, and stores nothing of it', async () => {
    const signed = signer.envelope({ Type: 'Notification', Message: alarm('OK') });
    const forged = await post({ ...signed, Message: alarm('ALARM') });
    expect(forged.status).toBe(401);
    await api.drainChanges();
    expect(await state()).toBe('up');
    expect((await adminCall(api, 'GET', '/v1/outside-alerts?status=open')).alerts).toEqual([]);
  });
});
