/**
 * What functions, infra and the CLI take of the Lambda runtime (the front door of edge/ and queues/):
 * the Powertools logger and metrics, an SQS batch handler and job queue, and the dead letters' redrive.
 * The HTTP functions' streaming URL handler and tracer come with http-composition.ts.
 */

export { createPowertoolsLogger, fromPowertools } from './edge/lambda-edge.ts';
export { createFunctionMetrics, METRICS_NAMESPACE } from './edge/metrics.ts';
export { redriveSqsDeadLetters } from './queues/dlq-redrive.ts';
export { lazySqsBatchHandler } from './queues/sqs-batch.ts';
export type { SqsJobQueue } from './queues/sqs-job-queue.ts';
export { createSqsJobQueue } from './queues/sqs-job-queue.ts';
