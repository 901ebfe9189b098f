import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createStreamHandler } from '../../functions/stream.ts';
import { createPowertoolsLogger } from '../../lib/cloud/edge/lambda-edge.ts';
import type { Change, ChangeConsumer } from '../../lib/store/change-feed.ts';
import { lambdaContext } from './support.ts';

/**
 * Issue 58: the stream function hands the consumers that only enqueue jobs (notify, actions) the
 * whole batch at once, and the others record by record, as before.
 */

let sequence = 0;
function transitionRecord(entityId: string, sk: string, eventName = 'INSERT'): DynamoDBRecord {
  sequence += 1;
  const keys = { pk: { S: 'TRN#tnt_1#03' }, sk: { S: sk } };
  return {
    eventID: `event-${sequence}`,
    eventName: eventName as DynamoDBRecord['eventName'],
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: String(sequence),
      Keys: keys,
      NewImage: { ...keys, entity: { S: 'transition' }, entity_id: { S: entityId } },
    },
  };
}

/** A consumer that records the sort keys of each call's changes, one list per call. */
function recordingConsumer(failWith?: Error) {
  const calls: string[][] = [];
  const consumer: ChangeConsumer = async (changes: Change[]) => {
    calls.push(changes.map((c) => c.keys.sk));
    if (failWith) throw failWith;
  };
  return { consumer, calls };
}

const powertools = () => createPowertoolsLogger({ level: 'silent' });

/** A stream handler over one batched and one per-record consumer, the batched one failing with `failWith`. */
function batchedAndPerRecord(failWith?: Error) {
  const batched = recordingConsumer(failWith);
  const perRecord = recordingConsumer();
  const handler = createStreamHandler({
    consumers: [batched.consumer, perRecord.consumer],
    batched: [batched.consumer],
    powertools: powertools(),
  });
  return { batched, perRecord, handler };
}

describe('the stream function, whole batches for the enqueuing consumers', () => {
  it('hands a batched consumer every change of the batch in one call, in order, and the others one record each', async () => {
    const { batched, perRecord, handler } = batchedAndPerRecord();
    const records = [
      transitionRecord('ent_a', 'a-1'),
      transitionRecord('ent_b', 'b-1'),
      transitionRecord('ent_a', 'a-2'),
    ];

    const result = await handler({ Records: records }, lambdaContext('stream'));

    expect(result).toEqual({ batchItemFailures: [] });
    expect(batched.calls).toEqual([['a-1', 'b-1', 'a-2']]);
    expect(perRecord.calls.map((c) => c.length)).toEqual([1, 1, 1]);
    expect(perRecord.calls.flat().sort()).toEqual(['a-1', 'a-2', 'b-1']);
  });

  it('reports the batch from its first record when a batched consumer throws, and runs nothing per record', async () => {
    const { perRecord, handler } = batchedAndPerRecord(new Error('queue down'));
    const records = [transitionRecord('ent_a', 'a-1'), transitionRecord('ent_b', 'b-1')];

    const result = await handler({ Records: records }, lambdaContext('stream'));

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: records[0]?.dynamodb?.SequenceNumber }] });
    expect(perRecord.calls).toEqual([]);
  });

  it('leaves a record that does not parse out of the whole batch; the per-record phase reports it alone', async () => {
    const { batched, perRecord, handler } = batchedAndPerRecord();
    const records = [
      transitionRecord('ent_a', 'a-1'),
      transitionRecord('ent_b', 'b-1', 'NOT_AN_EVENT'),
      transitionRecord('ent_c', 'c-1'),
    ];

    const result = await handler({ Records: records }, lambdaContext('stream'));

    expect(batched.calls).toEqual([['a-1', 'c-1']]);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: records[1]?.dynamodb?.SequenceNumber }] });
    expect(perRecord.calls.flat().sort()).toEqual(['a-1', 'c-1']);
  });
});
