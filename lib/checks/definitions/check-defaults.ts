import type { HttpAssertion } from '../../domain/http-assertions.ts';

/** What a created check has for each field its request leaves out. */
export const DEFAULTS = {
  method: 'GET',
  headers: {},
  body: null,
  expected_status: 200,
  expected_statuses: null,
  body_contains: '',
  assertions: [] as HttpAssertion[],
  degraded_latency_ms: null,
  interval_seconds: 60,
  timeout_ms: 5000,
  failure_threshold: 3,
  success_threshold: 1,
  enabled: true,
  config: {},
} as const;
