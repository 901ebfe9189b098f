import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { Clock } from '../../platform/clock.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { BatchMetrics } from '../queues/sqs-batch.ts';

/** The CloudWatch namespace of every Vigil metric; each function is a `service` dimension. */
export const METRICS_NAMESPACE = 'Vigil';

/**
 * Powertools Metrics for one function: EMF lines on stdout, which CloudWatch turns into metrics,
 * flushed after each invocation by the `logMetrics` middy middleware the function adds.
 */
export function createFunctionMetrics(service: string) {
  const powertools = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: service });
  const metrics: Metrics = {
    count: (name, value) => powertools.addMetric(name, MetricUnit.Count, value),
    milliseconds: (name, value) => powertools.addMetric(name, MetricUnit.Milliseconds, value),
  };
  return { powertools, metrics };
}

/**
 * A queue function's metrics: `edge`, what its middy chain takes (the base's Powertools logger and
 * its metrics, flushed after each invocation by the function's logMetrics middleware), and `batch`,
 * what its SQS batch handler counts (`names` of a job, timed on the composition's clock).
 */
export function queueFunctionMetrics<B, P>(
  base: { powertools: P; clock: Clock },
  service: string,
  names: BatchMetrics<B>['names'],
) {
  const { powertools, metrics } = createFunctionMetrics(service);
  return {
    edge: { powertools: base.powertools, metrics: powertools },
    batch: { metrics, names, now: () => base.clock.now() } satisfies BatchMetrics<B>,
  };
}
