import type { EgressSettings } from '../../egress/egress.ts';
import { createEgressPool } from '../../egress/egress-pool.ts';

/**
 * The egress of a function that sends (api, notifier, action worker): one set of kept-alive pools per
 * container, whose idle sockets close on their own (4-10 s), with a test's trust and resolution.
 * Not in cloud-base: the functions that never send would bundle undici for nothing.
 */
export function containerEgress(overrides: EgressSettings | undefined): EgressSettings {
  return { transport: createEgressPool().transport, ...overrides };
}
