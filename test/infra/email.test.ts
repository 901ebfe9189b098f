import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VigilStack } from '../../infra/vigil-stack.ts';
import { allowStatements, functionVariables, synthTemplate } from './synth.ts';

/**
 * Email in the cloud: with the vigil:emailFrom setting, the functions that send (the notifier's
 * alerts, the api function's test sends, the report e-mails) may call ses:SendEmail on the sender's identity only, its
 * address or its domain, and are told the sender (VIGIL_EMAIL_FROM); without it, no function may
 * send email at all.
 */

const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const SENDERS = ['NotifyNotifier', 'ApiHandler', 'ReportsSender'];

/** `arn:<partition>:ses:<region>:<account>:identity/<identity>`, as the template joins it. */
const identityArn = (identity: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:ses:${REGION}:${ACCOUNT}:identity/${identity}`]],
});

let withEmail: Template;
let plain: Template;
let cleanup: () => void;

function sesStatements(template: Template, prefix: string): Record<string, unknown>[] {
  return allowStatements(template, prefix).filter((st) =>
    [st.Action].flat().some((a) => typeof a === 'string' && a.startsWith('ses:')),
  );
}

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  withEmail = Template.fromStack(
    new VigilStack(app, 'Mailing', {
      env: { account: ACCOUNT, region: REGION },
      settings: { emailFrom: 'Vigil <alerts@mail.example.com>' },
    }),
  );
  ({ template: plain, cleanup } = synthTemplate());
}, 120_000);

afterAll(() => cleanup());

describe('email through SES', () => {
  it.each(SENDERS)('%s may send email only as the sender identity (address or domain)', (prefix) => {
    expect(sesStatements(withEmail, prefix)).toEqual([
      {
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: [identityArn('alerts@mail.example.com'), identityArn('mail.example.com')],
      },
    ]);
    expect(functionVariables(withEmail, prefix).VIGIL_EMAIL_FROM).toBe('Vigil <alerts@mail.example.com>');
  });

  it('grants ses: actions to no other function, and on no wildcard', () => {
    const policies = Object.entries(withEmail.findResources('AWS::IAM::Policy'));
    const mailing = policies
      .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes('"ses:'))
      .map(([id]) => id);
    for (const prefix of SENDERS)
      expect(mailing.filter((id) => id.startsWith(`${prefix}RoleDefaultPolicy`))).toHaveLength(1);
    expect(mailing).toHaveLength(SENDERS.length);
    for (const prefix of SENDERS) expect(JSON.stringify(sesStatements(withEmail, prefix))).not.toContain('*');
  });

  it('without vigil:emailFrom, no function may send email and none is told a sender', () => {
    for (const prefix of SENDERS) {
      expect(sesStatements(plain, prefix)).toEqual([]);
      expect(functionVariables(plain, prefix).VIGIL_EMAIL_FROM).toBeUndefined();
    }
  });

  it('refuses a sender that is not an email address at synth', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    expect(
      () => new VigilStack(app, 'Bad', { settings: { emailFrom: 'alerts@example.com\r\nBcc: x@y.z' } }),
    ).toThrow(/VIGIL_EMAIL_FROM/);
  });
});
