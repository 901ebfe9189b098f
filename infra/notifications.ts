import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { parseEmailSender } from '../lib/domain/formats.ts';
import { OUTAGE_RETRIES } from '../lib/platform/job-queue.ts';
import { VigilFunction } from './node-function.ts';
import { deadLetterQueue } from './queues.ts';
import { grantTable } from './table.ts';

/** What the notification side needs from the rest of the stack. */
export interface VigilNotificationsProps {
  readonly table: ITable;
  /** Runtime settings every function shares (table name, due shards, channel settings). */
  readonly environment: Record<string, string>;
  /** The notifier's reserved concurrency, and its event source's maximum (infra/capacity.ts). */
  readonly concurrency: number;
}

/**
 * One attempt of one delivery (a webhook waits 10 s at most) or one event's evaluation and writes,
 * for a batch of 10 jobs run concurrently, with room to spare.
 */
export const NOTIFIER_TIMEOUT = Duration.seconds(60);
/**
 * Receives before a notify job moves to the DLQ: the attempts of OUTAGE_RETRIES
 * (lib/platform/job-queue.ts), delays doubling from 1 s to 60 s that outlast a 15-minute store
 * outage. A delivery stops after its 3rd send on its own (marked failed); the rest is for jobs whose
 * handler kept throwing, which rest in the DLQ until `vigil dlq redrive notify`.
 */
export const NOTIFY_MAX_RECEIVE_COUNT = OUTAGE_RETRIES.maxAttempts;

/**
 * Notifications in the cloud: the stream function turns each entity transition into an `event`
 * job on the notify queue; the notifier function (functions/notifier.ts) consumes it, writes the
 * delivery records and sends; a failed attempt comes back through the queue's delays (1 s, 2 s),
 * a store error with growing delays for at least 15 minutes;
 * repeats are delayed jobs. The EventBridge bus receives every state-change event (published by
 * the stream function) for users' own rules.
 */
export class VigilNotifications extends Construct {
  readonly queue: Queue;
  readonly dlq: Queue;
  readonly notifier: NodejsFunction;
  readonly eventBus: EventBus;

  constructor(scope: Construct, id: string, props: VigilNotificationsProps) {
    super(scope, id);
    this.dlq = deadLetterQueue(this, 'Dlq');
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for Lambda consumers: at least six times the function timeout. A failed
      // attempt does not wait for it: the notifier sets its visibility to the retry delay.
      visibilityTimeout: Duration.seconds(NOTIFIER_TIMEOUT.toSeconds() * 6 + 60),
      // Shorter than the DLQ's 14 days: a message keeps its first enqueue time when moved there.
      // A repeat series outlives it: each repeat job enqueues the next (delays of at most 15 min).
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: NOTIFY_MAX_RECEIVE_COUNT },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.eventBus = new EventBus(this, 'EventBus', {
      eventBusName: `${Stack.of(this).stackName}-events`,
      description: 'Vigil state-change events (detail-type "Vigil State Change"); add your own rules',
    });

    this.notifier = new VigilFunction(this, 'Notifier', {
      entry: 'functions/notifier.ts',
      timeout: NOTIFIER_TIMEOUT,
      reservedConcurrency: props.concurrency,
      environment: { ...props.environment, VIGIL_NOTIFY_QUEUE_URL: this.queue.queueUrl },
    }).function;
    grantTable(props.table, this.notifier);
    // Deliver and repeat jobs, and re-evaluations after an upstream recovered, are enqueued by the
    // notifier itself; the event source grants receive, delete and ChangeMessageVisibility.
    this.queue.grantSendMessages(this.notifier);
    this.notifier.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        // No batching window: an alert leaves as soon as its job is visible.
        reportBatchItemFailures: true,
        // Never more than it reserves: a throttled batch would go back to the queue as a receive.
        maxConcurrency: props.concurrency,
      }),
    );
  }

  /** Lets `fn` enqueue notify jobs (the stream function's events, the API's retries) and tells it where. */
  enqueueFrom(fn: NodejsFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment('VIGIL_NOTIFY_QUEUE_URL', this.queue.queueUrl);
  }

  /**
   * Lets `fn` send email through SES as `emailFrom` (VIGIL_EMAIL_FROM, set by the caller): the
   * function may call ses:SendEmail on the sender's identity only, the address or its domain
   * (whichever of the two is verified in SES), never on another identity of the account.
   */
  sendEmailFrom(fn: NodejsFunction, emailFrom: string): void {
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ses:SendEmail'], resources: sesIdentityArns(this, emailFrom) }),
    );
  }

  /**
   * Lets `fn` send SMS through Amazon SNS (sms channels with provider sns): sns:Publish straight
   * to a phone number. Such a Publish names no resource ARN (the number is a request parameter),
   * so the grant cannot name one; instead it excludes every SNS ARN (NotResource), which leaves
   * phone numbers only: the function can publish to no topic and no platform endpoint.
   */
  sendSmsFrom(fn: NodejsFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        notResources: [
          Stack.of(this).formatArn({ service: 'sns', region: '*', account: '*', resource: '*' }),
        ],
      }),
    );
  }

  /** Lets `fn` publish to the event bus and tells it the bus name. */
  publishFrom(fn: NodejsFunction): void {
    this.eventBus.grantPutEventsTo(fn);
    fn.addEnvironment('VIGIL_EVENT_BUS_NAME', this.eventBus.eventBusName);
  }
}

/** The SES identities a sender may be verified as: its address and its domain. */
function sesIdentityArns(scope: Construct, emailFrom: string): string[] {
  const sender = parseEmailSender(emailFrom);
  if (!sender) throw new Error(`invalid deployment settings:\n  vigil:emailFrom: not an email address`);
  const domain = sender.address.slice(sender.address.lastIndexOf('@') + 1);
  return [sender.address, domain].map((identity) =>
    Stack.of(scope).formatArn({
      service: 'ses',
      resource: 'identity',
      resourceName: identity,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    }),
  );
}
