import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { only, synthTemplate } from '../infra/synth.ts';
import { DEPLOYED_QUEUES } from './fauxqs.ts';

/**
 * The queues the tests run on fauxqs are the deployed ones: DEPLOYED_QUEUES (test/support/fauxqs.ts)
 * is mirrored by hand from infra/ so that the flow tests need not load aws-cdk-lib; this keeps it true.
 */
let synth: ReturnType<typeof synthTemplate>;
beforeAll(() => {
  synth = synthTemplate();
}, 60_000);
afterAll(() => synth?.cleanup());

describe('the queue shapes of the SQS engine in tests', () => {
  it.each([
    ['probe', 'ChecksProbeQueue'],
    ['notify', 'NotifyQueue'],
    ['action', 'ActionsQueue'],
    ['browser', 'ChecksBrowserQueue'],
  ] as const)('%s mirrors %s: visibility timeout, redrive maxReceiveCount, batch size', (name, prefix) => {
    const { template } = synth;
    const [queueId, queue] = only(template, 'AWS::SQS::Queue', prefix);
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (m) =>
        JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }),
    );
    expect(mappings).toHaveLength(1);

    const deployed = {
      visibilityTimeoutSeconds: Number(queue.Properties.VisibilityTimeout),
      maxReceiveCount: (queue.Properties.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount,
      batchSize: mappings[0]?.Properties.BatchSize,
    };
    expect(DEPLOYED_QUEUES[name]).toEqual(deployed);
  });
});
