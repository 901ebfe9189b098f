import * as z from 'zod';
import { stateChangeEventSchema } from '../domain/states.ts';
import { defineFeature, jobsOf, NOTIFY_QUEUE } from '../platform/feature.ts';

/**
 * Notify's own jobs on the notify queue (the job-queue port: the local SQLite queue, SQS in the
 * cloud). The queue carries other features' jobs too (status pages', handover's): its union is
 * built from the feature list (lib/features/list.ts), so notify knows none of them.
 * Each job id makes a redelivery harmless (the handler keys its effect by it):
 * - `event`: one state change to evaluate against its check's policy (id `evt:<transition_id>`;
 *   a re-evaluation after an upstream recovered: `evt:<transition_id>:after:<upstream transition_id>`);
 * - `deliver`: one attempt series of one delivery record (id `dlv:<delivery_id>`; a retry asked
 *   through the API: `dlv:<delivery_id>:retry:<n>`); a failed attempt throws, so the queue brings
 *   it back after 1 s, then 2 s; the third failure marks the delivery failed and returns;
 * - `repeat`: the next re-send while the entity stays down (id `rep:<transition_id>:<seq>`); it
 *   is delayed to `due_ms` (in hops of at most 15 minutes, the longest queue delay);
 * - `maintenance_end`: the look at a maintenance-skipped down when its window ends (maintenance-end.ts);
 * - `escalate`: one route's escalation of the incident an event opened (id `esc:<incident_id>:<route_id>`),
 *   delayed to `due_ms` = opened + `escalate_after_seconds` in hops as repeats (escalation.ts); one
 *   scheduled when a held-back alert is released counts from then (id `…:after:<upstream transition_id>`);
 * - `digest`: the flush of one batch of a channel's group (id `dig:<batch_id>`), delayed to `due_ms`
 *   in hops as repeats; it cuts the batch into digest records and sends them (pipeline/digest.ts);
 * - `recovery_due`: a recovery deferred by the cooldown, sent at its end if still current (id
 *   `rcv:<transition_id>`, in hops as repeats: deferred-recovery.ts);
 * - `flap_settle`: the look at a flapping check once it may have held one state for flap_settle_seconds (id
 *   `flap:<check_id>:<due_ms>`), delayed to `due_ms` in hops as repeats; each change re-arms it (flapping.ts);
 * - `acknowledge`: an incident acknowledged in Vigil, told to the channels of its alerts whose type
 *   tracks incidents (id `ack:<incident_id>`: acknowledge.ts);
 * - `also_failing`: a check's change into failing, told when its entity was down already (id
 *   `also:<check transition id>`: also-failing-alert.ts);
 * - `rejudge`: the look at an entity's truth when a hold ends (id `rj:<entity_id>:<due second>`, in
 *   hops as repeats): each channel whose last word differs from the state then is told it (rejudge.ts);
 * - `climb`: one step of an incident's escalation policy (lib/escalation/climb.ts): the step's
 *   targets paged unless the incident was acknowledged or resolved, then the next step enqueued at
 *   +delay (id `clb:<incident_id>:<esp_id>:<round>:<step>`, in hops as repeats); a route's first
 *   step, whose policy may be its owner team's, is `clb:<incident_id>:<route_id>`;
 * - `page_contact`: one later step of a paged person's contact plan (id
 *   `pgc:<incident_id>:<esp_id>:<round>:<step>:<usr_id>:<cmt_id>:<after_seconds>`, in hops as repeats), sent unless
 *   the incident was acknowledged or resolved meanwhile;
 * - `page_resolved`: an incident's resolution told to each person its climb paged, by each method a
 *   page reached them by (id `pgr:<incident_id>`; each message claimed in the page log:
 *   lib/escalation/resolution.ts);
 */

const notifyJobSchemas = [
  z.object({
    kind: z.literal('event'),
    event: stateChangeEventSchema,
    /** Set when an upstream's recovery released this held-back alert: that upstream's transition id. */
    after_upstream: z.string().optional(),
    /** Set when a maintenance window's end re-evaluates an alert skipped during it: the window and its end. */
    after_maintenance: z.object({ window_id: z.string(), ends_ms: z.number().int() }).optional(),
  }),
  z.object({ kind: z.literal('deliver'), tenant_id: z.string(), delivery_id: z.string() }),
  z.object({
    kind: z.literal('repeat'),
    event: stateChangeEventSchema,
    /** 1 for the first re-send. */
    seq: z.number().int().min(1),
    /** The policy revision that asked for it: a changed policy stops the series. */
    policy_revision: z.number().int(),
    due_ms: z.number().int(),
  }),
  z.object({
    kind: z.literal('maintenance_end'),
    event: stateChangeEventSchema,
    window_id: z.string(),
    /** The window's end: the job waits for it. */
    due_ms: z.number().int(),
  }),
  z.object({
    kind: z.literal('escalate'),
    /** The transition that opened the incident (its tenant, entity and check). */
    event: stateChangeEventSchema,
    incident_id: z.string(),
    route_id: z.string(),
    /** The incident's opening plus the route's escalate_after_seconds: the job waits for it. */
    due_ms: z.number().int(),
    /** Set when a held-back alert's release scheduled it: that upstream's transition id. */
    after_upstream: z.string().optional(),
  }),
  z.object({
    kind: z.literal('recovery_due'),
    /** The recovery the cooldown deferred. */
    event: stateChangeEventSchema,
    /** The cooldown's end: the job waits for it. */
    due_ms: z.number().int(),
  }),
  z.object({
    kind: z.literal('digest'),
    tenant_id: z.string(),
    channel_id: z.string(),
    /** The group within its channel (`route:<by>:<key>` or `fold:<by>:<key>`). */
    group_id: z.string(),
    batch_id: z.string(),
    /** When the batch is flushed: the job waits for it. */
    due_ms: z.number().int(),
  }),
  z.object({
    kind: z.literal('flap_settle'),
    tenant_id: z.string(),
    check_id: z.string(),
    /** The check's latest change plus its flap window: a later change moves it (this job is then stale). */
    due_ms: z.number().int(),
  }),
  z.object({ kind: z.literal('acknowledge'), tenant_id: z.string(), incident_id: z.string() }),
  z.object({
    kind: z.literal('also_failing'),
    /** The check's change into failing, as an event naming the entity down (also-failing-alert.ts). */
    event: stateChangeEventSchema,
  }),
  z.object({
    kind: z.literal('rejudge'),
    tenant_id: z.string(),
    entity_id: z.string(),
    /** When the hold ends: the job waits for it. */
    due_ms: z.number().int(),
    /** The hold that ended (cooldown, maintenance, flapping, upstream), for the log. */
    by: z.string(),
  }),
  z.object({
    kind: z.literal('climb'),
    /** The transition that opened the incident (its tenant, entity and check). */
    event: stateChangeEventSchema,
    incident_id: z.string(),
    /** The route whose match started the climb. */
    route_id: z.string(),
    /** The policy climbed; null on the first step of a route that pages its owner team's policy. */
    policy_id: z.string().nullable(),
    /** 0 for the first climb, up to the policy's repeat. */
    round: z.number().int().min(0),
    step: z.number().int().min(0),
    /** When the step is due: the job waits for it. */
    due_ms: z.number().int(),
  }),
  z.object({
    kind: z.literal('page_contact'),
    event: stateChangeEventSchema,
    incident_id: z.string(),
    policy_id: z.string(),
    round: z.number().int().min(0),
    step: z.number().int().min(0),
    /** The step's target that reached the person. */
    target: z.object({ type: z.enum(['schedule', 'user', 'channel', 'team']), id: z.string() }),
    user_id: z.string(),
    contact_method_id: z.string(),
    /** The contact step's delay after the policy's step (a method may be used at several). */
    after_seconds: z.number().int().min(0),
    /** The step's time plus the contact step's after_seconds: the job waits for it. */
    due_ms: z.number().int(),
  }),
  z.object({ kind: z.literal('page_resolved'), tenant_id: z.string(), incident_id: z.string() }),
];
export type NotifyJob = z.infer<(typeof notifyJobSchemas)[number]>;

/**
 * Notify's face in the feature list: its jobs (the paging kinds among them: lib/escalation runs
 * them through the notifier it is composed into).
 */
export const notifyFeature = defineFeature({ name: 'notify', jobs: jobsOf(NOTIFY_QUEUE, notifyJobSchemas) });
