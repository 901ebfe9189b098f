import { readEntityById } from '../catalog/entities.ts';
import { getIncident, readOpenIncidentRecord } from '../incidents/incident-items.ts';
import type { PagingParts } from '../notify/compose-notifier.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import { listRoutes } from '../notify/records.ts';
import { RetryLaterError } from '../platform/job-queue.ts';
import { owningTeams } from '../teams/who-service.ts';
import { climbHold } from './climb-hold.ts';
import { dueJob, enqueueOrThrow, waitedHop } from './due.ts';
import { recordPageOutcome, takePage } from './page-items.ts';
import {
  type ClimbPlace,
  type ComeBack,
  comeBackIfAsked,
  latest,
  newPage,
  type PagingDeps,
  pagePerson,
  recordUnsent,
} from './page-person.ts';
import { getPolicy, type PolicyRecord, type PolicyTarget } from './policy-items.ts';
import { addresseesOf } from './targets.ts';

/**
 * The climb of an escalation policy (DECISIONS.md "On-call (wave 5)"; issue 55 item 3): each step
 * is a `climb` job due at its time. When it comes it reads the incident again: acknowledged or
 * resolved, the climb stops and nothing is sent. Otherwise it pages the step's targets (each page
 * claimed in the page log first, so a redelivered job pages nobody twice) and enqueues the next
 * step `delay_seconds` later; after the last step the ladder is climbed again from the first,
 * `repeat` times. A failed read or write throws: the queue brings the job back, and the claims
 * keep what was sent sent once. The policy is read at each step, so a change applies from the next.
 */

type ClimbJob = Extract<NotifyJob, { kind: 'climb' }>;

/** How long a first step waits for its incident to be stored (the change feed stores it) before giving up. */
const INCIDENT_WAIT_MS = 60_000;

const stepJobId = (incidentId: string, policyId: string, round: number, step: number) =>
  `clb:${incidentId}:${policyId}:${round}:${step}`;

/** The id the job was enqueued under, so a hop of it names the same base. */
const baseIdOf = (job: ClimbJob) =>
  job.policy_id === null
    ? `clb:${job.incident_id}:${job.route_id}`
    : stepJobId(job.incident_id, job.policy_id, job.round, job.step);

/** The policy a first step climbs: the route's, or (page_owner_policy) the owning team's. */
async function policyOf(deps: PagingDeps, job: ClimbJob): Promise<PolicyRecord | undefined> {
  const tenantId = job.event.tenant_id;
  if (job.policy_id !== null) return getPolicy(deps.table, tenantId, job.policy_id);
  const route = (await listRoutes(deps.table, tenantId)).find((r) => r.id === job.route_id);
  if (!route) return undefined;
  if (route.escalation_policy_id) return getPolicy(deps.table, tenantId, route.escalation_policy_id);
  const entity = await readEntityById(deps.table, tenantId, job.event.entity_id);
  if (!entity) return undefined;
  const owners = await owningTeams(deps.table, tenantId, entity);
  const policyId = owners.find((o) => o.team.escalation_policy_id)?.team.escalation_policy_id;
  return policyId ? getPolicy(deps.table, tenantId, policyId) : undefined;
}

/** How a climb that ends without paging (anyone more) is logged, with why after it. */
const ENDED = 'escalation climb ended without a page';

/**
 * The job's incident, or undefined when there is none to climb (logged). The first step may come
 * before the incidents consumer stored the incident its change opened: it asks for the job to come
 * back then. The entity's open incident is read on its own after the incident was not found, so the
 * consumer may commit in between: the open incident found then is this job's own when its id is
 * the job's (issue 75 item 2: it was taken for "another open incident" and nobody was paged).
 */
async function incidentOf(deps: PagingDeps, job: ClimbJob, nowMs: number) {
  const tenantId = job.event.tenant_id;
  const at = { incident_id: job.incident_id, round: job.round, step: job.step };
  const incident = await getIncident(deps.table, tenantId, job.incident_id);
  if (incident) return incident;
  const open = await readOpenIncidentRecord(deps.table, tenantId, job.event.entity_id);
  if (open?.id === job.incident_id) return open;
  if (open) {
    // The change opened none: the entity's earlier incident was still open (it climbs its own policy).
    deps.logger.info(`${ENDED}: the change opened no incident, another of the entity is open`, {
      ...at,
      open_incident_id: open.id,
    });
    return undefined;
  }
  if (nowMs - job.due_ms > INCIDENT_WAIT_MS) {
    deps.logger.warn(`${ENDED}: the incident was never stored`, { ...at, waited_ms: nowMs - job.due_ms });
    return undefined;
  }
  throw new RetryLaterError(`incident ${job.incident_id} is not stored yet`, 2);
}

/** The step after (round, step) of the policy, or undefined after the last step of the last round. */
function nextStep(policy: PolicyRecord, round: number, step: number) {
  if (step + 1 < policy.steps.length) return { round, step: step + 1 };
  if (round < policy.repeat) return { round: round + 1, step: 0 };
  return undefined;
}

/** Handles one `climb` job; throws to have it retried. */
export async function handleClimb(deps: PagingDeps & PagingParts, job: ClimbJob): Promise<void> {
  const nowMs = deps.clock.now();
  if (await waitedHop(deps.queue, job, baseIdOf(job), nowMs)) return;
  const at = { incident_id: job.incident_id, round: job.round, step: job.step };
  const incident = await incidentOf(deps, job, nowMs);
  if (!incident) return;
  if (incident.state !== 'open') {
    deps.logger.info(`${ENDED}: the incident was ${incident.state}`, at);
    return;
  }
  const policy = await policyOf(deps, job);
  const step = policy?.steps[job.step];
  if (!policy || !step) {
    deps.logger.info(`${ENDED}: ${policy ? 'the policy no longer has this step' : 'the policy is gone'}`, {
      ...at,
      policy_id: job.policy_id,
      route_id: job.route_id,
    });
    return;
  }
  if (await heldBack(deps, job, nowMs)) return;
  const place: ClimbPlace = {
    event: job.event,
    incident,
    policy: { id: policy.id, name: policy.name },
    round: job.round,
    step: job.step,
  };
  const { addressees, nobody } = await addresseesOf(deps.table, job.event.tenant_id, step.targets, nowMs);
  const asks: ComeBack[] = [];
  for (const addressee of addressees)
    asks.push(
      'user_id' in addressee
        ? await pagePerson(deps, place, addressee.target, addressee.user_id, job.due_ms)
        : await pageChannel(deps, place, addressee.target, addressee.channel_id),
    );
  for (const target of nobody) {
    const page = newPage(
      place,
      `t:${target.type}:${target.id}`,
      { target, user_id: null, channel_id: null, contact_method_id: null, contact_kind: null },
      nowMs,
    );
    const error = target.type === 'schedule' ? 'Nobody is on call then.' : 'Nobody to page.';
    asks.push(await recordUnsent(deps, page, error));
  }
  await enqueueNextStep(deps, job, policy, step.delay_seconds, nowMs);
  // After the next step is queued: a page to send again brings this step's job back for it alone.
  comeBackIfAsked(latest(asks), `escalation step ${job.step}`);
}

/**
 * True when a hold keeps the step from paging now (climb-hold.ts): silenced, the climb ends; under
 * a maintenance window, the same step is queued again for the window's end (its own id, naming the
 * window's run, so a redelivered job queues it once).
 */
async function heldBack(deps: PagingDeps, job: ClimbJob, nowMs: number): Promise<boolean> {
  const hold = await climbHold(deps, job.event);
  if (!hold) return false;
  const at = { incident_id: job.incident_id, round: job.round, step: job.step };
  if (hold.kind === 'silenced') {
    deps.logger.info(`${ENDED}: the check is silenced`, at);
    return true;
  }
  const { id, endsMs } = hold.window;
  deps.logger.info('escalation step held by maintenance', { ...at, window_id: id, until: endsMs });
  await enqueueOrThrow(deps.queue, [
    dueJob({ ...job, due_ms: Math.max(endsMs, nowMs) }, nowMs, `${baseIdOf(job)}:maint:${id}:${endsMs}`),
  ]);
  return true;
}

/** Queues the policy's next step (or the next round's first), counted from this step's due time. */
async function enqueueNextStep(
  deps: PagingDeps,
  job: ClimbJob,
  policy: PolicyRecord,
  delaySeconds: number,
  nowMs: number,
) {
  const next = nextStep(policy, job.round, job.step);
  if (!next) return;
  const body: ClimbJob = {
    ...job,
    policy_id: policy.id,
    ...next,
    // Counted from this step's due time, so a late run does not push the ladder back.
    due_ms: Math.max(job.due_ms + delaySeconds * 1000, nowMs),
  };
  await enqueueOrThrow(deps.queue, [
    dueJob(body, nowMs, stepJobId(job.incident_id, policy.id, next.round, next.step)),
  ]);
}

/** Sends the step to a tenant channel as route channels are sent (lib/notify), claimed first. */
async function pageChannel(
  deps: PagingDeps & PagingParts,
  place: ClimbPlace,
  target: PolicyTarget,
  channelId: string,
): Promise<ComeBack> {
  const page = newPage(
    place,
    `c:${channelId}`,
    { target, user_id: null, channel_id: channelId, contact_method_id: null, contact_kind: null },
    deps.clock.now(),
  );
  const take = await takePage(deps.table, page, deps.clock.now());
  if (!take.taken) return take.retryInSeconds;
  const seq = `${place.incident.id}:esp:${place.policy.id}:${place.round}:${place.step}`;
  const [sent] = await deps.pageChannels(place.event, [channelId], seq);
  // The channel's own delivery (its record on the timeline) says whether it arrived.
  await recordPageOutcome(deps.table, page, {
    outcome: sent ? 'queued' : 'unreachable',
    error: sent ? null : 'The channel no longer exists.',
    contact_kind: sent?.channel_type ?? null,
  });
  return undefined;
}
