import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A Prometheus registry of its own (not prom-client's global one: two runtimes in one process, as
 * in tests, do not register the same names twice, and nothing else's metrics leak into an answer)
 * with prom-client's process metrics, less the gauges it names `_total`, which `promtool check
 * metrics` refuses; the same counts stay as nodejs_active_handles, nodejs_active_requests and
 * nodejs_active_resources (by type).
 */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ])
    registry.removeSingleMetric(name);
  return registry;
}
