import * as z from 'zod';

/**
 * SPEC.md's state-change event ("Events"): what a change of an entity's state publishes, carried by
 * notify and action jobs and kept inside delivery records and held-back alerts. Pure: the checks
 * engine builds it from a transition, notify and actions read it, the cloud event bus sends it.
 */

/** Exactly these eight fields, never renamed. */
export const stateChangeEventSchema = z.object({
  entity_id: z.string(),
  entity_name: z.string(),
  check_id: z.string(),
  tenant_id: z.string(),
  from_state: z.string(),
  to_state: z.string(),
  transition_id: z.string(),
  timestamp: z.string(),
});
export type StateChangeEvent = z.infer<typeof stateChangeEventSchema>;

/** The order key of a change: its time, then its id (ids of one millisecond sort among themselves). */
export const changeOrder = (event: Pick<StateChangeEvent, 'timestamp' | 'transition_id'>) =>
  `${event.timestamp}|${event.transition_id}`;

/** True for a change to up out of down or degraded (DECISIONS.md's definition of a recovery). */
export const isRecovery = (event: Pick<StateChangeEvent, 'from_state' | 'to_state'>) =>
  event.to_state === 'up' && (event.from_state === 'down' || event.from_state === 'degraded');
