import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
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
import { VigilBrowser } from './browser.ts';
import { VigilFunction } from './node-function.ts';
import { deadLetterQueue } from './queues.ts';
import { GENERATOR_TABLE_ACTIONS, grantTable } from './table.ts';

/** What the checks engine needs from the rest of the stack. */
export interface VigilChecksProps {
  readonly table: ITable;
  /** Runtime settings every function shares (table name, due index shards). */
  readonly environment: Record<string, string>;
  /** The worker's concurrency (reserved, and its event source's maximum): infra/capacity.ts. */
  readonly workerConcurrency: number;
  /** The browser function's concurrency (reserved, and its event source's maximum): infra/capacity.ts. */
  readonly browserConcurrency: number;
  /** The draft browser function's reserved concurrency: infra/capacity.ts. */
  readonly draftBrowserConcurrency: number;
  /** Due shard ranges [from, to): one scheduler target each, every minute (infra/capacity.ts). */
  readonly shardGroups: readonly { from: number; to: number }[];
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
 * members together and records their results, or checks a push deadline; a browser check's slot it
 * hands to the browser function (./browser.ts) and records the result that comes back.
 */
export class VigilChecks extends Construct {
  readonly probeQueue: Queue;
  readonly probeDlq: Queue;
  readonly generator: NodejsFunction;
  readonly worker: NodejsFunction;
  /** Browser checks' runs: their queue and function, without table access (./browser.ts). */
  readonly browser: VigilBrowser;
  /** One schedule per shard group, each invoking the generator for its shards every minute. */
  readonly schedules: Schedule[];

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
    // Query, GetItem, UpdateItem only: it never puts, deletes or batch-writes an item.
    grantTable(props.table, this.generator, GENERATOR_TABLE_ACTIONS);
    this.probeQueue.grantSendMessages(this.generator);
    // A failed run is not retried: the next minute's run finds every check it left due.
    this.generator.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(2) });
    // The schedules may invoke the generator itself, no version or alias of it (the target's
    // default role would allow `<function>:*`).
    const schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
    });
    schedulerRole.addToPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.generator.functionArn] }),
    );

    // A group per schedule: the generator's work each minute grows with the cells, and a group's
    // share fits the minute (docs/performance.md "Scale model (cloud)"). The first keeps its id,
    // so a deployed stack keeps its schedule.
    this.schedules = props.shardGroups.map(
      (group, index) =>
        new Schedule(this, index === 0 ? 'GeneratorSchedule' : `GeneratorSchedule${index}`, {
          description: `Vigil: runs the check generator for each minute (due shards ${group.from}-${group.to - 1})`,
          schedule: ScheduleExpression.rate(Duration.minutes(1)),
          timeWindow: TimeWindow.off(),
          target: new LambdaInvoke(this.generator, {
            // Read by lib/cloud/workers/generator-handler.ts (schedulerPayloadSchema).
            input: ScheduleTargetInput.fromObject({
              scheduled_time: ContextAttribute.scheduledTime,
              execution_id: ContextAttribute.executionId,
              attempt: ContextAttribute.attemptNumber,
              shard_from: group.from,
              shard_to: group.to,
            }),
            // Only for failed deliveries (throttling): a minute-old invocation is worth little.
            retryAttempts: 2,
            maxEventAge: Duration.minutes(1),
            role: schedulerRole.withoutPolicyUpdates(),
          }),
        }),
    );

    this.worker = new VigilFunction(this, 'Worker', {
      entry: 'functions/worker.ts',
      timeout: WORKER_TIMEOUT,
      reservedConcurrency: props.workerConcurrency,
      // The worker changes a failed message's visibility there (the event source grants it).
      environment: { ...props.environment, VIGIL_PROBE_QUEUE_URL: this.probeQueue.queueUrl },
    }).function;
    grantTable(props.table, this.worker);
    // A browser check's slot runs in the browser function; its result comes back to the probe queue.
    this.browser = new VigilBrowser(this, 'Browser', {
      probeQueue: this.probeQueue,
      concurrency: props.browserConcurrency,
      draftConcurrency: props.draftBrowserConcurrency,
    });
    this.browser.enqueueFrom(this.worker);
    this.worker.addEventSource(
      new SqsEventSource(this.probeQueue, {
        // One message per invocation: a message is a cell's slot, up to 100 probes run together.
        // Ten would be 1,000 probes at once on a 512 MB function's third of a CPU, and their
        // latencies would measure that CPU. (A push check's deadline job, cheap, also runs alone.)
        batchSize: 1,
        reportBatchItemFailures: true,
        // Caps the probe fleet (and the table's write rate) when a backlog builds up: the cells due
        // each minute, at CELL_SLOT_SECONDS each (infra/capacity.ts), never more than it reserves,
        // so Lambda never throttles a message back to the queue (a throttle counts as a receive).
        maxConcurrency: props.workerConcurrency,
      }),
    );
  }

  /** Lets `fn` queue one-off probes (a new or re-targeted check's first, a located check's manual run) and tells it where. */
  enqueueFrom(fn: NodejsFunction): void {
    this.probeQueue.grantSendMessages(fn);
    fn.addEnvironment('VIGIL_PROBE_QUEUE_URL', this.probeQueue.queueUrl);
  }
}
