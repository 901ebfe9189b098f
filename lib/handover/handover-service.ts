import { listUsers } from '../auth/records.ts';
import type { ContactReach } from '../contacts/reach.ts';
import { type IncidentRecord, readRecentIncidents } from '../incidents/incident-items.ts';
import { handoffAt } from '../oncall/handoffs.ts';
import {
  type HandoverJob,
  type HandoverJobQueue,
  handoverHop,
  nextHandoverJob,
} from '../oncall/handover-jobs.ts';
import { getSchedule, type ScheduleRecord } from '../oncall/schedule-items.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { JobInput } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import type { WhoService } from '../teams/who-service.ts';
import {
  claimHandover,
  type HandoverClaimKey,
  handoverSent,
  releaseHandover,
} from './handover-claim-items.ts';
import { handoverMessage, type SummaryInput } from './handover-summary.ts';

export interface HandoverDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  queue: HandoverJobQueue;
  reach: Pick<ContactReach, 'first' | 'send'>;
  /** Who is on call for an entity (its owning teams' schedules): which incidents concern a schedule. */
  who: Pick<WhoService, 'whoIsOnCall'>;
}

/** Incidents read (newest first) to find those a summary lists. */
const SCAN = 500;
/** Incidents a part keeps at most (each is checked against the schedule's teams). */
const KEEP = 100;

/**
 * The handover job (issue 55 item 6, docs/on-call.md "Handover"): once its handoff is due it
 * enqueues the chain's next handoff (while the schedule is the version that scheduled it), then,
 * if the moment is still a handoff of the schedule as it is now, tells the outgoing and the
 * incoming person a short summary by their first verified contact method. Each person's summary
 * of a handoff is claimed before it is sent, so redeliveries and two chains tell nobody twice.
 */
export function createHandoverService(deps: HandoverDeps) {
  const { table, clock } = deps;

  const enqueue = async (job: JobInput<HandoverJob>, what: string) => {
    const { failed } = await deps.queue.enqueue([job]);
    if (failed.length > 0) throw new Error(`${what} could not be enqueued`);
  };

  /** Whether the schedule is some team's rota; then the incidents of the entities those teams own. */
  const concernsOf = async (schedule: ScheduleRecord) => {
    const usesIt = (rows: { path: { schedule: { id: string } | null } }[]) =>
      rows.some((row) => row.path.schedule?.id === schedule.id);
    const teams = await deps.who.whoIsOnCall(schedule.tenant_id, {});
    if (!usesIt(teams.on_call)) return { scope: 'account' as const, keep: async () => true };
    const byEntity = new Map<string, Promise<boolean>>();
    const keep = (record: IncidentRecord) => {
      let kept = byEntity.get(record.entity_id);
      if (!kept) {
        kept = deps.who
          .whoIsOnCall(schedule.tenant_id, { entity_id: record.entity_id })
          .then((answer) => usesIt(answer.on_call))
          .catch((error: unknown) => {
            if (error instanceof NotFoundError) return false;
            throw error;
          });
        byEntity.set(record.entity_id, kept);
      }
      return kept;
    };
    return { scope: 'owners' as const, keep };
  };

  /** The newest incidents `match` accepts (at most KEEP of the SCAN newest) that concern the schedule. */
  const incidents = async (
    tenantId: string,
    match: (r: IncidentRecord) => boolean,
    concerns: (r: IncidentRecord) => Promise<boolean>,
  ): Promise<IncidentRecord[]> => {
    const found = await readRecentIncidents(table, tenantId, { want: KEEP, scan: SCAN, keep: match });
    const kept: IncidentRecord[] = [];
    for (const record of found) if (await concerns(record)) kept.push(record);
    return kept;
  };

  /** Sends one person's summary once: claimed first; a failed send releases its claim and says so. */
  const tell = async (
    key: HandoverClaimKey,
    message: (deliveryId: string) => ReturnType<typeof handoverMessage>,
  ): Promise<boolean> => {
    const method = await deps.reach.first(key.tenant_id, key.user_id);
    if (!method) {
      deps.logger.info('handover summary not sent: the person has no verified contact method', {
        scheduleId: key.schedule_id,
        userId: key.user_id,
      });
      return true;
    }
    const at = isoTime(clock.now());
    if (!(await claimHandover(table, key, { method_id: method.id, at }))) return true;
    const deliveryId = `hov-${key.schedule_id}-${key.handoff_s}-${key.user_id}`;
    const sent = await deps.reach.send(key.tenant_id, key.user_id, method.id, message(deliveryId));
    if (sent.ok) {
      await handoverSent(table, key, at);
      return true;
    }
    deps.logger.warn('handover summary not sent; the job tries again', {
      scheduleId: key.schedule_id,
      userId: key.user_id,
      kind: method.kind,
      error: sent.error,
    });
    await releaseHandover(table, key);
    return false;
  };

  const due = async (job: HandoverJob) => {
    const schedule = await getSchedule(table, job.tenant_id, job.schedule_id);
    if (!schedule) return; // deleted: its chain ends here
    // Only the version that scheduled this chain goes on; a later write started its own from then.
    if (schedule.version === job.version)
      await enqueue(nextHandoverJob(schedule, job.due_ms, clock.now()), 'the next handover');
    const handoff = handoffAt(schedule, job.due_ms);
    if (!handoff) return;
    const concerns = await concernsOf(schedule);
    const [open, openedInShift, users] = await Promise.all([
      incidents(job.tenant_id, (r) => r.state !== 'resolved', concerns.keep),
      incidents(
        job.tenant_id,
        (r) => Date.parse(r.opened_at) >= handoff.since && Date.parse(r.opened_at) < handoff.at,
        concerns.keep,
      ),
      listUsers(table, job.tenant_id),
    ]);
    const input: Omit<SummaryInput, 'role'> = {
      scheduleName: schedule.name,
      timeZone: schedule.time_zone,
      handoff,
      users,
      scope: concerns.scope,
      open,
      openedInShift,
    };
    const people = [
      { role: 'outgoing' as const, userId: handoff.outgoing },
      { role: 'incoming' as const, userId: handoff.incoming },
    ].filter((p): p is { role: 'outgoing' | 'incoming'; userId: string } => p.userId !== null);
    const told = await Promise.all(
      people.map(({ role, userId }) =>
        tell(
          {
            tenant_id: job.tenant_id,
            schedule_id: schedule.id,
            handoff_s: Math.floor(handoff.at / 1000),
            user_id: userId,
          },
          (deliveryId) => handoverMessage({ ...input, role }, deliveryId),
        ),
      ),
    );
    if (told.includes(false)) throw new Error('a handover summary could not be sent');
  };

  return {
    /** Runs one handover job; throws to have the queue bring it back. */
    async handle(job: HandoverJob): Promise<void> {
      const nowMs = clock.now();
      if (job.due_ms > nowMs) {
        await enqueue(handoverHop(job, nowMs), 'the next hop of a handover');
        return;
      }
      await due(job);
    },
  };
}
