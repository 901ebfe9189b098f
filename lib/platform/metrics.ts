/**
 * The few numbers an operator watches (docs/operations.md "Metrics"): the core counts through
 * this port, the cloud writes them as CloudWatch embedded metric format (lib/cloud/edge/metrics.ts),
 * and where nobody reads them (locally, tests) they go nowhere.
 */
export interface Metrics {
  count(name: string, value: number): void;
  milliseconds(name: string, value: number): void;
}
