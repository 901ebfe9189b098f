import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowStatements, synthTemplate } from './synth.ts';

/**
 * SMS in the cloud (sms channels with provider sns): the functions that send (the notifier's
 * alerts, the api function's test sends) may call sns:Publish to phone numbers only. A Publish to
 * a number names no resource, so the grant excludes every SNS ARN instead (NotResource): no topic,
 * no platform endpoint. No other function may call sns: at all.
 */

const SENDERS = ['NotifyNotifier', 'ApiHandler'];
let template: Template;
let cleanup: () => void;

beforeAll(() => {
  ({ template, cleanup } = synthTemplate());
}, 120_000);
afterAll(() => cleanup());

const snsStatements = (statements: Record<string, unknown>[]) =>
  statements.filter((st) => [st.Action].flat().some((a) => typeof a === 'string' && a.startsWith('sns:')));

describe('SMS through Amazon SNS', () => {
  it.each(SENDERS)('%s may publish to phone numbers only, never to an SNS ARN', (prefix) => {
    expect(snsStatements(allowStatements(template, prefix))).toEqual([
      {
        Effect: 'Allow',
        Action: 'sns:Publish',
        NotResource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sns:*:*:*']] },
      },
    ]);
  });

  it('grants sns: actions to no other function', () => {
    const publishing = Object.entries(template.findResources('AWS::IAM::Policy'))
      .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('"sns:'))
      .map(([id]) => id);
    expect(publishing).toHaveLength(SENDERS.length);
    for (const prefix of SENDERS)
      expect(publishing.filter((id) => id.startsWith(`${prefix}RoleDefaultPolicy`))).toHaveLength(1);
  });
});
