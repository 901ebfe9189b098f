import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { createApp } from '../../../lib/app.ts';
import { STREAM_ENTITIES } from '../../../lib/events/consumers.ts';
import { createChangePump } from '../../../lib/local/change-pump.ts';
import { startJobRunner } from '../../../lib/local/job-runner.ts';
import { createSqliteJobQueue } from '../../../lib/local/sqlite-job-queue.ts';
import type { ChannelRecord } from '../../../lib/notify/channel-setup/channel-items.ts';
import type { DeliveryRecord } from '../../../lib/notify/deliveries/delivery-items.ts';
import { NOTIFY_QUEUE, notifyJobSchema } from '../../../lib/notify/jobs.ts';
import { createNotifier } from '../../../lib/notify/pipeline/notifier.ts';
import type {
  Acknowledgement,
  Alert,
  ChannelSenders,
  Digest,
  SendOutcome,
} from '../../../lib/notify/pipeline/ports.ts';
import { isoTime } from '../../../lib/platform/clock.ts';
import { loadConfig } from '../../../lib/platform/config.ts';
import { newId } from '../../../lib/platform/ids.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { createSqliteTable, openSqliteDatabase } from '../../../lib/sqlite/sqlite-table.ts';
import { manualTime } from '../../local/scheduler-helpers.ts';
import { pushCheckFixtures } from '../../support/push-fixtures.ts';
import { memoryJobQueue } from './memory-queue.ts';

/** One send a fake channel saw. */
interface Sent {
  channel: ChannelRecord;
  alert: Alert;
  atMs: number;
}

/**
 * The notification flow on real parts (the SQLite table, its change feed, the durable notify queue,
 * the job runner, the API) on fake time; only the channel senders are a fake that records what it
 * was asked to send and answers what `answer` says.
 */
async function startFlowHarness() {
  const time = manualTime();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-notify-'));
  const table = createSqliteTable({
    db: openSqliteDatabase(join(dir, 'vigil.db')),
    streamEntities: STREAM_ENTITIES,
  });
  const logger = silentLogger;
  const queue = createSqliteJobQueue({
    table,
    name: NOTIFY_QUEUE,
    schema: notifyJobSchema,
    clock: time.clock,
    logger,
    timers: time.timers,
    maxAttempts: 4,
  });
  // Loopback allowed: tenant channels made through the API may name 127.0.0.1 (the senders are fake).
  const config = loadConfig('local', {
    VIGIL_RATE_LIMIT_RPS: '0',
    VIGIL_AUTH_FAILURE_LIMIT: '0',
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
  });
  const app = createApp({
    table,
    clock: time.clock,
    logger,
    config,
    notifyQueue: queue,
    actionQueue: memoryJobQueue('action'),
  });
  const sent: Sent[] = [];
  /** The digest parts the fake channels were sent (grouping and the storm fold). */
  const digests: { channel: ChannelRecord; digest: Digest; atMs: number }[] = [];
  let answer: (channel: ChannelRecord, n: number) => SendOutcome = () => ({
    ok: true,
    status_code: 200,
    error: null,
  });
  /** The acknowledgements the fake channels were told of (lib/notify/pipeline/acknowledge.ts). */
  const acks: { channel: ChannelRecord; ack: Acknowledgement; atMs: number }[] = [];
  let acknowledging: ((channel: ChannelRecord) => boolean) | undefined;
  let ackAnswer: (n: number) => SendOutcome = () => ({ ok: true, status_code: 202, error: null });
  const senders: ChannelSenders = {
    async send(channel, alert) {
      sent.push({ channel, alert, atMs: time.clock.now() });
      return answer(channel, sent.length);
    },
    async sendDigest(channel, digest) {
      digests.push({ channel, digest, atMs: time.clock.now() });
      return { ok: true, status_code: 200, error: null };
    },
    // Off unless a test turns it on (acknowledgeWith): an acknowledgement then reaches these channels.
    acknowledges: (channel) => acknowledging?.(channel) ?? false,
    async acknowledge(channel, ack) {
      acks.push({ channel, ack, atMs: time.clock.now() });
      return ackAnswer(acks.length);
    },
    close: async () => {},
  };
  const notifier = createNotifier({
    table,
    clock: time.clock,
    logger,
    queue,
    senders,
    policies: app.policies,
    channels: app.channels,
    deliveries: app.deliveries,
    tenants: app.tenants,
  });
  const runner = startJobRunner({ queue, handle: notifier.handle, concurrency: 4, logger });
  time.settleWhile(() => runner.pending > 0);
  const pump = createChangePump({ table, consumers: app.consumers, logger });
  const { tenant, rawKey } = await app.tenants.createTenant({ name: 'T', email: 't@example.test' });

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown, status?: number): Promise<any> => {
    const res = await app.router.handle({
      method,
      path,
      query: {},
      headers: { authorization: `Bearer ${rawKey}`, 'content-type': 'application/json' },
      body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
      requestId: 'test',
    });
    if (status !== undefined) expect(res.status, `${method} ${path}: ${res.body}`).toBe(status);
    return res.body ? JSON.parse(res.body) : undefined;
  };

  /** Feeds the change feed to the consumers and runs the notify jobs due now, until nothing is left. */
  const settle = async () => {
    for (let round = 0; round < 4; round += 1) {
      await pump.drain();
      await time.advance(1);
      await runner.idle();
    }
  };

  const harness = {
    app,
    table,
    time,
    queue,
    notifier,
    sent,
    digests,
    acks,
    /** Which channels take acknowledgements, and how the n-th acknowledgement overall is answered. */
    acknowledgeWith(which: (channel: ChannelRecord) => boolean, fn?: (n: number) => SendOutcome) {
      acknowledging = which;
      if (fn) ackAnswer = fn;
    },
    tenantId: tenant.id,
    call,
    settle,
    /** Sets how the fake channels answer the n-th send overall. */
    answerWith(fn: (channel: ChannelRecord, n: number) => SendOutcome) {
      answer = fn;
    },
    ...pushCheckFixtures(call, settle),
    async policy(checkId: string, fields: Record<string, unknown>) {
      const policy = await call('POST', `/v1/checks/${checkId}/policy`, fields);
      expect(policy?.check_id, JSON.stringify(policy)).toBe(checkId);
    },
    /** A webhook channel stored directly (its URL is never dialled: the senders are fake). */
    async channel(checkId: string): Promise<ChannelRecord> {
      const record: ChannelRecord = {
        id: newId('chn', time.clock.now()),
        tenant_id: tenant.id,
        check_id: checkId,
        created_at: isoTime(time.clock.now()),
        channel_type: 'webhook',
        config: { url: 'https://hooks.example.com/vigil' },
      };
      expect(await app.channels.create(record)).toBeUndefined();
      return record;
    },
    async dependsOn(fromEntityId: string, toEntityId: string) {
      await call(
        'POST',
        '/v1/relations',
        { from_entity_id: fromEntityId, to_entity_id: toEntityId, relation_type: 'depends_on' },
        201,
      );
    },
    /** The check's delivery records, newest first. */
    async logs(checkId: string): Promise<DeliveryRecord[]> {
      return (await app.deliveries.list(tenant.id, { check_id: checkId, limit: 200 })).deliveries;
    },
    async close() {
      await pump.stop();
      await runner.stop();
      queue.close();
      await table.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

export type FlowHarness = Awaited<ReturnType<typeof startFlowHarness>>;

/** An entity with a push check (own channel, no cooldown) that was up and is now down: its incident is open. */
export async function downEntity(h: FlowHarness) {
  const fixture = await h.entityWithCheck('API');
  const channel = await h.channel(fixture.checkId);
  await h.policy(fixture.checkId, { cooldown_seconds: 0 });
  await h.result(fixture.checkId, true);
  await h.result(fixture.checkId, false);
  const { incidents } = await h.app.incidents.list(
    { tenantId: h.tenantId, userId: 'usr_test' },
    { limit: 10, entity_id: fixture.entityId, state: 'open' },
  );
  expect(incidents).toHaveLength(1);
  return { ...fixture, channel, incidentId: String(incidents[0]?.id) };
}

/**
 * A fresh flow harness for each test where it is called (a file, or a describe block): started before
 * each test and closed after it. Answers a stand-in that reads the running test's harness.
 */
export function flowHarnessPerTest(): FlowHarness {
  let current: FlowHarness | undefined;
  beforeEach(async () => {
    current = await startFlowHarness();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as FlowHarness, {
    get(_, name) {
      if (!current) throw new Error('the flow harness is read outside a test');
      return Reflect.get(current, name);
    },
  });
}
