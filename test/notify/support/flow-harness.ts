import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { ChannelRecord } from '../../../lib/notify/items/channel-items.ts';
import type { DeliveryRecord } from '../../../lib/notify/items/delivery-items.ts';
import type {
  Acknowledgement,
  Alert,
  ChannelSenders,
  Digest,
  SendOutcome,
} from '../../../lib/notify/items/ports.ts';
import { isoTime } from '../../../lib/platform/clock.ts';
import { newId } from '../../../lib/platform/ids.ts';
import { manualTime } from '../../local/scheduler-helpers.ts';
import { driveFlow, flowTenant, openNotifyParts } from '../../support/local-flow.ts';

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
async function startFlowHarness(paging?: Parameters<typeof openNotifyParts>[3]) {
  const time = manualTime();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-notify-'));
  const sent: Sent[] = [];
  /** The digest parts the fake channels were sent (grouping and the storm fold). */
  const digests: { channel: ChannelRecord; digest: Digest; atMs: number }[] = [];
  let answer: (channel: ChannelRecord, n: number) => SendOutcome = () => ({
    ok: true,
    status_code: 200,
    error: null,
  });
  let digestAnswer: (n: number) => SendOutcome = () => ({ ok: true, status_code: 200, error: null });
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
      return digestAnswer(digests.length);
    },
    // Off unless a test turns it on (acknowledgeWith): an acknowledgement then reaches these channels.
    acknowledges: (channel) => acknowledging?.(channel) ?? false,
    async acknowledge(channel, ack) {
      acks.push({ channel, ack, atMs: time.clock.now() });
      return ackAnswer(acks.length);
    },
    close: async () => {},
  };
  // Loopback allowed: tenant channels made through the API may name 127.0.0.1 (the senders are fake).
  const parts = openNotifyParts(dir, time, senders, paging);
  const { app, notifier } = parts;
  const flow = driveFlow(parts, time, notifier.handle, { inProcess: true });
  const base = await flowTenant(parts, time, flow);
  const { call, tenantId } = base;

  const harness = {
    ...base,
    notifier,
    sent,
    digests,
    acks,
    /** Which channels take acknowledgements, and how the n-th acknowledgement overall is answered. */
    acknowledgeWith(which: (channel: ChannelRecord) => boolean, fn?: (n: number) => SendOutcome) {
      acknowledging = which;
      if (fn) ackAnswer = fn;
    },
    /** Sets how the fake channels answer the n-th send overall. */
    answerWith(fn: (channel: ChannelRecord, n: number) => SendOutcome) {
      answer = fn;
    },
    /** Sets how the fake channels answer the n-th digest part sent overall. */
    digestAnswerWith(fn: (n: number) => SendOutcome) {
      digestAnswer = fn;
    },
    async policy(checkId: string, fields: Record<string, unknown>) {
      const policy = await call('POST', `/v1/checks/${checkId}/policy`, fields);
      expect(policy?.check_id, JSON.stringify(policy)).toBe(checkId);
    },
    /** A webhook channel stored directly (its URL is never dialled: the senders are fake). */
    async channel(checkId: string): Promise<ChannelRecord> {
      const record: ChannelRecord = {
        id: newId('chn', time.clock.now()),
        tenant_id: tenantId,
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
      return (await app.deliveries.list(tenantId, { check_id: checkId, limit: 200 })).deliveries;
    },
    async close() {
      await flow.stop();
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
export function flowHarnessPerTest(paging?: () => Parameters<typeof openNotifyParts>[3]): FlowHarness {
  let current: FlowHarness | undefined;
  beforeEach(async () => {
    current = await startFlowHarness(paging?.());
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

/** A one-off maintenance window named Deploy covering `entityId` from now for `minutes`. */
export async function deployWindow(h: FlowHarness, entityId: string, minutes: number) {
  const now = h.time.clock.now();
  await h.call(
    'POST',
    '/v1/maintenance',
    {
      name: 'Deploy',
      entity_ids: [entityId],
      starts_at: isoTime(now),
      ends_at: isoTime(now + minutes * 60_000),
    },
    201,
  );
}

/**
 * A shared webhook channel named `name` (never dialled: the fake senders answer) and a route to it
 * with `route`'s fields (grouping, matching).
 */
export async function routedWebhook(h: FlowHarness, name: string, route: Record<string, unknown> = {}) {
  const channel = await h.call(
    'POST',
    '/v1/notify/channels',
    { name, channel_type: 'webhook', config: { url: `http://127.0.0.1:9/${name}` } },
    201,
  );
  await h.call('POST', '/v1/notify/routes', { channel_ids: [channel.id], ...route }, 201);
  return channel;
}
