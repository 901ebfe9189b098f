import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTION_MAX_RECEIVE_COUNT, ACTION_WORKER_TIMEOUT } from '../../infra/actions.ts';
import { VigilStack } from '../../infra/vigil-stack.ts';
import { ACTION_LIMITS } from '../../lib/actions/items/action-items.ts';
import {
  expectBatchConsumer,
  expectConsumerRights,
  expectNodeBundle,
  getAtt,
  itDeploysJobQueue,
  only,
  stackTemplateForFile,
} from './synth.ts';

const stack = stackTemplateForFile();
const { fn, variables, actionsOfRole } = stack;

let queueId: string;
let dlqId: string;

const WORKER = 'ActionsWorker';
const STREAM = 'ChangeFeedHandler';
const GENERATOR = 'ChecksGenerator';
const API = 'ApiHandler';
const MCP = 'McpHandler';

beforeAll(() => {
  [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ActionsQueue');
  [dlqId] = only(stack.template, 'AWS::SQS::Queue', 'ActionsDlq');
}, 120_000);

describe('action queue', () => {
  itDeploysJobQueue(stack, {
    queue: 'ActionsQueue',
    dlq: 'ActionsDlq',
    maxReceiveCount: ACTION_MAX_RECEIVE_COUNT,
    consumer: WORKER,
    consumerTimeoutSeconds: ACTION_WORKER_TIMEOUT.toSeconds(),
    consumerName: 'action worker',
  });

  it("has its DLQ's URL as a stack output", () => {
    expect(stack.template.findOutputs('ActionDlqUrl')).toEqual({
      ActionDlqUrl: expect.objectContaining({ Value: { Ref: dlqId } }),
    });
  });
});

describe('action worker function', () => {
  it('runs functions/actions.ts as a Node.js ESM bundle on arm64 like the other functions', () => {
    expectNodeBundle(stack, WORKER);
  });

  it('outlasts the longest action call (15 s) of a batch with room for its writes', () => {
    const timeoutSeconds = Number(fn(WORKER)[1].Properties.Timeout);
    expect(timeoutSeconds * 1000).toBeGreaterThanOrEqual(ACTION_LIMITS.timeoutMs.max + 30_000);
  });

  it('consumes the action queue in batches of 10, reporting the records that failed, with a concurrency cap', () => {
    // A triggered action fires as soon as its job is visible: no batching window.
    expectBatchConsumer(stack, WORKER, queueId, {
      ScalingConfig: { MaximumConcurrency: expect.any(Number) },
    });
  });

  it('may read and write the table, consume the queue, change a message visibility and enqueue', () => {
    expectConsumerRights(stack, WORKER, queueId);
  });

  it('gets the table, the due shards and the action queue URL from its environment, and no other queue', () => {
    expect(variables(WORKER)).toMatchObject({
      VIGIL_TABLE_NAME: { Ref: stack.tableId },
      VIGIL_DUE_SHARDS: '4',
      VIGIL_ACTION_QUEUE_URL: { Ref: queueId },
    });
    expect(variables(WORKER).VIGIL_NOTIFY_QUEUE_URL).toBeUndefined();
    expect(variables(WORKER).VIGIL_PROBE_QUEUE_URL).toBeUndefined();
    expect(variables(WORKER).VIGIL_EVENT_BUS_NAME).toBeUndefined();
  });
});

describe('functions enqueueing action jobs', () => {
  it.each([
    ['stream function (state changes)', STREAM],
    ['generator (due schedule actions)', GENERATOR],
    ['api function (deadlines of manual runs)', API],
    ['mcp function (deadlines of runbook tool runs)', MCP],
  ])('the %s may send to the action queue, not receive from it, and is told its URL', (_name, prefix) => {
    expect(actionsOfRole(prefix, getAtt(queueId))).toContain('sqs:SendMessage');
    expect(actionsOfRole(prefix, getAtt(queueId))).not.toContain('sqs:ReceiveMessage');
    expect(actionsOfRole(prefix, getAtt(queueId))).not.toContain('sqs:ChangeMessageVisibility');
    expect(variables(prefix)).toMatchObject({ VIGIL_ACTION_QUEUE_URL: { Ref: queueId } });
  });

  it('are only those four and the action worker', () => {
    const senders = Object.entries(stack.template.findResources('AWS::IAM::Policy'))
      .filter(([, policy]) =>
        (policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]).some(
          (st) =>
            [st.Action].flat().includes('sqs:SendMessage') &&
            JSON.stringify([st.Resource].flat()).includes(JSON.stringify(getAtt(queueId))),
        ),
      )
      .map(([id]) => id.replace(/RoleDefaultPolicy.*$/, ''));
    expect(senders.sort()).toEqual([API, MCP, STREAM, GENERATOR, WORKER].sort());
  });
});

describe('egress settings', () => {
  it('reach the action worker and the api function as VIGIL_EGRESS_ALLOW and VIGIL_PUBLIC_URL', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new VigilStack(app, 'Configured', {
      settings: { publicUrl: 'https://vigil.example.com', egressAllow: '10.0.0.0/8,fd00::/8' },
    });
    const configured = Template.fromStack(stack);
    const envOf = (prefix: string) => {
      const [[, resource] = []] = Object.entries(configured.findResources('AWS::Lambda::Function')).filter(
        ([id]) => id.startsWith(`${prefix}Function`),
      );
      const environment = resource?.Properties.Environment as
        | { Variables: Record<string, unknown> }
        | undefined;
      if (!environment) throw new Error(`no function ${prefix}Function with an environment`);
      return environment.Variables;
    };
    const settings = {
      VIGIL_PUBLIC_URL: 'https://vigil.example.com',
      VIGIL_EGRESS_ALLOW: '10.0.0.0/8,fd00::/8',
    };
    expect(envOf(WORKER)).toMatchObject(settings);
    expect(envOf(API)).toMatchObject(settings);
    // The generator only enqueues runs; the calls leave from the worker.
    expect(envOf(GENERATOR).VIGIL_EGRESS_ALLOW).toBeUndefined();
  }, 120_000);
});
