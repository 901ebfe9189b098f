import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CONFIG_FUNCTION_TIMEOUT_MS } from '../../infra/config-docs.ts';
import { VigilStack } from '../../infra/vigil-stack.ts';
import {
  allowStatements,
  expectStreamingUrl,
  functionVariables,
  getAtt,
  lambdaFunction,
  only,
  stackTemplateForFile,
} from './synth.ts';

const stack = stackTemplateForFile();

const PREFIX = 'ConfigHandler';
const fn = () => stack.fn(PREFIX);
const variables = () => stack.variables(PREFIX);

describe('configuration function', () => {
  it('serves functions/config.ts on a function URL in RESPONSE_STREAM mode, authorised by the app', () => {
    const [fnId] = fn();
    expectStreamingUrl(stack.template, PREFIX, fnId);
  });

  it("runs far past API Gateway's 29 s, up to Lambda's limit, as an ESM bundle on arm64", () => {
    const [, config] = fn();
    expect(config.Properties).toMatchObject({ Handler: 'index.handler', Architectures: ['arm64'] });
    expect(config.Properties.Timeout).toBe(CONFIG_FUNCTION_TIMEOUT_MS / 1000);
    expect(config.Properties.Timeout).toBeGreaterThanOrEqual(300);
    expect(config.Properties.Timeout).toBeLessThanOrEqual(900);
    // The api function behind API Gateway keeps its 29 s.
    expect(lambdaFunction(stack.template, 'ApiHandler')[1].Properties.Timeout).toBe(29);
  });

  it('may read and write the table and its indexes (the routes an apply calls)', () => {
    const onTable = allowStatements(stack.template, PREFIX)
      .filter((st) => JSON.stringify(st.Resource).includes(stack.tableId))
      .flatMap((st) => st.Action as string | string[]);
    expect(onTable).toEqual(
      expect.arrayContaining(
        ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'].map(
          (a) => `dynamodb:${a}`,
        ),
      ),
    );
    expect(variables()).toMatchObject({ VIGIL_TABLE_NAME: { Ref: stack.tableId }, VIGIL_DUE_SHARDS: '4' });
  });

  it('may send only to the probe queue (first probes of the checks it writes): no other queue, bus, SES or SNS', () => {
    const [probeQueueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    const statements = allowStatements(stack.template, PREFIX);
    const actions = statements.flatMap((st) => [st.Action].flat() as string[]);
    expect(actions.filter((a) => /^(events|ses|sns):/.test(a))).toEqual([]);
    const onQueues = statements.filter((st) => [st.Action].flat().some((a) => String(a).startsWith('sqs:')));
    expect(onQueues.length).toBeGreaterThan(0);
    for (const st of onQueues) expect(JSON.stringify(st.Resource)).toContain(probeQueueId);
    expect(variables().VIGIL_PROBE_QUEUE_URL).toEqual({ Ref: probeQueueId });
    for (const name of ['VIGIL_NOTIFY_QUEUE_URL', 'VIGIL_ACTION_QUEUE_URL'])
      expect(variables()[name], name).toBeUndefined();
  });

  it("gets the edge's proof and the egress settings (channel URLs are checked as they are saved)", () => {
    expect(variables().VIGIL_EDGE_SECRET).toEqual(
      functionVariables(stack.template, 'ApiHandler').VIGIL_EDGE_SECRET,
    );
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const configured = Template.fromStack(
      new VigilStack(app, 'Configured', {
        settings: { publicUrl: 'https://vigil.example.com', egressAllow: '10.0.0.0/8' },
      }),
    );
    expect(functionVariables(configured, PREFIX)).toMatchObject({
      VIGIL_PUBLIC_URL: 'https://vigil.example.com',
      VIGIL_EGRESS_ALLOW: '10.0.0.0/8',
    });
  });

  it('outputs the function URL as ConfigUrl', () => {
    const [urlId] = only(stack.template, 'AWS::Lambda::Url', PREFIX);
    expect(stack.template.findOutputs('ConfigUrl')).toEqual({
      ConfigUrl: expect.objectContaining({ Value: getAtt(urlId, 'FunctionUrl') }),
    });
  });
});
