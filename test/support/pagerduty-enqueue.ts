import { expect } from 'vitest';
import type { ApiHarness } from './api-harness.ts';

/**
 * A sender of PagerDuty Events v2 to the runtime's `/v2/enqueue` for one routing key, as Datadog
 * sends them (`source: dd`, critical, its `service` in custom_details): each event is answered 202
 * and the change feed drained after it.
 */
export function pagerDutyEnqueue(api: ApiHarness, routingKey: string, service: string) {
  return async (event_action: string, dedup_key: string): Promise<void> => {
    const res = await api.request('POST', '/v2/enqueue', {
      body: {
        routing_key: routingKey,
        event_action,
        dedup_key,
        payload: {
          summary: `${service} 5xx`,
          source: 'dd',
          severity: 'critical',
          custom_details: { service },
        },
      },
    });
    expect(res.status, res.text).toBe(202);
    await api.drainChanges();
  };
}
