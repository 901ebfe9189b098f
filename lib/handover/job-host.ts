import { createEntityStore } from '../catalog/entities.ts';
import { type ContactReachDeps, createContactReach } from '../contacts/reach.ts';
import { getPolicy } from '../escalation/policy-items.ts';
import type { HandoverJobQueue } from '../oncall/handover-jobs.ts';
import { createScheduleService } from '../oncall/schedule-service.ts';
import { defineJobHost } from '../platform/feature.ts';
import type { Logger } from '../platform/logger.ts';
import { createWhoService } from '../teams/who-service.ts';
import { handoverFeature } from './feature.ts';
import { createHandoverService } from './handover-service.ts';

/**
 * Handover summaries (issue 55 item 6) as the notify queue's host runs them: each `handover` job
 * tells a schedule's outgoing and incoming people by their first contact method, who is on call
 * read as the who_is_on_call tool reads it (teams' escalation policies included). It sits above
 * lib/contacts, lib/oncall and lib/teams (none of them imports it).
 */
export const handoverJobHost = defineJobHost({
  feature: handoverFeature,
  queue: 'notify',
  handler(ports: ContactReachDeps & { logger: Logger; queue: HandoverJobQueue }) {
    const { table, clock } = ports;
    const handover = createHandoverService({
      table,
      clock,
      logger: ports.logger.child({ component: 'handover' }),
      queue: ports.queue,
      reach: createContactReach(ports),
      who: createWhoService({
        table,
        clock,
        entities: createEntityStore(table),
        schedules: createScheduleService({ table, clock }),
        policies: { get: (tenantId, id) => getPolicy(table, tenantId, id) },
      }),
    });
    return (job) => handover.handle(job.body);
  },
});
