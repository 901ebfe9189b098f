import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  ContextAttribute,
  Schedule,
  ScheduleExpression,
  ScheduleTargetInput,
  TimeWindow,
} from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEFAULT_MAX_ATTEMPTS } from '../lib/platform/job-queue.ts';
import { VigilFunction } from './node-function.ts';
import { deadLetterQueue } from './queues.ts';

/** What the checks engine needs from the rest of the stack. */
export interface VigilChecksProps {
  readonly table: ITable;
  /** Runtime settings every function shares (table name, due index shards). */
  readonly environment: Record<string, string>;
}

/** Longest probe (timeout_ms max 60 s) plus the result's writes, with room to spare. */
const WORKER_TIMEOUT = Duration.seconds(90);
/**
 * Receives before a probe job moves to the DLQ: the job queue's attempts, since the worker makes a
 * job's last failed attempt visible at once for the redrive policy to dead-letter it.
 */
export const PROBE_MAX_RECEIVE_COUNT = DEFAULT_MAX_ATTEMPTS;

/**
 * The check engine: EventBridge Scheduler fires the generator every minute; it sends one job per
 * cell and slot (pull checks, docs/data-model.md "Pull checks in cells") and one per due push
 * deadline to the probe queue (delayed to the slot); the worker runs each job: probes a cell's
 * members together and records their results, or checks a push deadline.
 */
export class VigilChecks extends Construct {
  readonly probeQueue: Queue;
  readonly probeDlq: Queue;
  readonly generator: NodejsFunction;
  readonly worker: NodejsFunction;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: VigilChecksProps) {
    super(scope, id);
    this.probeDlq = deadLetterQueue(this, 'ProbeDlq');
    this.probeQueue = new Queue(this, 'ProbeQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for Lambda consumers: at least six times the function timeout. A failed job
      // does not wait for it: the worker sets its visibility to the retry delay (1 s, 2 s, 4 s).
      visibilityTimeout: Duration.seconds(WORKER_TIMEOUT.toSeconds() * 6 + 60),
      // Shorter than the DLQ's 14 days: a message keeps its first enqueue time when moved there.
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.probeDlq, maxReceiveCount: PROBE_MAX_RECEIVE_COUNT },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.generator = new VigilFunction(this, 'Generator', {
      entry: 'functions/generator.ts',
      timeout: Duration.seconds(60),
      environment: { ...props.environment, VIGIL_PROBE_QUEUE_URL: this.probeQueue.queueUrl },
    }).function;
    props.table.grantReadWriteData(this.generator);
    this.probeQueue.grantSendMessages(this.generator);
    // A failed run is not retried: the next minute's run finds every check it left due.
    this.generator.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(2) });

    this.schedule = new Schedule(this, 'GeneratorSchedule', {
      description: 'Vigil: runs the check generator for each minute',
      schedule: ScheduleExpression.rate(Duration.minutes(1)),
      timeWindow: TimeWindow.off(),
      target: new LambdaInvoke(this.generator, {
        // Read by lib/cloud/generator-handler.ts (schedulerPayloadSchema).
        input: ScheduleTargetInput.fromObject({
          scheduled_time: ContextAttribute.scheduledTime,
          execution_id: ContextAttribute.executionId,
          attempt: ContextAttribute.attemptNumber,
        }),
        // Only for failed deliveries (throttling): a minute-old invocation is worth little.
        retryAttempts: 2,
        maxEventAge: Duration.minutes(1),
      }),
    });

    this.worker = new VigilFunction(this, 'Worker', {
      entry: 'functions/worker.ts',
      timeout: WORKER_TIMEOUT,
      // The worker changes a failed message's visibility there (the event source grants it).
      environment: { ...props.environment, VIGIL_PROBE_QUEUE_URL: this.probeQueue.queueUrl },
    }).function;
    props.table.grantReadWriteData(this.worker);
    this.worker.addEventSource(
      new SqsEventSource(this.probeQueue, {
        // One message per invocation: a message is a cell's slot, up to 100 probes run together.
        // Ten would be 1,000 probes at once on a 512 MB function's third of a CPU, and their
        // latencies would measure that CPU. (A push check's deadline job, cheap, also runs alone.)
        batchSize: 1,
        reportBatchItemFailures: true,
        // Caps the probe fleet (and the table's write rate) when a backlog builds up.
        maxConcurrency: 50,
      }),
    );
  }
}
