import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFIER_TIMEOUT, NOTIFY_MAX_RECEIVE_COUNT } from '../../infra/notifications.ts';
import { settingsEnvironment, VigilStack } from '../../infra/vigil-stack.ts';
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
const { variables, actionsOfRole } = stack;

let queueId: string;
let busId: string;

const NOTIFIER = 'NotifyNotifier';
const STREAM = 'ChangeFeedHandler';
const API = 'ApiHandler';

beforeAll(() => {
  [queueId] = only(stack.template, 'AWS::SQS::Queue', 'NotifyQueue');
  [busId] = only(stack.template, 'AWS::Events::EventBus');
}, 120_000);

describe('notify queue', () => {
  itDeploysJobQueue(stack, {
    queue: 'NotifyQueue',
    dlq: 'NotifyDlq',
    maxReceiveCount: NOTIFY_MAX_RECEIVE_COUNT,
    consumer: NOTIFIER,
    consumerTimeoutSeconds: NOTIFIER_TIMEOUT.toSeconds(),
    consumerName: 'notifier',
  });
});

describe('notifier function', () => {
  it('runs as a Node.js ESM bundle on arm64 like the other functions', () => {
    expectNodeBundle(stack, NOTIFIER);
  });

  it('consumes the notify queue in batches of 10, reporting the records that failed', () => {
    // An alert leaves as soon as its job is visible: no batching window.
    expectBatchConsumer(stack, NOTIFIER, queueId);
  });

  it('may read and write the table, consume the queue, change a message visibility and enqueue', () => {
    expectConsumerRights(stack, NOTIFIER, queueId);
  });

  it('gets the table, the due shards and the notify queue URL from its environment, and no bus', () => {
    expect(variables(NOTIFIER)).toMatchObject({
      VIGIL_TABLE_NAME: { Ref: stack.tableId },
      VIGIL_DUE_SHARDS: '4',
      VIGIL_NOTIFY_QUEUE_URL: { Ref: queueId },
    });
    expect(variables(NOTIFIER).VIGIL_EVENT_BUS_NAME).toBeUndefined();
  });
});

describe('stream function', () => {
  it('may enqueue on the notify queue and put events on the bus, and is told both', () => {
    expect(actionsOfRole(STREAM, getAtt(queueId))).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(actionsOfRole(STREAM, getAtt(queueId))).not.toContain('sqs:ReceiveMessage');
    expect(actionsOfRole(STREAM, getAtt(busId))).toEqual(['events:PutEvents']);
    expect(variables(STREAM)).toMatchObject({
      VIGIL_NOTIFY_QUEUE_URL: { Ref: queueId },
      VIGIL_EVENT_BUS_NAME: { Ref: busId },
    });
  });
});

describe('api function', () => {
  it('may enqueue on the notify queue (a retry asked through the API), and nothing more of it', () => {
    expect(actionsOfRole(API, getAtt(queueId))).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(actionsOfRole(API, getAtt(queueId))).not.toContain('sqs:ReceiveMessage');
    expect(actionsOfRole(API, getAtt(busId))).toEqual([]);
    expect(variables(API)).toMatchObject({ VIGIL_NOTIFY_QUEUE_URL: { Ref: queueId } });
  });
});

describe('mcp function', () => {
  it('may enqueue on the notify queue (an incident acknowledged through acknowledge_incident), and nothing more of it', () => {
    expect(actionsOfRole('McpHandler', getAtt(queueId))).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(actionsOfRole('McpHandler', getAtt(queueId))).not.toContain('sqs:ReceiveMessage');
    expect(variables('McpHandler')).toMatchObject({ VIGIL_NOTIFY_QUEUE_URL: { Ref: queueId } });
  });
});

describe('event bus', () => {
  it('is a custom bus named after the stack, whose name is a stack output', () => {
    const [, bus] = only(stack.template, 'AWS::Events::EventBus');
    expect(bus.Properties.Name).toBe('Vigil-events');
    stack.template.hasOutput('EventBusName', { Value: { Ref: busId } });
    stack.template.hasOutput('NotifyDlqUrl', {});
  });

  it('is the only place a function may put events', () => {
    const puts = Object.values(stack.template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]).filter((st) =>
        [st.Action].flat().includes('events:PutEvents'),
      ),
    );
    expect(puts.map((st) => st.Resource)).toEqual([getAtt(busId)]);
  });
});

describe('channel settings', () => {
  it('reach the api and notifier functions as VIGIL_NATS_URL, VIGIL_NATS_PREFIX, VIGIL_PUBLIC_URL and VIGIL_EGRESS_ALLOW, and no other function', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new VigilStack(app, 'Configured', {
      settings: {
        natsUrl: 'nats://nats.internal:4222',
        natsPrefix: 'acme.vigil',
        publicUrl: 'https://vigil.example.com',
        egressAllow: '10.0.0.0/8',
      },
    });
    const configured = Template.fromStack(stack);
    const settings = {
      VIGIL_NATS_URL: 'nats://nats.internal:4222',
      VIGIL_NATS_PREFIX: 'acme.vigil',
      VIGIL_PUBLIC_URL: 'https://vigil.example.com',
      VIGIL_EGRESS_ALLOW: '10.0.0.0/8',
    };
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
    expect(envOf(API)).toMatchObject(settings);
    expect(envOf(NOTIFIER)).toMatchObject(settings);
    expect(envOf('ChecksWorker').VIGIL_NATS_URL).toBeUndefined();
    expect(envOf('ChecksWorker').VIGIL_NATS_PREFIX).toBeUndefined();
  }, 120_000);

  it('are left out when unset, and a malformed one fails the synth', () => {
    expect(settingsEnvironment({})).toEqual({});
    expect(variables(API).VIGIL_NATS_URL).toBeUndefined();
    expect(() => settingsEnvironment({ natsUrl: 'http://nats:4222' })).toThrow(/VIGIL_NATS_URL/);
    for (const natsPrefix of ['$JS', '_INBOX.vigil', 'vigil.*', 'vigil.>', 'vigil..x'])
      expect(() => settingsEnvironment({ natsPrefix })).toThrow(/VIGIL_NATS_PREFIX/);
    expect(() => settingsEnvironment({ egressAllow: '10.0.0.0/33' })).toThrow(/VIGIL_EGRESS_ALLOW/);
  });
});
