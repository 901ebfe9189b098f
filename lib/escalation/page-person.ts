import type { ContactReach, ContactStep, PersonMessage } from '../contacts/reach.ts';
import type { StateChangeEvent } from '../domain/states.ts';
import { getIncident, type IncidentRecord } from '../incidents/incident-items.ts';
import type { PagingParts } from '../notify/compose-notifier.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { type JobQueue, RetryLaterError, retryDelaySeconds } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { dueJob, enqueueOrThrow, waitedHop } from './due.ts';
import { MAX_PAGE_ATTEMPTS, type PageRecord, recordPageOutcome, takePage } from './page-items.ts';
import { type PageLinks, pageMessage } from './page-message.ts';
import { getPolicy, type PolicyTarget } from './policy-items.ts';
import { personZone } from './targets.ts';

/** What paging people works with (built once per runtime: lib/escalation/compose.ts). */
export interface PagingDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  queue: JobQueue<NotifyJob>;
  reach: Pick<ContactReach, 'plan' | 'send'>;
  publicUrl: string | undefined;
  links?: PageLinks | undefined;
}

/** What paging a person needs besides: why the entity is failing (the notifier's part). */
type PersonPagingDeps = PagingDeps & Pick<PagingParts, 'escalationReason'>;

type PageContactJob = Extract<NotifyJob, { kind: 'page_contact' }>;

/** Where a page sits in a climb: the incident's opening change, the policy, its round and step. */
export interface ClimbPlace {
  event: StateChangeEvent;
  incident: IncidentRecord;
  policy: { id: string; name: string };
  round: number;
  step: number;
}

/** A page's key: its place in the climb and its addressee (page-items.ts). */
const pageKey = (place: Pick<ClimbPlace, 'policy' | 'round' | 'step'>, addressee: string) =>
  `${place.policy.id}:${place.round}:${place.step}:${addressee}`;

/** A claimed-to-be page of the place, `pending`, at `atMs`. */
export function newPage(
  place: ClimbPlace,
  addressee: string,
  fields: Pick<PageRecord, 'target' | 'user_id' | 'channel_id' | 'contact_method_id' | 'contact_kind'>,
  atMs: number,
): PageRecord {
  return {
    tenant_id: place.incident.tenant_id,
    incident_id: place.incident.id,
    key: pageKey(place, addressee),
    policy_id: place.policy.id,
    round: place.round,
    step: place.step,
    ...fields,
    at: isoTime(atMs),
    outcome: 'pending',
    error: null,
    attempts: 1,
  };
}

/**
 * What a page asks of the job that sent it: nothing (undefined), or to come back in that many
 * seconds (its send failed with attempts left, or another attempt's claim is still fresh).
 */
export type ComeBack = number | undefined;

/** The latest of the pages' asks: the job comes back once for all of them. */
export const latest = (asks: readonly ComeBack[]): ComeBack =>
  asks.reduce<ComeBack>((a, b) => (b === undefined ? a : Math.max(a ?? 0, b)), undefined);

/** Throws for the queue to bring the job back when a page asked it to (after its other work is done). */
export function comeBackIfAsked(ask: ComeBack, what: string): void {
  if (ask !== undefined) throw new RetryLaterError(`${what}: a page is to be sent again`, ask);
}

/**
 * Sends one contact step to the person, taken first (page-items.ts takePage: a page sent before
 * sends nothing; a failed one is sent again until MAX_PAGE_ATTEMPTS, its job brought back by the
 * queue; one whose job died after the claim is sent by the job's redelivery).
 */
async function pageByMethod(
  deps: PersonPagingDeps,
  place: ClimbPlace,
  target: PolicyTarget,
  userId: string,
  step: ContactStep,
): Promise<ComeBack> {
  const method = step.contact_method;
  // A method may be used at several delays: each is a page of its own.
  const page = newPage(
    place,
    `u:${userId}:${method.id}:${step.after_seconds}`,
    { target, user_id: userId, channel_id: null, contact_method_id: method.id, contact_kind: method.kind },
    deps.clock.now(),
  );
  const take = await takePage(deps.table, page, deps.clock.now());
  if (!take.taken) return take.retryInSeconds;
  const tenantId = place.incident.tenant_id;
  const message = await pageMessage(
    {
      incident: place.incident,
      state: place.event.to_state,
      reason: await deps.escalationReason(place.event),
      timeZone: await personZone(deps.table, tenantId, userId, target),
      policyName: place.policy.name,
      step: place.step,
      round: place.round,
    },
    userId,
    { publicUrl: deps.publicUrl, links: deps.links, deliveryId: `${place.incident.id}:${page.key}` },
  );
  return sendTaken(deps, page, take.attempt, message);
}

/**
 * Sends a taken page's message to its person's method and records the outcome: `sent`, or
 * `failed`, asking its job to come back while attempts are left.
 */
export async function sendTaken(
  deps: Pick<PagingDeps, 'table' | 'reach'>,
  page: PageRecord,
  attempt: number,
  message: PersonMessage,
): Promise<ComeBack> {
  const result = await deps.reach
    .send(page.tenant_id, page.user_id ?? '', page.contact_method_id ?? '', message)
    .catch((error: unknown) => ({
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    }));
  if (result.ok) {
    await recordPageOutcome(deps.table, page, { outcome: 'sent', error: null });
    return undefined;
  }
  const error = 'error' in result && result.error ? String(result.error) : 'not sent';
  await recordPageOutcome(deps.table, page, { outcome: 'failed', error });
  return attempt < MAX_PAGE_ATTEMPTS ? retryDelaySeconds(attempt) : undefined;
}

/**
 * Pages a person for a step due at `stepMs`: their contact plan's steps at 0 s now, each later one
 * a `page_contact` job due at its delay after the step (it looks at the incident again first). A
 * person with no verified method is logged `unreachable`.
 */
export async function pagePerson(
  deps: PersonPagingDeps,
  place: ClimbPlace,
  target: PolicyTarget,
  userId: string,
  stepMs: number,
): Promise<ComeBack> {
  const plan: ContactStep[] = await deps.reach.plan(place.incident.tenant_id, userId);
  if (plan.length === 0) {
    const page = newPage(
      place,
      `u:${userId}:none`,
      { target, user_id: userId, channel_id: null, contact_method_id: null, contact_kind: null },
      deps.clock.now(),
    );
    return recordUnsent(deps, page, 'The person has no verified contact method.');
  }
  const nowMs = deps.clock.now();
  const later = plan.filter((s) => s.after_seconds > 0);
  const asks: ComeBack[] = [];
  for (const step of plan.filter((s) => s.after_seconds === 0))
    asks.push(await pageByMethod(deps, place, target, userId, step));
  await enqueueOrThrow(
    deps.queue,
    later.map((step) => {
      const body: PageContactJob = {
        kind: 'page_contact',
        event: place.event,
        incident_id: place.incident.id,
        policy_id: place.policy.id,
        round: place.round,
        step: place.step,
        target,
        user_id: userId,
        contact_method_id: step.contact_method.id,
        after_seconds: step.after_seconds,
        due_ms: stepMs + step.after_seconds * 1000,
      };
      return dueJob(body, nowMs, pageContactJobId(body));
    }),
  );
  return latest(asks);
}

/** Logs a page that sends nothing (`unreachable`: nobody to reach), taken first as every page is. */
export async function recordUnsent(
  deps: Pick<PagingDeps, 'table' | 'clock'>,
  page: PageRecord,
  error: string,
): Promise<ComeBack> {
  const take = await takePage(deps.table, page, deps.clock.now());
  if (!take.taken) return take.retryInSeconds;
  await recordPageOutcome(deps.table, page, { outcome: 'unreachable', error });
  return undefined;
}

const pageContactJobId = (job: PageContactJob) =>
  `pgc:${job.incident_id}:${job.policy_id}:${job.round}:${job.step}:${job.user_id}:${job.contact_method_id}:${job.after_seconds}`;

/** Handles one `page_contact` job: the incident still open, the contact step is sent (once). */
export async function handlePageContact(deps: PersonPagingDeps, job: PageContactJob): Promise<void> {
  const nowMs = deps.clock.now();
  if (await waitedHop(deps.queue, job, pageContactJobId(job), nowMs)) return;
  const tenantId = job.event.tenant_id;
  const incident = await getIncident(deps.table, tenantId, job.incident_id);
  const at = { incident_id: job.incident_id, user_id: job.user_id, contact_method_id: job.contact_method_id };
  if (incident?.state !== 'open') {
    deps.logger.info(`contact step not sent: the incident is ${incident?.state ?? 'gone'}`, at);
    return;
  }
  // The method is read again by the send; the plan only says which kind it is now.
  const method = (await deps.reach.plan(tenantId, job.user_id)).find(
    (s) => s.contact_method.id === job.contact_method_id && s.after_seconds === job.after_seconds,
  );
  if (!method) {
    deps.logger.info('contact step not sent: the person no longer has it in their plan', at);
    return;
  }
  const policy = await getPolicy(deps.table, tenantId, job.policy_id);
  const place: ClimbPlace = {
    event: job.event,
    incident,
    policy: { id: job.policy_id, name: policy?.name ?? 'deleted policy' },
    round: job.round,
    step: job.step,
  };
  comeBackIfAsked(await pageByMethod(deps, place, job.target, job.user_id, method), 'contact step');
}
