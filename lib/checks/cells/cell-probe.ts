import type { CheckDefinitionRecord } from '../../check-types/check-record.ts';
import type { Prober } from '../../probes/types.ts';
import { probeDefinition } from '../probe-job.ts';
import type { CellResultEntry } from './cell-result-items.ts';

/** Each member's prober (locally: bounded, with the scheduler's hooks; else the runtime's one). */
export type ProberFor = (checkId: string) => Prober;

/** Probes a slot's members together: each one's result entry, its start as an offset from the slot. */
export const probeMembers = async (members: CheckDefinitionRecord[], slotMs: number, proberFor: ProberFor) =>
  Promise.all<CellResultEntry>(
    members.flatMap((member) => {
      const probe = probeDefinition(member);
      if (!probe) return [];
      return [
        proberFor(member.id)(probe).then(({ outcome, startedMs }) => ({
          c: member.id,
          ok: outcome.success,
          ...(outcome.degraded ? { g: true } : {}),
          s: outcome.status_code,
          l: Math.max(0, Math.round(outcome.latency_ms)),
          o: startedMs - slotMs,
          ...(outcome.error_message ? { e: outcome.error_message } : {}),
          ...(outcome.details ? { d: { ...outcome.details } } : {}),
        })),
      ];
    }),
  );
