import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { Metrics } from '../platform/metrics.ts';

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
