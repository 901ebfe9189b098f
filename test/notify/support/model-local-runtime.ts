import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NotifyQueueJob as NotifyJob } from '../../../lib/features/list.ts';
import type { ChannelSenders } from '../../../lib/notify/items/ports.ts';
import type { JobInput, ReceivedJob } from '../../../lib/platform/job-queue.ts';
import { manualTime } from '../../local/scheduler-helpers.ts';
import { driveFlow, openNotifyParts } from '../../support/local-flow.ts';
import { type ModelRuntime, outcomeResult, type RawMessage } from './alert-truth-model.ts';

/**
 * The local runtime for the alert-truth model (test/notify/alert-truth-model.test.ts): the flow
 * harness's parts (SQLite table, change feed, durable notify queue, job runner, real notifier,
 * fake senders) on fake time, plus what the model needs beyond it: a restart (everything closed
 * and opened again on the same database file, the queue loading its stored jobs) and the
 * redelivery of a job already handled (the same id and body enqueued again).
 */
export async function startModelLocalRuntime(): Promise<ModelRuntime> {
  const time = manualTime();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-model-'));
  const raw: RawMessage[] = [];
  const handled: JobInput<NotifyJob>[] = [];
  const senders: ChannelSenders = {
    async send(channel, alert) {
      raw.push({ kind: 'alert', channelId: channel.id, alert, atMs: time.clock.now() });
      return { ok: true, status_code: 200, error: null };
    },
    async sendDigest(channel, digest) {
      raw.push({ kind: 'digest', channelId: channel.id, digest, atMs: time.clock.now() });
      return { ok: true, status_code: 200, error: null };
    },
    // Every channel takes acknowledgements here, so the model sees them (they name no state).
    acknowledges: () => true,
    async acknowledge(channel, ack) {
      raw.push({ kind: 'acknowledge', channelId: channel.id, ack, atMs: time.clock.now() });
      return { ok: true, status_code: 202, error: null };
    },
    close: async () => {},
  };

  const open = async () => {
    const parts = openNotifyParts(dir, time, senders);
    const handle = async (job: ReceivedJob<NotifyJob>) => {
      await parts.notifier.handle(job);
      handled.push({ id: job.id, body: job.body });
    };
    await parts.queue.load();
    return { ...parts, ...driveFlow(parts, time, handle, { inProcess: true }) };
  };

  let parts = await open();
  let tenantCount = 0;
  const newTenant = async () => {
    tenantCount += 1;
    const made = await parts.app.tenants.createTenant({
      name: `T${tenantCount}`,
      email: `t${tenantCount}@example.test`,
    });
    return { tenantId: made.tenant.id, rawKey: made.rawKey };
  };
  let tenant = await newTenant();

  // As the flow harness's settle (at most 4 rounds), ending early once the feed and the runner are quiet.
  const settle = async () => {
    for (let round = 0; round < 4; round += 1) {
      await parts.round();
      if (round >= 1 && parts.table.readChanges(0, 1).length === 0 && parts.runner.pending === 0) return;
    }
  };
  const close = () => parts.stop();

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const [bare = path, search = ''] = path.split('?');
    const res = await parts.app.router.handle({
      method,
      path: bare,
      query: Object.fromEntries(new URLSearchParams(search)),
      headers: { authorization: `Bearer ${tenant.rawKey}`, 'content-type': 'application/json' },
      body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
      requestId: 'model',
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body}`);
    return res.body ? JSON.parse(res.body) : undefined;
  };

  return {
    name: 'local',
    now: () => time.clock.now(),
    async beginTimeline() {
      tenant = await newTenant();
    },
    call,
    channelUrl: (tag) => `https://127.0.0.1:9/${tag}`,
    async result(checkId, outcome) {
      const recorded = await parts.app.recorder.record(
        outcomeResult(tenant.tenantId, checkId, outcome, time.clock.now()),
      );
      if (recorded.status !== 'recorded') throw new Error(`result not recorded: ${recorded.status}`);
      await settle();
    },
    async advance(ms) {
      // Timers fire at their due times in order however large the step: one step, then the feed.
      await time.advance(ms, ms);
      await settle();
    },
    async redeliver(n) {
      const job = handled.length === 0 ? undefined : handled[n % handled.length];
      if (!job) return undefined;
      await parts.queue.enqueue([job]);
      await settle();
      return `${job.id} (${job.body.kind})`;
    },
    async restart() {
      await close();
      parts = await open();
      await settle();
      return true;
    },
    messages: () => raw,
    async close() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
