import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { VigilStack } from '../../infra/vigil-stack.ts';
import { MCP_FUNCTION_TIMEOUT_MS, MCP_SSE_FUNCTION_MS } from '../../lib/cloud/http-composition.ts';
import {
  allowStatements,
  expectNodeBundle,
  expectStreamingUrl,
  getAtt,
  only,
  stackTemplateForFile,
} from './synth.ts';

const stack = stackTemplateForFile();

const PREFIX = 'McpHandler';
const fn = () => stack.fn(PREFIX);
const variables = () => stack.variables(PREFIX);

describe('mcp function', () => {
  it('serves functions/mcp.ts on a function URL in RESPONSE_STREAM mode, authorised by the app', () => {
    const [fnId] = fn();
    expectStreamingUrl(stack.template, PREFIX, fnId);
  });

  it('runs as an ESM bundle on arm64 like the other functions', () => {
    expectNodeBundle(stack, PREFIX);
  });

  it("times out at Lambda's limit, 30 s after a legacy SSE stream has ended on its own", () => {
    const [, mcp] = fn();
    expect(mcp.Properties.Timeout).toBe(MCP_FUNCTION_TIMEOUT_MS / 1000);
    expect(mcp.Properties.Timeout).toBeLessThanOrEqual(900);
    expect(MCP_FUNCTION_TIMEOUT_MS - MCP_SSE_FUNCTION_MS).toBe(30_000);
  });

  it('may read and write the table and its indexes (catalog tools, create_check, the legacy relay)', () => {
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
  });

  it('gets the table, the action queue (runbook tools), the notify queue (acknowledge_incident) and the probe queue (first probes, run_check) from its environment', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ActionsQueue');
    expect(variables()).toMatchObject({
      VIGIL_TABLE_NAME: { Ref: stack.tableId },
      VIGIL_DUE_SHARDS: '4',
      VIGIL_ACTION_QUEUE_URL: { Ref: queueId },
    });
    // The probe queue takes create_check's and run_check's one-off probes.
    const [probeQueueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    expect(variables().VIGIL_PROBE_QUEUE_URL).toEqual({ Ref: probeQueueId });
    expect(variables().VIGIL_EVENT_BUS_NAME).toBeUndefined();
    const onQueue = allowStatements(stack.template, PREFIX)
      // One statement may name both queues (the same actions on each).
      .filter((st) => [st.Resource].flat().some((r) => JSON.stringify(r) === JSON.stringify(getAtt(queueId))))
      .flatMap((st) => st.Action as string | string[]);
    expect(onQueue).toContain('sqs:SendMessage');
    expect(onQueue).not.toContain('sqs:ReceiveMessage');
  });

  it('gets the egress settings (runbook tools call out like actions)', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const configured = Template.fromStack(
      new VigilStack(app, 'Configured', {
        settings: {
          publicUrl: 'https://vigil.example.com',
          egressAllow: '10.0.0.0/8',
          allowedHosts: 'mcp.example.com,status.example.com',
        },
      }),
    );
    const [[, resource] = []] = Object.entries(configured.findResources('AWS::Lambda::Function')).filter(
      ([id]) => id.startsWith(`${PREFIX}Function`),
    );
    expect(resource?.Properties.Environment.Variables).toMatchObject({
      VIGIL_PUBLIC_URL: 'https://vigil.example.com',
      VIGIL_EGRESS_ALLOW: '10.0.0.0/8',
      VIGIL_ALLOWED_HOSTS: 'mcp.example.com,status.example.com',
    });
  });

  it('outputs the MCP endpoint on the function URL as McpUrl', () => {
    const [urlId] = only(stack.template, 'AWS::Lambda::Url', PREFIX);
    expect(stack.template.findOutputs('McpUrl')).toEqual({
      McpUrl: expect.objectContaining({
        Value: { 'Fn::Join': ['', [getAtt(urlId, 'FunctionUrl'), 'v1/mcp']] },
      }),
    });
  });
});
