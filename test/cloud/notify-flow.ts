import { afterAll, beforeAll, expect } from 'vitest';
import { createNotifyJobQueue } from '../../lib/cloud/queues/notify-queue.ts';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import {
  type NotifyQueueJob as NotifyJob,
  notifyQueueJobSchema as notifyJobSchema,
} from '../../lib/features/list.ts';
import type { Clock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { type Receiver, startReceiver } from '../notify/channels/receiver.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

/**
 * The rig of the cloud notify-flow tests (escalation, policy climbs, maintenance, grouping,
 * flapping, deferred recoveries): the Lambda harness (api, stream function, notifier over DynamoDB
 * Local and fauxqs) on the test's fake clock, with `env` added to its configuration, and an HTTPS
 * receiver on 127.0.0.1 that the egress guard lets through. Its hooks start both before the file's
 * tests and close them after.
 *
 * fauxqs delays a job in real time, so once the fake clock has passed a delayed job's due time a
 * test finds it among `queued` and sends it again with `requeueNow` (what the queue does when the
 * delay ends).
 */

type QueuedJob<J extends NotifyJob = NotifyJob> = { id: string; job: J };
type JobOfKind<K extends NotifyJob['kind']> = Extract<NotifyJob, { kind: K }>;

interface NotifyFlow {
  readonly h: LambdaHarness;
  readonly receiver: Receiver;
  /** An admin call that throws on any answer of 300 or more; the body, inspected freely. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  call(method: string, path: string, body?: unknown): Promise<any>;
  /** Pushes one result to a push check and settles the change feed (stream function, notifier, actions). */
  push(checkId: string, success: boolean): Promise<void>;
  /** The notify jobs the queue accepted so far (of one kind if named), with their ids. */
  queued(): QueuedJob[];
  queued<K extends NotifyJob['kind']>(kind: K): QueuedJob<JobOfKind<K>>[];
  /** Sends jobs to the notify queue again with no delay. */
  requeueNow(jobs: QueuedJob[]): Promise<void>;
}

export function notifyFlowRig(
  clock: Clock,
  options: { blueprint?: { slug: string; name: string }; env?: Record<string, string> } = {},
) {
  let h: LambdaHarness | undefined;
  let receiver: Receiver | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the notify-flow rig starts in beforeAll');
    return value;
  };
  const flow: NotifyFlow = {
    get h() {
      return ready(h);
    },
    get receiver() {
      return ready(receiver);
    },
    async call(method, path, body) {
      const res = await flow.h.request(method, path, {
        key: flow.h.adminKey,
        ...(body === undefined ? {} : { body }),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    },
    async push(checkId, success) {
      await flow.call('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 });
      await flow.h.drainChanges();
    },
    queued(kind?: NotifyJob['kind']) {
      return flow.h.notifySqs.sentBodies().flatMap((body) => {
        const envelope = jobEnvelopeSchema.parse(JSON.parse(body));
        const job = notifyJobSchema.parse(envelope.body);
        return kind === undefined || job.kind === kind ? [{ id: envelope.id, job }] : [];
      });
    },
    async requeueNow(jobs) {
      const queue = createNotifyJobQueue({
        sqs: flow.h.sqs.sqs,
        queueUrl: flow.h.notifySqs.url,
        logger: silentLogger,
      });
      expect((await queue.enqueue(jobs.map(({ id, job }) => ({ id, body: job })))).failed).toEqual([]);
    },
  };

  beforeAll(async () => {
    const tls = createTlsFixtures();
    receiver = await startReceiver(tls.valid, 'unused');
    h = await startLambdaHarness({
      clock,
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', ...options.env },
      egress: { ca: [tls.caCert] },
    });
    if (options.blueprint) await flow.call('POST', '/v1/blueprints', options.blueprint);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  return flow;
}
