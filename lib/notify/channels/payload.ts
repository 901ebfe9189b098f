import type { Alert } from '../ports.ts';

/**
 * The JSON body of the webhook and nats channels: the state-change event of SPEC.md "Events"
 * (its fields never renamed) plus `check_name`, so a receiver can say which check without
 * looking its id up.
 */
export function eventPayload(alert: Alert): Buffer {
  // A flapping notice says so, with its figures (issue 35).
  const flapping = alert.kind === 'flapping' ? { kind: 'flapping', flapping: alert.flapping ?? null } : {};
  return Buffer.from(JSON.stringify({ ...alert.event, check_name: alert.checkName, ...flapping }), 'utf8');
}
