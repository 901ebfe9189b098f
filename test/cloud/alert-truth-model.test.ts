import { describe, expect, it, vi } from 'vitest';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import {
  assertAlertTruth,
  type ModelRuntime,
  modelSettings,
  outcomeResult,
  type RawMessage,
} from '../notify/support/alert-truth-model.ts';
import { notifyFlowRig } from './notify-flow.ts';

/**
 * The alert-truth property (issue 51 item 7) on the cloud runtime: the same generated timelines as
 * test/notify/alert-truth-model.test.ts, played through the Lambda handlers (api, stream,
 * notifier) over DynamoDB Local and fauxqs, to an HTTPS webhook receiver on 127.0.0.1. The app's
 * clock is the fake Date, which fauxqs keeps its delays and visibility with, so moving it makes
 * delayed jobs visible: `advance` jumps from one due message to the next and runs what is visible
 * (the stream function, the notifier, the action worker). A redelivery sends a job already handled
 * again with its id; the Lambda functions keep nothing between invocations, so a restart is a
 * no-op here. Fewer timelines than locally (DynamoDB Local is slower). Seed: VIGIL_MODEL_SEED;
 * timelines: VIGIL_MODEL_RUNS.
 */

// From the real now: the receiver's certificate is made at start and checked against the real clock.
vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
const flow = notifyFlowRig(systemClock);
const { seed, numRuns, replaying } = modelSettings(50);

const QUEUES = ['vigil-notify', 'vigil-actions'];

function cloudRuntime(): ModelRuntime {
  const h = flow.h;
  const raw: RawMessage[] = [];
  let seen = 0;
  /** Reads what the receiver got since the last look, stamped with the fake time now. */
  const stamp = () => {
    const received = flow.receiver.received;
    for (; seen < received.length; seen += 1) {
      const r = received[seen];
      if (!r) continue;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(r.body.toString('utf8'));
      } catch {
        body = {};
      }
      const delivery = r.headers['x-service-delivery'];
      raw.push({
        kind: 'webhook',
        path: r.path,
        body,
        atMs: Date.now(),
        ...(typeof delivery === 'string' ? { deliveryId: delivery } : {}),
      });
    }
  };
  const drain = async () => {
    await h.drainChanges();
    stamp();
  };
  /** The next time a delayed or in-flight message of the notify or action queue becomes visible. */
  const nextDue = (): number | undefined => {
    let next: number | undefined;
    for (const name of QUEUES) {
      const q = h.sqs.server.inspectQueue(name);
      if (!q) continue;
      const times = [
        ...q.messages.delayed.map((m) => m.delayUntil ?? 0),
        ...q.messages.inflight.map((m) => m.visibilityDeadline),
      ];
      for (const t of times) if (t > Date.now() && (next === undefined || t < next)) next = t;
    }
    return next;
  };
  /** Ids of the jobs still in the notify queue (not handled yet). */
  const waitingIds = (): Set<string> => {
    const q = h.sqs.server.inspectQueue('vigil-notify');
    const messages = q
      ? [...q.messages.ready, ...q.messages.delayed, ...q.messages.inflight.map((m) => m.message)]
      : [];
    return new Set(messages.map((m) => jobEnvelopeSchema.parse(JSON.parse(m.body)).id));
  };

  let tenant = { tenantId: h.tenantId, key: h.adminKey };
  let tenantCount = 0;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await h.request(method, path, { key: tenant.key, ...(body === undefined ? {} : { body }) });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };

  return {
    name: 'cloud',
    now: () => Date.now(),
    async beginTimeline() {
      tenantCount += 1;
      tenant = await h.createTenant(`Model${tenantCount}`);
    },
    call,
    channelUrl: (tag) => `${flow.receiver.origin}/${tag}`,
    async result(checkId, outcome) {
      const recorded = await h.app.recorder.record(
        outcomeResult(tenant.tenantId, checkId, outcome, Date.now()),
      );
      if (recorded.status !== 'recorded') throw new Error(`result not recorded: ${recorded.status}`);
      await drain();
    },
    async advance(ms) {
      const endMs = Date.now() + ms;
      // Bounded: a job that re-delays itself forever (a repeat) still ends at endMs.
      for (let guard = 0; guard < 500; guard += 1) {
        const next = nextDue();
        if (next === undefined || next > endMs) break;
        vi.setSystemTime(next);
        // Only the queues' consumers on the way (the stream is read once at the end: jobs write no transitions).
        await h.runNotifyJobs();
        await h.runActionJobs();
        stamp();
      }
      vi.setSystemTime(endMs);
      await drain();
    },
    async redeliver(n) {
      const waiting = waitingIds();
      const handled = flow.queued().filter((j) => !waiting.has(j.id));
      const job = handled.length === 0 ? undefined : handled[n % handled.length];
      if (!job) return undefined;
      await flow.requeueNow([job]);
      await drain();
      return `${job.id} (${job.job.kind})`;
    },
    restart: async () => false,
    messages: () => {
      stamp();
      return raw;
    },
    close: async () => {},
  };
}

describe('alert truth on the cloud runtime (model-based)', () => {
  it(`keeps every channel's last word the entity's state over ${numRuns} generated timelines (seed ${seed})`, async () => {
    const rt = cloudRuntime();
    const { runs, ms } = await assertAlertTruth(async () => rt, { seed, numRuns });
    console.info(`alert truth (cloud): ${runs} timelines in ${(ms / 1000).toFixed(1)} s, seed ${seed}`);
    // A replay (VIGIL_MODEL_PATH) runs its one timeline.
    expect(runs).toBe(replaying ? 1 : numRuns);
  }, 900_000);
});
