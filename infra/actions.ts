import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { OUTAGE_RETRIES } from '../lib/platform/job-queue.ts';
import { VigilFunction } from './node-function.ts';
import { deadLetterQueue } from './queues.ts';
import { grantTable } from './table.ts';

/** What the actions side needs from the rest of the stack. */
export interface VigilActionsProps {
  readonly table: ITable;
  /** Runtime settings every function shares, with the egress settings (VIGIL_EGRESS_ALLOW, VIGIL_PUBLIC_URL). */
  readonly environment: Record<string, string>;
  /** The action worker's reserved concurrency, and its event source's maximum (infra/capacity.ts). */
  readonly concurrency: number;
}

/**
 * A batch of 10 jobs runs concurrently; the slowest is one outbound call at the longest action
 * timeout (15 s) plus its execution's writes. 60 s leaves room for a slow store on top.
 */
export const ACTION_WORKER_TIMEOUT = Duration.seconds(60);
/**
 * Receives before an action job moves to the DLQ: the attempts of OUTAGE_RETRIES (delays doubling
 * from 1 s to 60 s, outlasting a 15-minute store outage). A run job's execution is recorded whether
 * the call failed or not, so only a handler that kept throwing lands there.
 */
export const ACTION_MAX_RECEIVE_COUNT = OUTAGE_RETRIES.maxAttempts;

/**
 * Actions in the cloud: the stream function turns each entity transition into a `state_change`
 * job on the action queue, the generator enqueues the `run` jobs of due schedule actions, and a
 * dispatched pipeline gets its `deadline` job; the action worker (functions/actions.ts) consumes
 * them. Manual runs stay in the api function.
 */
export class VigilActions extends Construct {
  readonly queue: Queue;
  readonly dlq: Queue;
  readonly worker: NodejsFunction;

  constructor(scope: Construct, id: string, props: VigilActionsProps) {
    super(scope, id);
    this.dlq = deadLetterQueue(this, 'Dlq');
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for Lambda consumers: at least six times the function timeout. A failed
      // attempt does not wait for it: the worker sets its visibility to the retry delay.
      visibilityTimeout: Duration.seconds(ACTION_WORKER_TIMEOUT.toSeconds() * 6 + 60),
      // Shorter than the DLQ's 14 days: a message keeps its first enqueue time when moved there.
      // A deadline outlives it: each hop enqueues the next (delays of at most 15 min).
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: ACTION_MAX_RECEIVE_COUNT },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.worker = new VigilFunction(this, 'Worker', {
      entry: 'functions/actions.ts',
      timeout: ACTION_WORKER_TIMEOUT,
      reservedConcurrency: props.concurrency,
      environment: { ...props.environment, VIGIL_ACTION_QUEUE_URL: this.queue.queueUrl },
    }).function;
    grantTable(props.table, this.worker);
    // Run jobs of a state change and deadline hops are enqueued by the worker itself; the event
    // source grants receive, delete and ChangeMessageVisibility.
    this.queue.grantSendMessages(this.worker);
    this.worker.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        // No batching window: a state_change action fires as soon as its job is visible.
        reportBatchItemFailures: true,
        // Caps the outbound calls (and the table's write rate) when a backlog builds up.
        maxConcurrency: props.concurrency,
      }),
    );
  }

  /** Lets `fn` enqueue action jobs (stream: state changes; generator: schedule runs; api: deadlines) and tells it where. */
  enqueueFrom(fn: NodejsFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment('VIGIL_ACTION_QUEUE_URL', this.queue.queueUrl);
  }
}
