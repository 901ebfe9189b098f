import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createActionStore } from '../../lib/actions/items/action-store.ts';
import type { ActionJob } from '../../lib/actions/jobs.ts';
import { createCloudBase } from '../../lib/cloud/cloud-base.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { composeStreamFunction } from '../../lib/cloud/stream-composition.ts';
import type { NotifyJob } from '../../lib/notify/jobs.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import type { JobInput, JobQueue } from '../../lib/platform/job-queue.ts';
import type { Change } from '../../lib/store/change-feed.ts';
import { stateChangeAction } from '../actions/support/action-record.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';

/** A job queue that only records what is enqueued (the consumers' side of the queue). */
function recordingQueue<B>(name: string) {
  const sent: JobInput<B>[] = [];
  const queue: JobQueue<B> = {
    name,
    enqueue: async (jobs) => {
      sent.push(...jobs);
      return { failed: [] };
    },
    receive: async () => [],
    ack: async () => {},
    fail: async () => {
      throw new Error('the stream consumers never fail a job');
    },
  };
  return { queue, sent };
}

let config = loadConfig('cloud', { VIGIL_LOG_LEVEL: 'silent', VIGIL_EVENT_BUS_NAME: 'vigil-bus' });

/** A new entity transition, as DynamoDB Streams hands it over (lib/checks/items/transition-items.ts). */
const transition: Change = {
  eventId: 'e1',
  eventName: 'INSERT',
  keys: { pk: 'TRN#tnt_1', sk: 'trn_1' },
  newImage: {
    pk: 'TRN#tnt_1',
    sk: 'trn_1',
    entity: 'transition',
    schema_version: 1,
    id: 'trn_1',
    tenant_id: 'tnt_1',
    kind: 'entity',
    entity_id: 'ent_1',
    entity_name: 'Site',
    check_id: 'chk_1',
    from_state: 'up',
    to_state: 'down',
    reason: 'probe failed',
    created_at: '2026-01-01T00:00:00.000Z',
  },
  oldImage: undefined,
  expired: false,
};

describe('the stream function (its own composition)', () => {
  // The incident and trigger consumers read and write the table (DynamoDB Local).
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(inject('dynamodbEndpoint'));
    config = loadConfig('cloud', {
      VIGIL_LOG_LEVEL: 'silent',
      VIGIL_EVENT_BUS_NAME: 'vigil-bus',
      VIGIL_TABLE_NAME: table.tableName,
    });
  });
  afterAll(async () => {
    await table?.drop();
  });
  const bridgeClient = new EventBridgeClient({ region: 'us-east-1' });
  const bridge = mockClient(bridgeClient);
  afterEach(() => bridge.reset());

  it('runs every change consumer the app runs, then the event bus', () => {
    const cloud = createCloudApp(config, { eventBridge: bridgeClient, dynamodb: table.client });
    const lean = composeStreamFunction(
      createCloudBase(config, { eventBridge: bridgeClient, dynamodb: table.client }),
    );

    expect(Object.keys(lean.consumers).sort()).toEqual(Object.keys(cloud.app.changeConsumers).sort());
    expect(Object.keys(lean.consumers).sort()).toEqual([
      'acknowledgements',
      'actions',
      'handover',
      'incidents',
      'notify',
      'pageDrafts',
      'pageSubscribers',
      'purge',
      'stateRules',
    ]);
    // The app's consumers, then the bus publisher, in both.
    expect(lean.streamConsumers).toHaveLength(cloud.streamConsumers.length);
    expect(lean.streamConsumers).toHaveLength(10);
    cloud.sqs.destroy();
  });

  it('turns a new entity transition into a notify job, an action trigger and a bus event', async () => {
    bridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'ev1' }] });
    const notify = recordingQueue<NotifyJob>('notify');
    const actions = recordingQueue<ActionJob>('action');
    const base = createCloudBase(config, { eventBridge: bridgeClient, dynamodb: table.client });
    // The transition's check has a state_change action: one no action could match enqueues no job.
    await createActionStore(base.table, { dueShards: 4 }).create(stateChangeAction('tnt_1', 'chk_1'));
    const lean = composeStreamFunction(
      { ...base, actionQueue: actions.queue },
      { notifyQueue: notify.queue },
    );

    for (const consume of lean.streamConsumers) await consume([transition]);

    expect(notify.sent.map((j) => j.body.kind)).toEqual(['event']);
    expect(actions.sent.map((j) => j.body.kind)).toEqual(['state_change']);
    const entries = bridge.commandCalls(PutEventsCommand).flatMap((c) => c.args[0].input.Entries ?? []);
    expect(entries.map((e) => [e.EventBusName, JSON.parse(String(e.Detail)).transition_id])).toEqual([
      ['vigil-bus', 'trn_1'],
    ]);
    base.sqs.destroy();
  });
});
