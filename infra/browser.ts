import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BROWSER_FUNCTION_MEMORY_MB } from '../lib/cloud/browser-function.ts';
import { DEFAULT_MAX_ATTEMPTS } from '../lib/platform/job-queue.ts';
import { VigilFunction } from './node-function.ts';
import { deadLetterQueue } from './queues.ts';

/** What the browser leg needs from the checks engine. */
export interface VigilBrowserProps {
  /** Where results go back to (the worker records them): the function may only send there. */
  readonly probeQueue: IQueue;
  /** Runs at once: reserved concurrency and the event source's maximum (infra/capacity.ts). */
  readonly concurrency: number;
  /** Draft runs at once: the draft browser function's reserved concurrency (infra/capacity.ts). */
  readonly draftConcurrency: number;
}

/**
 * The draft browser function's timeout: the api function gives up on its invoke at 25 s
 * (lib/cloud/http-composition.ts, inside API Gateway's 29 s); a run is not left going long after.
 */
const DRAFT_TIMEOUT = Duration.seconds(30);

/**
 * The run's 60 s bound, plus Chromium's start and close (the runner's grace, 20 s) and unpacking
 * the Chromium binary on a cold start, with room.
 */
export const BROWSER_TIMEOUT = Duration.seconds(120);

/** The runner's child, started by path: lib/probes/browser/browser-child.ts beside the handler. */
export const BROWSER_CHILD = {
  entry: 'lib/probes/browser/browser-child.ts',
  outfile: 'browser-child.mjs',
  installed: ['playwright-core'],
} as const;

/**
 * Browser checks in the cloud (DECISIONS.md "Scripted checks (wave 5)"): the worker sends a browser
 * check's slot to the browser queue; this function runs it in a child process with the Chromium of
 * @sparticuz/chromium (functions/browser.ts, lib/cloud/browser-function.ts, lib/probes/lambda-chromium.ts) and sends the
 * result back to the probe queue, where the worker records it. Its role may receive from its queue,
 * send to the probe queue and put screenshots in the artifacts bucket (infra/artifacts.ts, wired by
 * the stack), and nothing else: no table, no secret, no other queue, no read of the bucket.
 *
 * x86_64, not arm64: the @sparticuz/chromium npm package ships only the x86_64 Chromium (its arm64
 * build is a separate layer or a pack downloaded at run time, which would be a network fetch at a
 * cold start).
 */
export class VigilBrowser extends Construct {
  readonly queue: Queue;
  readonly dlq: Queue;
  readonly handler: NodejsFunction;
  /**
   * The draft browser function: a browser check's draft (POST /v1/checks/run-draft), invoked
   * synchronously by the api function, answers its result and screenshots; the code of a region's
   * browser function (functions/region-browser.ts), given nothing either: no table, queue, secret
   * or bucket.
   */
  readonly draft: NodejsFunction;

  constructor(scope: Construct, id: string, props: VigilBrowserProps) {
    super(scope, id);
    this.dlq = deadLetterQueue(this, 'Dlq');
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for Lambda consumers: six times the function's timeout (a retry sets its own).
      visibilityTimeout: Duration.seconds(BROWSER_TIMEOUT.toSeconds() * 6 + 60),
      // A slot's run is worth little after the next slot: the generator sends one a minute at most.
      retentionPeriod: Duration.hours(1),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: DEFAULT_MAX_ATTEMPTS },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'functions/browser.ts',
      memorySize: BROWSER_FUNCTION_MEMORY_MB,
      timeout: BROWSER_TIMEOUT,
      architecture: Architecture.X86_64,
      reservedConcurrency: props.concurrency,
      beside: BROWSER_CHILD,
      environment: {
        VIGIL_BROWSER_QUEUE_URL: this.queue.queueUrl,
        VIGIL_PROBE_QUEUE_URL: props.probeQueue.queueUrl,
      },
    }).function;
    props.probeQueue.grantSendMessages(this.handler);
    this.draft = new VigilFunction(this, 'Draft', {
      entry: 'functions/region-browser.ts',
      memorySize: BROWSER_FUNCTION_MEMORY_MB,
      timeout: DRAFT_TIMEOUT,
      architecture: Architecture.X86_64,
      reservedConcurrency: props.draftConcurrency,
      beside: BROWSER_CHILD,
    }).function;
    this.handler.addEventSource(
      new SqsEventSource(this.queue, {
        // One Chromium per instance at a time.
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: props.concurrency,
      }),
    );
  }

  /** Lets `fn` (the api function) run browser drafts in the draft function, and tells it which. */
  draftsFrom(fn: NodejsFunction): void {
    // The function itself, not its versions or aliases (grantInvoke would add `<arn>:*`).
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.draft.functionArn] }),
    );
    fn.addEnvironment('VIGIL_DRAFT_BROWSER_FUNCTION', this.draft.functionName);
  }

  /** Lets `fn` (the worker) send browser checks' slots here, and tells it where. */
  enqueueFrom(fn: NodejsFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment('VIGIL_BROWSER_QUEUE_URL', this.queue.queueUrl);
  }
}
