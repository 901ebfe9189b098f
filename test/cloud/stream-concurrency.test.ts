import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createStreamHandler } from '../../functions/stream.ts';
import { createPowertoolsLogger } from '../../lib/cloud/edge/lambda-edge.ts';
import { inKeyOrder } from '../../lib/events/ordered-records.ts';
import type { Change, ChangeConsumer } from '../../lib/store/change-feed.ts';
import { lambdaContext } from './support.ts';

/**
 * Issue 35: the stream function runs the records of different entities of one batch concurrently,
 * bounded, each entity's records in order; a failing record is reported alone, as before.
 */

let sequence = 0;
function transitionRecord(entityId: string, sk: string): DynamoDBRecord {
  sequence += 1;
  const keys = { pk: { S: 'TRN#tnt_1#03' }, sk: { S: sk } };
  return {
    eventID: `event-${sequence}`,
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: String(sequence),
      Keys: keys,
      NewImage: { ...keys, entity: { S: 'transition' }, entity_id: { S: entityId } },
    },
  };
}

/** A consumer that logs each change's start and end, yielding a few turns in between. */
function loggingConsumer(log: string[], failing = new Set<string>()) {
  let inFlight = 0;
  let most = 0;
  const consumer: ChangeConsumer = async (changes: Change[]) => {
    for (const change of changes) {
      const sk = change.keys.sk;
      inFlight += 1;
      most = Math.max(most, inFlight);
      log.push(`start ${sk}`);
      for (let i = 0; i < 5; i += 1) await nextTurn();
      inFlight -= 1;
      log.push(`end ${sk}`);
      if (failing.has(sk)) throw new Error(`consumer failed on ${sk}`);
    }
  };
  return { consumer, most: () => most };
}

/** Each entity's records (sk `<entity>-<n>`) start after the one before it ended, in order. */
function expectPerEntityOrder(log: string[]) {
  const byEntity = new Map<string, string[]>();
  for (const line of log) {
    const sk = line.split(' ')[1] as string;
    const entity = sk.split('-')[0] as string;
    byEntity.set(entity, [...(byEntity.get(entity) ?? []), line]);
  }
  for (const lines of byEntity.values()) {
    const sks = lines.filter((l) => l.startsWith('start')).map((l) => l.slice(6));
    expect(lines).toEqual(sks.flatMap((sk) => [`start ${sk}`, `end ${sk}`]));
    expect(sks).toEqual([...sks].sort());
  }
}

describe('the stream function, concurrently per entity', () => {
  it('overlaps entities, keeps each entity in order, and reports a failing record alone', async () => {
    const log: string[] = [];
    const { consumer } = loggingConsumer(log, new Set(['a-2']));
    const handler = createStreamHandler({
      consumers: [consumer],
      powertools: createPowertoolsLogger({ level: 'silent' }),
    });
    const records = [
      transitionRecord('ent_a', 'a-1'),
      transitionRecord('ent_b', 'b-1'),
      transitionRecord('ent_a', 'a-2'),
      transitionRecord('ent_c', 'c-1'),
      transitionRecord('ent_b', 'b-2'),
      transitionRecord('ent_a', 'a-3'),
    ];
    const result = await handler({ Records: records }, lambdaContext('stream'));

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: records[2]?.dynamodb?.SequenceNumber }] });
    expect(log.filter((l) => l.startsWith('end')).sort()).toEqual(
      ['a-1', 'a-2', 'a-3', 'b-1', 'b-2', 'c-1'].map((sk) => `end ${sk}`),
    );
    expectPerEntityOrder(log);
    // Another entity started while the first record was still running.
    expect(log.indexOf('start b-1')).toBeLessThan(log.indexOf('end a-1'));
  });

  it('runs at most `concurrency` records at once', async () => {
    const log: string[] = [];
    const { consumer, most } = loggingConsumer(log);
    const records = Array.from({ length: 24 }, (_, i) =>
      transitionRecord(`ent_${i % 8}`, `${i % 8}-${10 + i}`),
    );
    const handle = inKeyOrder(
      records,
      (r) => consumer([{ keys: { pk: 'p', sk: r.dynamodb?.Keys?.sk?.S ?? '' } } as Change]),
      {
        concurrency: 3,
      },
    );
    // Called in reverse: the order comes from the batch, not from the calls.
    await Promise.all([...records].reverse().map(handle));
    expect(log).toHaveLength(48);
    expect(most()).toBe(3);
    expectPerEntityOrder(log);
  });
});
