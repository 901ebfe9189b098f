import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VigilStack } from '../../infra/vigil-stack.ts';
import { OUTAGE_RETRIES } from '../../lib/platform/job-queue.ts';

const root = join(import.meta.dirname, '..', '..');

export interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}

/**
 * The stack's template with the same feature flags as `cdk synth`, so it is the template the CLI
 * deploys. Bundling is skipped (no stack selected for it); synth-cli.test.ts checks the bundles.
 */
export function synthTemplate(): { template: Template; cleanup(): void } {
  const outdir = mkdtempSync(join(tmpdir(), 'vigil-cdk-'));
  const template = Template.fromStack(new VigilStack(cdkApp(outdir), 'Vigil'));
  return { template, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
}

/**
 * The stack's template serving a stand-in console build (an index.html alone, written to
 * `work`/dist, so no `npm run build:web` is needed), synthesized to `work`/cdk.
 */
export function synthWithStandInConsole(work: string): Template {
  const consoleDir = join(work, 'dist');
  mkdirSync(consoleDir, { recursive: true });
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Vigil</title>');
  return Template.fromStack(new VigilStack(cdkApp(join(work, 'cdk')), 'Vigil', { consoleDir }));
}

/** A CDK app with cdk.json's feature flags (as `cdk synth` has them) writing to `outdir`, bundling no stack. */
export function cdkApp(outdir: string): App {
  const { context } = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { context: object };
  return new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
}

/** The stack's template and what a file's tests read from it, bound to that template. */
export interface StackTemplate {
  readonly template: Template;
  /** The logical id of the stack's one table. */
  readonly tableId: string;
  /** The only Lambda function whose construct id starts with `prefix`, with its logical id. */
  fn(prefix: string): [string, Resource];
  /** The environment variables of that function. */
  variables(prefix: string): Record<string, unknown>;
  /** Actions that function's role may take on a resource. */
  actionsOfRole(prefix: string, resource: unknown): string[];
}

/**
 * The stack's template (synthTemplate) for a file's tests: synthesized before them, its directory
 * removed after them. Reading it before the file's beforeAll has run throws.
 */
export function stackTemplateForFile(): StackTemplate {
  let synthesized: ReturnType<typeof synthTemplate> | undefined;
  beforeAll(() => {
    synthesized = synthTemplate();
  }, 120_000);
  afterAll(() => synthesized?.cleanup());
  const template = (): Template => {
    if (!synthesized) throw new Error('the template is read before its beforeAll synthesized it');
    return synthesized.template;
  };
  return {
    get template() {
      return template();
    },
    get tableId() {
      return only(template(), 'AWS::DynamoDB::Table')[0];
    },
    fn: (prefix) => lambdaFunction(template(), prefix),
    variables: (prefix) => functionVariables(template(), prefix),
    actionsOfRole: (prefix, resource) => actionsOn(template(), prefix, resource),
  };
}

/** cdk-nag's findings in the validation report an app wrote to `outdir`: `<construct path> <rule>` (none without a report). */
export function nagFindings(outdir: string): string[] {
  const reportFile = join(outdir, 'validation-report.json');
  if (!existsSync(reportFile)) return [];
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
  };
  return report.pluginReports.flatMap((p) =>
    p.violations.flatMap((v) => v.violatingConstructs.map((c) => `${c.constructPath} ${v.ruleName}`)),
  );
}

/**
 * Environment for a credential-free, offline CDK CLI run: no AWS variables or profiles (so no STS
 * call), no instance metadata lookup, no telemetry and no version check; `workdir` holds the
 * (absent) credentials and config files.
 */
export function offlineCdkEnv(workdir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('AWS_') && !name.startsWith('CDK_')) env[name] = value;
  return {
    ...env,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SHARED_CREDENTIALS_FILE: join(workdir, 'no-credentials'),
    AWS_CONFIG_FILE: join(workdir, 'no-config'),
    CDK_DISABLE_VERSION_CHECK: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
  };
}

/** The only resource of `type` whose logical id starts with `prefix` ("" = any), with its id. */
export function only(template: Template, type: string, prefix = ''): [string, Resource] {
  const entries = Object.entries(template.findResources(type)).filter(([id]) => id.startsWith(prefix));
  expect(entries, `${type} ${prefix}*`).toHaveLength(1);
  const [entry] = entries;
  if (!entry) throw new Error(`no ${type} ${prefix}*`);
  return entry as [string, Resource];
}

/** The Allow statements of a function's default policy (by the function construct's id prefix). */
export function allowStatements(template: Template, prefix: string): Record<string, unknown>[] {
  const [, policy] = only(template, 'AWS::IAM::Policy', `${prefix}RoleDefaultPolicy`);
  const { Statement } = policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] };
  return Statement.filter((st) => st.Effect === 'Allow');
}

/** `{"Fn::GetAtt": [id, attr]}`: how the template refers to a resource's attribute. */
export const getAtt = (id: string, attr = 'Arn') => ({ 'Fn::GetAtt': [id, attr] });

/** The only Lambda function whose construct id starts with `prefix`, with its logical id. */
export function lambdaFunction(template: Template, prefix: string): [string, Resource] {
  return only(template, 'AWS::Lambda::Function', `${prefix}Function`);
}

/** The environment variables of that function. */
export function functionVariables(template: Template, prefix: string): Record<string, unknown> {
  const [, fn] = lambdaFunction(template, prefix);
  return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** Actions a function's role may take on a resource (compared structurally, alone or in a statement's list). */
function actionsOn(template: Template, prefix: string, resource: unknown): string[] {
  const same = (r: unknown) => JSON.stringify(r) === JSON.stringify(resource);
  return allowStatements(template, prefix)
    .filter((st) => same(st.Resource) || (Array.isArray(st.Resource) && st.Resource.some(same)))
    .flatMap((st) => st.Action as string | string[]);
}

/** The table, as IAM statements name it (its indexes get Query alone, by name: infra/table.ts). */
export const tableResources = (tableId: string) => getAtt(tableId);

/** A bucket's properties that keep it private (all public access blocked) and encrypted (SSE-S3). */
export const PRIVATE_ENCRYPTED_BUCKET = {
  PublicAccessBlockConfiguration: {
    BlockPublicAcls: true,
    BlockPublicPolicy: true,
    IgnorePublicAcls: true,
    RestrictPublicBuckets: true,
  },
  BucketEncryption: {
    ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
  },
};

/** The queue's policy denies every SQS action to a request without TLS. */
export function expectTlsOnly(template: Template, queueId: string): void {
  template.hasResourceProperties('AWS::SQS::QueuePolicy', {
    Queues: [{ Ref: queueId }],
    PolicyDocument: {
      Statement: [
        { Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } },
      ],
    },
  });
}

/**
 * The function `fnId` is served on a function URL (the one of `prefix`) in RESPONSE_STREAM mode,
 * authorised by the app (AuthType NONE, with the resource policy that lets anyone invoke the URL),
 * without CORS: browsers reach it only through the console's own origin.
 */
export function expectStreamingUrl(template: Template, prefix: string, fnId: string): void {
  const [, url] = only(template, 'AWS::Lambda::Url', prefix);
  expect(url.Properties).toMatchObject({
    TargetFunctionArn: getAtt(fnId),
    InvokeMode: 'RESPONSE_STREAM',
    AuthType: 'NONE',
  });
  expect(url.Properties.Cors).toBeUndefined();
  template.hasResourceProperties('AWS::Lambda::Permission', {
    Action: 'lambda:InvokeFunctionUrl',
    FunctionName: getAtt(fnId),
    Principal: '*',
    FunctionUrlAuthType: 'NONE',
  });
}

/** The function of `prefix` is a Node.js (22 or later) ESM bundle on arm64, like the other functions. */
export function expectNodeBundle(stack: StackTemplate, prefix: string): void {
  const [, fn] = stack.fn(prefix);
  expect(fn.Properties).toMatchObject({ Handler: 'index.handler', Architectures: ['arm64'] });
  expect(fn.Properties.Runtime).toMatch(/^nodejs(2[2-9]|[3-9]\d)\.x$/);
}

export interface JobQueueDeployment {
  /** The queue's and its DLQ's id prefixes. */
  queue: string;
  dlq: string;
  /** The maxReceiveCount the queue's construct declares. */
  maxReceiveCount: number;
  /** The consuming function's prefix, its timeout, and its name in the test titles. */
  consumer: string;
  consumerTimeoutSeconds: number;
  consumerName: string;
}

/**
 * The tests every job queue passes: it redrives to its encrypted DLQ after 23 receives (a 15-minute
 * store outage outlasted) and the DLQ keeps messages 14 days, longer than the queue; its consumer
 * times out as declared and the queue hides a received message for six of those; both queues refuse
 * requests without TLS.
 */
export function itDeploysJobQueue(stack: StackTemplate, q: JobQueueDeployment): void {
  it('redrives to an encrypted DLQ after 23 receives (a 15-minute store outage outlasted), and the DLQ keeps messages 14 days', () => {
    expect(q.maxReceiveCount).toBe(OUTAGE_RETRIES.maxAttempts);
    const [dlqId, dlq] = only(stack.template, 'AWS::SQS::Queue', q.dlq);
    const [, queue] = only(stack.template, 'AWS::SQS::Queue', q.queue);
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(dlqId),
      maxReceiveCount: 23,
    });
    expect(dlq.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(Number(queue.Properties.MessageRetentionPeriod)).toBeLessThan(14 * 86_400);
  });

  it(`hides a received message for at least six ${q.consumerName} timeouts`, () => {
    const [, queue] = only(stack.template, 'AWS::SQS::Queue', q.queue);
    const timeout = Number(stack.fn(q.consumer)[1].Properties.Timeout);
    expect(timeout).toBe(q.consumerTimeoutSeconds);
    expect(Number(queue.Properties.VisibilityTimeout)).toBeGreaterThanOrEqual(6 * timeout);
  });

  it('refuses requests without TLS, on the queue and its DLQ', () => {
    for (const prefix of [q.queue, q.dlq]) {
      expectTlsOnly(stack.template, only(stack.template, 'AWS::SQS::Queue', prefix)[0]);
    }
  });
}

/**
 * The consumer of `prefix` takes the queue `queueId` in batches of 10, reporting the records that
 * failed, with no batching window (a job leaves as soon as it is visible), and as `more` says.
 */
export function expectBatchConsumer(
  stack: StackTemplate,
  prefix: string,
  queueId: string,
  more: Record<string, unknown> = {},
): void {
  const [fnId] = stack.fn(prefix);
  const [, mapping] = only(stack.template, 'AWS::Lambda::EventSourceMapping', `${prefix}Function`);
  expect(mapping.Properties).toMatchObject({
    EventSourceArn: getAtt(queueId),
    FunctionName: { Ref: fnId },
    BatchSize: 10,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
    ...more,
  });
  expect(mapping.Properties.MaximumBatchingWindowInSeconds).toBeUndefined();
}

/** The consumer of `prefix` may read and write the table, consume its queue, change a message visibility and enqueue. */
export function expectConsumerRights(stack: StackTemplate, prefix: string, queueId: string): void {
  expect(stack.actionsOfRole(prefix, tableResources(stack.tableId))).toEqual(
    expect.arrayContaining(
      ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'].map(
        (a) => `dynamodb:${a}`,
      ),
    ),
  );
  expect(stack.actionsOfRole(prefix, getAtt(queueId))).toEqual(
    expect.arrayContaining([
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
      'sqs:ChangeMessageVisibility',
      'sqs:GetQueueAttributes',
      'sqs:SendMessage',
    ]),
  );
}
