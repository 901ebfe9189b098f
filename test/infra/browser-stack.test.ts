import { describe, expect, it } from 'vitest';
import { FIXED_CONCURRENCY } from '../../infra/capacity.ts';
import { BROWSER_FUNCTION_MEMORY_MB } from '../../lib/cloud/browser-function.ts';
import { DEFAULT_MAX_ATTEMPTS } from '../../lib/platform/job-queue.ts';
import { expectTlsOnly, getAtt, only, stackTemplateForFile } from './synth.ts';

/**
 * The browser leg of the checks engine (infra/browser.ts): the browser function, its queue and DLQ,
 * and a role that reaches no table: it receives browser jobs, sends results to the probe queue and
 * puts screenshots in the artifacts bucket, nothing else. The worker may send to the browser queue and knows its URL.
 */
const stack = stackTemplateForFile();
const BROWSER = 'ChecksBrowserHandler';
const DRAFT = 'ChecksBrowserDraft';
const API = 'ApiHandler';

/** Every Allow statement of every policy on a function's role (the browser function's), inline or attached. */
function roleStatements(functionId = BROWSER): { Action: string | string[]; Resource: unknown }[] {
  const [, fn] = stack.fn(functionId);
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const [, role] = only(stack.template, 'AWS::IAM::Role', roleId);
  expect(role.Properties.ManagedPolicyArns ?? []).toEqual([]);
  const inline = (role.Properties.Policies ?? []) as { PolicyDocument: { Statement: unknown[] } }[];
  const attached = Object.values(stack.template.findResources('AWS::IAM::Policy')).filter((p) =>
    JSON.stringify(p.Properties?.Roles ?? []).includes(`"${roleId}"`),
  );
  return [...inline.map((p) => p.PolicyDocument), ...attached.map((p) => p.Properties.PolicyDocument)]
    .flatMap(
      (doc) =>
        (doc as { Statement: { Effect: string; Action: string | string[]; Resource: unknown }[] }).Statement,
    )
    .filter((st) => st.Effect === 'Allow');
}

const actionsOf = (statements: { Action: string | string[] }[]) => statements.flatMap((st) => st.Action);

describe('browser function', () => {
  it('runs functions/browser.ts on x86_64 Node 24 with its memory, a timeout past the 60 s run bound and a concurrency cap', () => {
    const [, fn] = stack.fn(BROWSER);

    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['x86_64'],
      MemorySize: BROWSER_FUNCTION_MEMORY_MB,
      ReservedConcurrentExecutions: FIXED_CONCURRENCY.browser,
    });
    expect(Number(fn.Properties.Timeout)).toBeGreaterThan(60);
  });

  it('has a role with no table access: it receives from its queue, sends to the probe queue and puts artifacts only', () => {
    const [browserQueueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksBrowserQueue');
    const [probeQueueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksProbeQueue');
    const statements = roleStatements();
    const actions = actionsOf(statements);

    expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    expect(JSON.stringify(statements)).not.toContain(stack.tableId);
    expect(new Set(actions.map((a) => a.split(':')[0]))).toEqual(new Set(['logs', 'sqs', 's3']));
    // Its screenshots and traces go to the artifacts bucket (infra/artifacts.ts): put with their
    // retention tag, never read, list or delete.
    expect(actions.filter((a) => a.startsWith('s3:'))).toEqual(['s3:PutObject', 's3:PutObjectTagging']);
    expect(stack.actionsOfRole(BROWSER, getAtt(probeQueueId))).toEqual(
      expect.arrayContaining(['sqs:SendMessage']),
    );
    expect(stack.actionsOfRole(BROWSER, getAtt(probeQueueId))).not.toContain('sqs:ReceiveMessage');
    expect(stack.actionsOfRole(BROWSER, getAtt(browserQueueId))).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage']),
    );
    expect(stack.variables(BROWSER)).toEqual(
      expect.objectContaining({
        VIGIL_BROWSER_QUEUE_URL: { Ref: browserQueueId },
        VIGIL_PROBE_QUEUE_URL: { Ref: probeQueueId },
      }),
    );
    expect(Object.keys(stack.variables(BROWSER))).not.toContain('VIGIL_TABLE_NAME');
  });

  it('consumes its queue one job at a time, reporting failures, capped at its concurrency', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksBrowserQueue');
    stack.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: getAtt(queueId),
      FunctionName: { Ref: stack.fn(BROWSER)[0] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: FIXED_CONCURRENCY.browser },
    });
  });
});

describe('draft browser function', () => {
  it('runs a region browser function’s code on x86_64 with its memory, a timeout past the api’s 25 s invoke and a concurrency cap', () => {
    const [, fn] = stack.fn(DRAFT);

    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['x86_64'],
      MemorySize: BROWSER_FUNCTION_MEMORY_MB,
      ReservedConcurrentExecutions: FIXED_CONCURRENCY.draftBrowser,
    });
    expect(Number(fn.Properties.Timeout)).toBeGreaterThan(25);
    // Under API Gateway's 29 s, so that no run goes on long after the api function gave up on it.
    expect(Number(fn.Properties.Timeout)).toBeLessThanOrEqual(30);
  });

  it('has a role that reaches nothing (it only logs), is invoked by nothing but the api function, which knows its name', () => {
    const [draftId] = stack.fn(DRAFT);

    expect(new Set(actionsOf(roleStatements(DRAFT)).map((a) => a.split(':')[0]))).toEqual(new Set(['logs']));
    expect(stack.variables(DRAFT)).not.toHaveProperty('VIGIL_TABLE_NAME');
    expect(stack.actionsOfRole(API, getAtt(draftId))).toEqual(['lambda:InvokeFunction']);
    expect(stack.variables(API)).toMatchObject({ VIGIL_DRAFT_BROWSER_FUNCTION: { Ref: draftId } });
    const invokers = Object.values(stack.template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties?.PolicyDocument).includes(`"${draftId}"`),
    );
    expect(invokers).toHaveLength(1);
    expect(
      stack.template.findResources('AWS::Lambda::EventSourceMapping', {
        Properties: { FunctionName: { Ref: draftId } },
      }),
    ).toEqual({});
  });
});

describe('browser queue', () => {
  it('redrives to an encrypted DLQ after the job queue attempts, hides a message past six timeouts, and refuses plain HTTP', () => {
    const [dlqId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksBrowserDlq');
    const [queueId, queue] = only(stack.template, 'AWS::SQS::Queue', 'ChecksBrowserQueue');
    const [, fn] = stack.fn(BROWSER);

    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(dlqId),
      maxReceiveCount: DEFAULT_MAX_ATTEMPTS,
    });
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(Number(queue.Properties.VisibilityTimeout)).toBeGreaterThanOrEqual(
      6 * Number(fn.Properties.Timeout),
    );
    expectTlsOnly(stack.template, queueId);
  });

  it('takes messages from the worker, which knows its URL', () => {
    const [queueId] = only(stack.template, 'AWS::SQS::Queue', 'ChecksBrowserQueue');

    expect(stack.actionsOfRole('ChecksWorker', getAtt(queueId))).toEqual(
      expect.arrayContaining(['sqs:SendMessage']),
    );
    expect(stack.variables('ChecksWorker')).toEqual(
      expect.objectContaining({ VIGIL_BROWSER_QUEUE_URL: { Ref: queueId } }),
    );
  });
});
