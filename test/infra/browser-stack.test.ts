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

/** Every Allow statement of every policy on the browser function's role, inline or attached. */
function roleStatements(): { Action: string | string[]; Resource: unknown }[] {
  const [, fn] = stack.fn(BROWSER);
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
