import type { Alert } from '../items/ports.ts';

/**
 * A made-up event to render a message template with (docs/notifications.md "Message templates"):
 * the console's preview, and a shared channel's test when it is attached to no check. Its entity
 * "Checkout API" and check are invented; nothing in it is read from the tenant.
 */

/** What a preview may ask for: the kinds of message an alert can be (not a digest). */
export const SAMPLE_KINDS = ['alert', 'recovery', 'repeat', 'escalation', 'flapping', 'test'] as const;
export type SampleKind = (typeof SAMPLE_KINDS)[number];
export const SAMPLE_STATES = ['down', 'degraded', 'up'] as const;
export type SampleState = (typeof SAMPLE_STATES)[number];

const ERRORS: Record<SampleState, string | null> = {
  down: 'connect ECONNREFUSED 203.0.113.10:443',
  degraded: 'answered in 2400 ms, over the 1000 ms threshold',
  up: null,
};

/** The sample alert of `kind` (alert by default) changing to `to_state` (down; up for a recovery). */
export function sampleAlert(options: {
  kind?: SampleKind | undefined;
  to_state?: SampleState | undefined;
  timestamp: string;
  tenantId?: string;
}): Alert {
  const kind = options.kind ?? 'alert';
  const to = kind === 'recovery' ? 'up' : (options.to_state ?? 'down');
  const from = to === 'up' ? 'down' : 'up';
  return {
    event: {
      entity_id: 'ent_sample',
      entity_name: 'Checkout API',
      check_id: 'chk_sample',
      tenant_id: options.tenantId ?? '',
      from_state: from,
      to_state: to,
      transition_id: 'sample',
      timestamp: options.timestamp,
    },
    kind: kind === 'recovery' ? 'alert' : kind,
    ...(kind === 'repeat' ? { downForSeconds: 7500 } : {}),
    ...(kind === 'escalation' ? { unacknowledgedMinutes: 15, unacknowledgedSeconds: 900 } : {}),
    ...(kind === 'flapping' ? { flapping: { changes: 7, window_seconds: 1800 } } : {}),
    deliveryId: 'sample',
    entity: { id: 'ent_sample', name: 'Checkout API', blueprint_slug: 'service', slug: 'checkout-api' },
    checkName: 'Health endpoint',
    checkLabel: 'GET https://api.example.com/health',
    lastError: ERRORS[to],
    ...(kind === 'escalation' ? { alsoFailing: ['Payments webhook'] } : {}),
  };
}
