import type { ActionStore } from './actions/action-store.ts';
import type { ExecutionStore } from './actions/execution-store.ts';
import { stateChangeExecutionId } from './actions/job-ids.ts';
import { tenantRetentionDays } from './compose-feed.ts';
import type { InMaintenance } from './incidents/incident-consumer.ts';
import type { IncidentRecord } from './incidents/incident-items.ts';
import { createIncidentService } from './incidents/incident-service.ts';
import type { TimelineEntry, TimelineSources } from './incidents/timeline.ts';
import type { NotifyJob } from './notify/jobs.ts';
import { acknowledgeJob, readEntityDeliveriesBetween } from './notify/records.ts';
import type { Clock } from './platform/clock.ts';
import type { JobQueue } from './platform/job-queue.ts';
import type { Logger } from './platform/logger.ts';
import type { CursorSeal } from './store/cursor-seal.ts';
import type { Table } from './store/table.ts';

/**
 * Incidents composed with what their timelines read from other features: delivery records
 * (lib/notify) and executions of state_change actions (lib/actions). Here at the root, since both
 * of those build on lib/incidents (repeats and escalation read the open incident), never the reverse.
 */
export function composeIncidents(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  cursors: CursorSeal;
  actions: Pick<ActionStore, 'listForCheck'>;
  executions: Pick<ExecutionStore, 'get'>;
  inMaintenance?: InMaintenance | undefined;
  /** Where an acknowledgement's job goes (the providers that track incidents are told: lib/notify/pipeline/acknowledge.ts). */
  notifyQueue?: JobQueue<NotifyJob> | undefined;
}) {
  const sources: TimelineSources = {
    async alerts(tenantId, input) {
      const read = await readEntityDeliveriesBetween(deps.table, tenantId, input);
      const entries = read.deliveries
        .filter(
          // A digest names no transition (its folded alerts do, status `folded`).
          (d): d is typeof d & { kind: 'alert' | 'repeat' | 'escalation' } =>
            d.kind !== 'test' &&
            d.kind !== 'digest' &&
            d.kind !== 'acknowledge' &&
            d.transition_id !== null &&
            input.transitionIds.has(d.transition_id),
        )
        .map(
          (d): TimelineEntry => ({
            type: 'alert',
            at: d.sent_at ?? d.created_at,
            delivery_id: d.id,
            kind: d.kind,
            status: d.status,
            reason: d.reason,
            channel_id: d.channel_id,
            channel_type: d.channel_type,
          }),
        );
      return { entries, truncated: read.truncated };
    },
    async actionRuns(tenantId, transitions) {
      // An execution of a transition has an id derived from it and the action (lib/actions/job-ids.ts).
      const byCheck = new Map<string, Awaited<ReturnType<ActionStore['listForCheck']>>>();
      for (const checkId of new Set(transitions.map((t) => t.check_id)))
        byCheck.set(checkId, await deps.actions.listForCheck(checkId));
      const ids = transitions.flatMap((t) =>
        (byCheck.get(t.check_id) ?? [])
          .filter((a) => a.tenant_id === tenantId)
          .map((a) => stateChangeExecutionId(Date.parse(t.created_at), t.id, a.id)),
      );
      const found = await Promise.all(ids.map((id) => deps.executions.get(id)));
      return found.flatMap((e): TimelineEntry[] =>
        e && e.tenant_id === tenantId
          ? [
              {
                type: 'action',
                at: e.created_at,
                execution_id: e.id,
                action_id: e.action_id,
                dispatch_status: e.dispatch_status,
                status_code: e.status_code,
              },
            ]
          : [],
      );
    },
  };
  const queue = deps.notifyQueue;
  const onAcknowledged = queue
    ? async (record: IncidentRecord) => {
        // The acknowledgement stands either way: a queue outage only keeps the providers from hearing of it.
        const { failed } = await queue
          .enqueue([acknowledgeJob(record)])
          .catch(() => ({ failed: [record.id] }));
        if (failed.length > 0)
          deps.logger.error('acknowledgement not queued for its channels', { incident_id: record.id });
      }
    : undefined;
  return createIncidentService({
    ...deps,
    sources,
    retentionDays: tenantRetentionDays(deps.table),
    onAcknowledged,
  });
}
