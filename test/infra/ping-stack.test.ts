import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_CONCURRENCY } from '../../infra/capacity.ts';
import { allowStatements, functionVariables, getAtt, only, synthTemplate } from './synth.ts';

/** The Pinging API's own ingress (infra/ping.ts, docs/aws.md "Ping URLs"). */

let template: Template;
let cleanup: () => void;
let tableId: string;

const PREFIX = 'PingHandler';

beforeAll(() => {
  ({ template, cleanup } = synthTemplate());
  [tableId] = only(template, 'AWS::DynamoDB::Table');
}, 120_000);

afterAll(() => cleanup());

describe('the ping function', () => {
  it('serves functions/ping.ts on a buffered function URL without IAM auth or CORS (the token is the credential)', () => {
    const [fnId, fn] = only(template, 'AWS::Lambda::Function', `${PREFIX}Function`);
    const [, url] = only(template, 'AWS::Lambda::Url', PREFIX);

    expect(fn.Properties.Handler).toBe('index.handler');
    expect(url.Properties).toEqual({
      AuthType: 'NONE',
      InvokeMode: 'BUFFERED',
      TargetFunctionArn: getAtt(fnId),
    });
    // Anyone may invoke it through its URL, and only through its URL.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      FunctionName: getAtt(fnId),
      FunctionUrlAuthType: 'NONE',
      Principal: '*',
    });
  });

  it('is bounded by its reserved concurrency in place of the stage throttle', () => {
    const [, fn] = only(template, 'AWS::Lambda::Function', `${PREFIX}Function`);
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(FIXED_CONCURRENCY.ping);
  });

  it('reads and writes the table, and may send to no queue, bus, SES or SNS', () => {
    expect(functionVariables(template, PREFIX)).toMatchObject({ VIGIL_TABLE_NAME: { Ref: tableId } });
    const actions = allowStatements(template, PREFIX).flatMap((st) => st.Action as string | string[]);
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
    );
    expect(actions.filter((a) => !/^(dynamodb|xray|logs):/.test(a))).toEqual([]);
  });

  it("gives the api function its URL (VIGIL_PING_URL: the ping URLs it shows) and outputs it as PingUrl, while the API's /ping/* routes stay", () => {
    const [urlId] = only(template, 'AWS::Lambda::Url', PREFIX);
    expect(functionVariables(template, 'ApiHandler').VIGIL_PING_URL).toEqual(getAtt(urlId, 'FunctionUrl'));
    expect(template.findOutputs('PingUrl')).toEqual({
      PingUrl: expect.objectContaining({ Value: getAtt(urlId, 'FunctionUrl') }),
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /ping/{token}' });
  });
});
