import * as z from 'zod';
import { type StateChangeEvent, stateChangeEventSchema } from '../domain/states.ts';
import type { JobInput } from '../platform/job-queue.ts';
import { runJobId } from './job-ids.ts';

/**
 * The jobs of the action queue (the job-queue port: the local SQLite queue, SQS in the cloud),
 * run by the action worker. Ids make a redelivery harmless:
 * - `state_change` (id `chg:<transition_id>`): find the check's state_change actions that match
 *   the event's to_state and enqueue one `run` each;
 * - `run` (id `run:<execution_id>`): one execution whose id is deterministic — from (transition,
 *   action) for a state change, from (action, slot) for a schedule — so a redelivered job finds
 *   its execution stored and sends nothing twice;
 * - `deadline` (id `ddl:<execution_id>`): at dispatch + pipeline_timeout_seconds a pipeline
 *   status still queued or running (or never reported) turns failed with a log line; it waits in
 *   hops of at most 15 minutes (the longest queue delay).
 */

export const ACTION_QUEUE = 'action';

export const actionJobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('state_change'), event: stateChangeEventSchema }),
  z.object({
    kind: z.literal('run'),
    tenant_id: z.string(),
    action_id: z.string(),
    execution_id: z.string(),
    trigger: z.enum(['state_change', 'schedule']),
    /** The state-change event (state_change) whose context fills the templates. */
    event: stateChangeEventSchema.optional(),
    /** The schedule slot (schedule). */
    slot: z.string().optional(),
  }),
  z.object({
    kind: z.literal('deadline'),
    tenant_id: z.string(),
    execution_id: z.string(),
    due_ms: z.number().int(),
  }),
]);
export type ActionJob = z.infer<typeof actionJobSchema>;

type RunJob = Extract<ActionJob, { kind: 'run' }>;

/** The `run` job of one execution of an action, fired by a transition or by a schedule slot. */
export function runJob(
  action: { tenant_id: string; id: string },
  executionId: string,
  trigger: { trigger: 'state_change'; event: StateChangeEvent } | { trigger: 'schedule'; slot: string },
): JobInput<ActionJob> & { body: RunJob } {
  return {
    id: runJobId(executionId),
    body: {
      kind: 'run',
      tenant_id: action.tenant_id,
      action_id: action.id,
      execution_id: executionId,
      ...trigger,
    },
  };
}
