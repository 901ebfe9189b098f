import { EventBridgeClient, PutEventsCommand, type PutEventsCommandInput } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCloudBase } from '../../lib/cloud/cloud-base.ts';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { composeStreamFunction } from '../../lib/cloud/stream-composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';

/**
 * Every change-feed consumer the cloud composition registers runs in the stream function over
 * DynamoDB Local's stream, on a record of its kind. The consumers are read from the composition
 * (the app's named `changeConsumers`, plus the event-bus publisher when a bus is configured); each
 * name needs a scenario below that writes through the api handler, runs the stream function and
 * sees that consumer's effect. A consumer added to the composition fails here until it has one.
 */

const BUS = 'vigil-bus';
/** The name the stream function's bus publisher goes by here (it is not one of the app's consumers). */
const EVENT_BUS = 'eventBus';

const bridgeClient = new EventBridgeClient({
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});
const bridge = mockClient(bridgeClient);

let h: LambdaHarness;

beforeAll(async () => {
  bridge.on(PutEventsCommand).callsFake((input: PutEventsCommandInput) => ({
    FailedEntryCount: 0,
    Entries: (input.Entries ?? []).map((_, i) => ({ EventId: `e${i}` })),
  }));
  // Loopback allowed: the actions scenario's action names 127.0.0.1 (never called: no worker runs).
  h = await startLambdaHarness({
    env: { VIGIL_EVENT_BUS_NAME: BUS, VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
    eventBridge: bridgeClient,
  });
  await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
}, 60_000);

afterAll(async () => {
  await h?.close();
  bridge.restore();
});

const call = (method: string, path: string, body?: unknown) => adminCall(h, method, path, body);

/** Runs the stream function on every record written so far (no queue consumer runs). */
async function runStream() {
  for (let round = 0; round < 100; round += 1) if ((await h.runStreamOnce()) === 0) return;
  throw new Error('the stream did not settle after 100 rounds');
}

const pushChecked = (slug: string, blueprint = 'svc') =>
  entityWithPushCheck(call, { slug, name: slug }, { blueprint, intervalSeconds: 3600 });

const push = (checkId: string, success: boolean) =>
  call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });

/** An entity whose push check went up then down, both changes through the stream function. */
async function downEntity(slug: string) {
  const checked = await pushChecked(slug);
  await push(checked.checkId, true);
  await push(checked.checkId, false);
  await runStream();
  return checked;
}

const jobsOn = (bodies: string[]) =>
  bodies.map((body) => jobEnvelopeSchema.parse(JSON.parse(body)).body as Record<string, unknown>);
const eventOf = (job: Record<string, unknown>) => job.event as Record<string, unknown> | undefined;

/** Per consumer name: a record of its kind through the stream function, and that consumer's effect. */
const scenarios: Record<string, () => Promise<void>> = {
  async purge() {
    const { entityId, checkId } = await pushChecked('doomed');
    await push(checkId, true);
    await call('DELETE', '/v1/blueprints/svc/entities/doomed');
    expect((await h.table.query({ pk: `PURGE#${h.tenantId}` })).items).not.toEqual([]);
    await runStream();
    expect((await h.table.query({ pk: `PURGE#${h.tenantId}` })).items).toEqual([]);
    expect((await h.table.query({ pk: `CHECK#${checkId}` })).items).toEqual([]);
    expect((await h.table.query({ index: 'gsi1', pk: `ENT#${entityId}#CHECKS` })).items).toEqual([]);
  },
  async notify() {
    const { entityId } = await downEntity('told');
    const events = jobsOn(h.notifySqs.sentBodies()).filter(
      (job) => job.kind === 'event' && eventOf(job)?.entity_id === entityId,
    );
    expect(events.map((job) => eventOf(job)?.to_state)).toEqual(['up', 'down']);
  },
  async actions() {
    // A transition no state_change action of the tenant could match enqueues no job: one matches all.
    const { entityId, checkId } = await pushChecked('acted');
    await call('POST', '/v1/actions', {
      name: 'acted',
      url: 'http://127.0.0.1:9/acted',
      trigger_type: 'state_change',
      check_id: checkId,
    });
    await push(checkId, true);
    await push(checkId, false);
    await runStream();
    const changes = jobsOn(h.actionSqs.sentBodies()).filter(
      (job) => job.kind === 'state_change' && eventOf(job)?.entity_id === entityId,
    );
    expect(changes.map((job) => eventOf(job)?.to_state)).toEqual(['up', 'down']);
  },
  async acknowledgements() {
    const { entityId } = await downEntity('acknowledged');
    const { incidents } = await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`);
    const incidentId = String(incidents[0]?.id);
    await call('POST', `/v1/incidents/${incidentId}/acknowledge`);
    await runStream();
    // The incident's open-to-acknowledged write, through the stream, queued its channels' job.
    const acks = jobsOn(h.notifySqs.sentBodies()).filter(
      (job) => job.kind === 'acknowledge' && job.incident_id === incidentId,
    );
    expect(acks).toHaveLength(1);
  },
  async incidents() {
    const { entityId } = await downEntity('broken');
    const { incidents } = await call('GET', `/v1/incidents?entity_id=${entityId}&state=open`);
    expect(incidents).toEqual([expect.objectContaining({ entity_id: entityId, state: 'open' })]);
  },
  async stateRules() {
    await call('POST', '/v1/blueprints', { slug: 'pair', name: 'Pair' });
    const { entityId, checkId } = await pushChecked('twin', 'pair');
    const other = await call('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    await push(checkId, true);
    await push(String(other.id), false);
    await runStream();
    const state = async () => (await call('GET', '/v1/blueprints/pair/entities/twin')).state;
    // The default rule, worst: one check down is the entity down.
    expect(await state()).toBe('down');
    await call('PUT', '/v1/blueprints/pair', { state_rule: 'all_down' });
    await runStream();
    // all_down: checks that disagree make the entity degraded, not down.
    expect(await state()).toBe('degraded');
  },
  async pageDrafts() {
    const root = await pushChecked('drafted-root');
    const dependent = await pushChecked('drafted-dep');
    await call('POST', '/v1/relations', {
      from_entity_id: dependent.entityId,
      to_entity_id: root.entityId,
      relation_type: 'depends_on',
    });
    await call('POST', '/v1/status-pages', {
      slug: 'drafted',
      title: 'Drafted',
      entity_ids: [dependent.entityId],
    });
    for (const checked of [root, dependent]) await push(checked.checkId, true);
    await push(root.checkId, false);
    await push(dependent.checkId, false);
    await runStream();
    const { incidents } = await call('GET', '/v1/status-pages/drafted/incidents');
    expect(incidents).toEqual([
      expect.objectContaining({
        draft: true,
        drafted_from: expect.objectContaining({ entity_id: root.entityId }),
        impact: [{ entity_id: dependent.entityId, level: 'major_outage' }],
        title: 'Investigating problems with drafted-dep',
      }),
    ]);
  },
  async pageSubscribers() {
    await call('POST', '/v1/status-pages', { slug: 'noticed', title: 'Noticed', entity_ids: [] });
    // A pending subscriber (the tenant's import: the keyless form's request is a queued job first).
    const imported = await h.request('POST', '/v1/status-pages/noticed/subscribers/import', {
      key: h.adminKey,
      rawBody: 'email\nreader@example.com\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status, imported.text).toBeLessThan(300);
    const made = await call('POST', '/v1/status-pages/noticed/incidents', {
      title: 'Slow logins',
      body: 'Looking into it.',
      notify: true,
    });
    await runStream();
    const kinds = jobsOn(h.notifySqs.sentBodies())
      .filter((job) => job.page === 'noticed')
      .map((job) => [job.kind, job.kind === 'page_notice' ? job.update_id : undefined]);
    // The pending subscriber's confirmation, and the notices of the update that asked to notify.
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['page_confirm', undefined],
        ['page_notice', made.updates[0].id],
      ]),
    );
  },
  async handover() {
    const me = (await call('GET', '/v1/me')).user.id;
    const schedule = await call('POST', '/v1/schedules', {
      name: 'Streamed rota',
      time_zone: 'UTC',
      layers: [
        {
          name: 'Weekly',
          members: [me],
          rotation: { type: 'weekly', handoff: '09:00', start: '2026-01-05' },
        },
      ],
    });
    await runStream();
    // The schedule's write starts its handover chain: the first job, for its next moment.
    const jobs = jobsOn(h.notifySqs.sentBodies()).filter((job) => job.schedule_id === schedule.id);
    expect(jobs).toEqual([expect.objectContaining({ kind: 'handover', version: expect.any(Number) })]);
  },
  async [EVENT_BUS]() {
    const { entityId } = await downEntity('published');
    const details = bridge
      .commandCalls(PutEventsCommand)
      .flatMap((c) => c.args[0].input.Entries ?? [])
      .filter((e) => e.EventBusName === BUS)
      .map((e) => JSON.parse(String(e.Detail)));
    expect(details.filter((d) => d.entity_id === entityId).map((d) => d.to_state)).toEqual(['up', 'down']);
  },
};

/** The stream function's consumers by name, as the composition registers them. */
function registeredConsumers(): string[] {
  const named = Object.keys(h.app.changeConsumers);
  return h.app.config.eventBusName ? [...named, EVENT_BUS] : named;
}

describe('the stream function’s consumers', () => {
  it('registers the app’s named consumers, then the bus publisher, and nothing unnamed', async () => {
    const table: TestTable = await createTestTable(inject('dynamodbEndpoint'));
    try {
      const config = loadConfig('cloud', {
        VIGIL_LOG_LEVEL: 'silent',
        VIGIL_EVENT_BUS_NAME: BUS,
        VIGIL_TABLE_NAME: table.tableName,
      });
      const overrides = { eventBridge: bridgeClient, dynamodb: table.client };
      const cloud = createCloudApp(config, overrides);
      const lean = composeStreamFunction(createCloudBase(config, overrides));
      // What the api composition and the stream function's own composition hand DynamoDB Streams.
      expect(cloud.streamConsumers).toHaveLength(Object.keys(cloud.app.changeConsumers).length + 1);
      expect(lean.streamConsumers).toHaveLength(Object.keys(lean.consumers).length + 1);
      expect(Object.keys(lean.consumers).sort()).toEqual(Object.keys(cloud.app.changeConsumers).sort());
      cloud.sqs.destroy();
    } finally {
      await table.drop();
    }
  });

  it('has a scenario for every registered consumer', () => {
    expect(Object.keys(scenarios).sort()).toEqual(registeredConsumers().sort());
  });

  it.each(Object.keys(scenarios))(
    'runs the %s consumer on a record of its kind over DynamoDB Local’s stream',
    async (name) => {
      const scenario = scenarios[name];
      if (!scenario) throw new Error(`no scenario for ${name}`);
      await scenario();
    },
  );
});
