import { EventBridgeClient, PutEventsCommand, type PutEventsCommandInput } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { transitionRecordedOp } from '../../lib/checks/items/transition-items.ts';
import type { TransitionRecord } from '../../lib/checks/records.ts';
import { createEventBusPublisher, EventBusPublishError } from '../../lib/cloud/queues/event-bus.ts';
import { stateChangeEventSchema } from '../../lib/domain/states/state-change-event.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import type { Item } from '../../lib/store/table.ts';

const client = new EventBridgeClient({
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});
const bridge = mockClient(client);
const logs: string[] = [];
const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });

afterEach(() => {
  bridge.reset();
  logs.length = 0;
});

function transition(n: number, overrides: Partial<TransitionRecord> = {}): TransitionRecord {
  return {
    id: `trn_${String(n).padStart(4, '0')}`,
    tenant_id: 'ten_1',
    kind: 'entity',
    entity_id: 'ent_1',
    entity_name: 'Payments API',
    check_id: 'chk_1',
    from_state: 'up',
    to_state: 'down',
    reason: 'check failed',
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function insert(record: TransitionRecord): Change {
  const op = transitionRecordedOp(record, 30);
  if (op.type !== 'put') throw new Error('a transition is put');
  const item: Item = op.item;
  return {
    eventId: record.id,
    eventName: 'INSERT',
    keys: { pk: String(item.pk), sk: String(item.sk) },
    newImage: item,
    oldImage: undefined,
    expired: false,
  };
}

const putInputs = () =>
  bridge.commandCalls(PutEventsCommand).map((call) => call.args[0].input as PutEventsCommandInput);
const accepted = (input: PutEventsCommandInput) => ({
  FailedEntryCount: 0,
  Entries: (input.Entries ?? []).map((_, i) => ({ EventId: `e${i}` })),
});

describe('the EventBridge publisher', () => {
  it('puts each entity state change on the bus as source vigil, detail-type Vigil State Change, detail the event', async () => {
    bridge.on(PutEventsCommand).callsFake(accepted);
    const publish = createEventBusPublisher({ client, busName: 'vigil-events', logger });

    await publish([insert(transition(1))]);

    const [input] = putInputs();
    expect(input?.Entries).toHaveLength(1);
    const entry = input?.Entries?.[0];
    expect(entry).toMatchObject({
      EventBusName: 'vigil-events',
      Source: 'vigil',
      DetailType: 'Vigil State Change',
    });
    expect(entry?.Time).toEqual(new Date('2026-01-01T00:00:00.000Z'));
    const detail = JSON.parse(String(entry?.Detail));
    expect(stateChangeEventSchema.strict().parse(detail)).toEqual({
      entity_id: 'ent_1',
      entity_name: 'Payments API',
      check_id: 'chk_1',
      tenant_id: 'ten_1',
      from_state: 'up',
      to_state: 'down',
      transition_id: 'trn_0001',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
  });

  it('publishes nothing for check transitions, modifications, removals and other items', async () => {
    bridge.on(PutEventsCommand).callsFake(accepted);
    const publish = createEventBusPublisher({ client, busName: 'vigil-events', logger });
    const entityInsert = insert(transition(1));
    const other: Item = { pk: 'CHECK#chk_1', sk: 'POLICY', entity: 'notify_policy', schema_version: 1 };

    await publish([
      insert(transition(2, { kind: 'check' })),
      { ...entityInsert, eventName: 'MODIFY', oldImage: entityInsert.newImage },
      {
        ...entityInsert,
        eventName: 'REMOVE',
        oldImage: entityInsert.newImage,
        newImage: undefined,
        expired: true,
      },
      { ...entityInsert, newImage: other, keys: { pk: 'CHECK#chk_1', sk: 'POLICY' } },
    ]);

    expect(putInputs()).toEqual([]);
  });

  it('puts at most 10 entries per call', async () => {
    bridge.on(PutEventsCommand).callsFake(accepted);
    const publish = createEventBusPublisher({ client, busName: 'vigil-events', logger });

    await publish(Array.from({ length: 23 }, (_, i) => insert(transition(i))));

    expect(putInputs().map((input) => input.Entries?.length)).toEqual([10, 10, 3]);
    const ids = putInputs().flatMap((input) =>
      (input.Entries ?? []).map((entry) => JSON.parse(String(entry.Detail)).transition_id),
    );
    expect(ids).toEqual(Array.from({ length: 23 }, (_, i) => transition(i).id));
  });

  it('throws when EventBridge refuses an entry, so the stream redelivers the record', async () => {
    bridge.on(PutEventsCommand).resolves({
      FailedEntryCount: 1,
      Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }],
    });
    const publish = createEventBusPublisher({ client, busName: 'vigil-events', logger });

    const attempt = publish([insert(transition(1))]);

    await expect(attempt).rejects.toThrow(EventBusPublishError);
    await expect(attempt).rejects.toThrow(/refused 1 of 1 event\(s\): InternalFailure/);
    expect(logs.some((line) => line.includes('EventBridge refused'))).toBe(true);
  });

  it('lets an SDK error through, so the stream redelivers the record', async () => {
    bridge.on(PutEventsCommand).rejects(new Error('throttled'));
    const publish = createEventBusPublisher({ client, busName: 'vigil-events', logger });

    await expect(publish([insert(transition(1))])).rejects.toThrow('throttled');
  });
});
