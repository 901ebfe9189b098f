import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { FauxqsServer } from 'fauxqs';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { DEFAULT_MAX_ATTEMPTS, OUTAGE_RETRIES } from '../../lib/platform/job-queue.ts';

/**
 * A real SQS engine for tests: fauxqs (npm, in-process, no Docker) listening on 127.0.0.1 on a free
 * port, with queues created with the attributes infra/ declares for the deployed ones, and a real
 * `SQSClient` pointed at it. fauxqs keeps time with `Date.now()` in this process, so delays,
 * visibility timeouts and redrive follow vitest's fake `Date` when a test fakes it, and real
 * seconds otherwise.
 */

/** What infra/ declares for a queue and its Lambda event source. */
export interface QueueShape {
  visibilityTimeoutSeconds: number;
  /** The redrive policy's maxReceiveCount (then the message moves to the queue's DLQ). */
  maxReceiveCount: number;
  /** The event source mapping's batch size. */
  batchSize: number;
}

/**
 * The deployed queues, mirrored from infra/ (not imported: that would load aws-cdk-lib in every
 * flow test). Visibility is six times the consumer's timeout plus 60 s, AWS's advice for Lambda.
 */
export const DEPLOYED_QUEUES = {
  // infra/checks.ts: WORKER_TIMEOUT 90 s, PROBE_MAX_RECEIVE_COUNT, batchSize 1.
  probe: { visibilityTimeoutSeconds: 90 * 6 + 60, maxReceiveCount: DEFAULT_MAX_ATTEMPTS, batchSize: 1 },
  // infra/browser.ts: BROWSER_TIMEOUT 120 s, DEFAULT_MAX_ATTEMPTS, batchSize 1.
  browser: { visibilityTimeoutSeconds: 120 * 6 + 60, maxReceiveCount: DEFAULT_MAX_ATTEMPTS, batchSize: 1 },
  // infra/notifications.ts: NOTIFIER_TIMEOUT 60 s, NOTIFY_MAX_RECEIVE_COUNT, batchSize 10.
  notify: {
    visibilityTimeoutSeconds: 60 * 6 + 60,
    maxReceiveCount: OUTAGE_RETRIES.maxAttempts,
    batchSize: 10,
  },
  // infra/actions.ts: ACTION_WORKER_TIMEOUT 60 s, ACTION_MAX_RECEIVE_COUNT, batchSize 10.
  action: {
    visibilityTimeoutSeconds: 60 * 6 + 60,
    maxReceiveCount: OUTAGE_RETRIES.maxAttempts,
    batchSize: 10,
  },
} as const satisfies Record<string, QueueShape>;

/** One queue of the engine, with its dead-letter queue. */
export interface TestQueue {
  name: string;
  url: string;
  arn: string;
  dlqName: string;
  dlqUrl: string;
  shape: QueueShape;
}

export interface FauxqsEngine {
  server: FauxqsServer;
  /** A real SQS client of the engine (dummy credentials, 127.0.0.1). */
  sqs: SQSClient;
  /** A real S3 client of the engine (path-style), for the artifacts bucket. */
  s3: S3Client;
  /** Creates `name` and `name-dlq` with the shape's visibility timeout and redrive policy. */
  createQueue(name: string, shape: QueueShape): TestQueue;
  /** Messages in a queue: ready, delayed and in flight. */
  size(queueName: string): number;
  /** Bodies of the messages in a queue that are not in flight or delayed (a DLQ's content). */
  bodies(queueName: string): string[];
  /** Ids of the job envelopes in a queue's DLQ. */
  deadLetterIds(queue: TestQueue): string[];
  /** Bodies of every message sent to a queue so far (fauxqs's spy), oldest first. */
  sentBodies(queueName: string): string[];
  stop(): Promise<void>;
}

const REGION = 'us-east-1';

/** Starts fauxqs on 127.0.0.1:0 (once per test file: beforeAll, and `stop` in afterAll). */
export async function startFauxqsEngine(): Promise<FauxqsEngine> {
  // Imported here: test files that only import a harness module for its helpers do not load it.
  const { startFauxqs } = await import('fauxqs');
  const server = await startFauxqs({ port: 0, logger: false, messageSpies: { bufferSize: 100_000 } });
  const sqs = new SQSClient({
    region: REGION,
    endpoint: `http://127.0.0.1:${server.port}`,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const s3 = new S3Client({
    region: REGION,
    endpoint: `http://127.0.0.1:${server.port}`,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    forcePathStyle: true,
  });
  const inspect = (queueName: string) => {
    const state = server.inspectQueue(queueName);
    if (!state) throw new Error(`no queue ${queueName} in fauxqs`);
    return state.messages;
  };
  const bodies = (queueName: string) => inspect(queueName).ready.map((m) => m.body);
  return {
    server,
    sqs,
    s3,
    createQueue(name, shape) {
      const dlq = server.createQueue(`${name}-dlq`, {
        // infra/queues.ts: 14 days, so failures can be inspected long after.
        attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) },
      });
      const queue = server.createQueue(name, {
        attributes: {
          VisibilityTimeout: String(shape.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlq.queueArn,
            maxReceiveCount: shape.maxReceiveCount,
          }),
        },
      });
      return {
        name,
        url: queue.queueUrl,
        arn: queue.queueArn,
        dlqName: `${name}-dlq`,
        dlqUrl: dlq.queueUrl,
        shape,
      };
    },
    size(queueName) {
      const m = inspect(queueName);
      return m.ready.length + m.delayed.length + m.inflight.length;
    },
    bodies,
    deadLetterIds: (queue) => bodies(queue.dlqName).map((b) => jobEnvelopeSchema.parse(JSON.parse(b)).id),
    sentBodies: (queueName) =>
      server.spy
        .getAllMessages()
        .flatMap((m) =>
          m.service === 'sqs' && m.status === 'published' && m.queueName === queueName ? [m.body] : [],
        ),
    async stop() {
      sqs.destroy();
      s3.destroy();
      await server.stop();
    },
  };
}
