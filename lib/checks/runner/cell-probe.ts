import type { CheckDefinitionRecord } from '../../check-types/check-record.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Prober } from '../../probes/types.ts';
import type { ArtifactStore } from '../artifacts/artifact-store.ts';
import type { CellResultEntry } from '../cells/cell-result-items.ts';
import { probeDefinition } from '../probe-job.ts';
import { detailsWithEvidence } from '../results/evidence.ts';
import { slotResultId } from '../results/result-recorder.ts';

/** Each member's prober (locally: bounded, with the scheduler's hooks; else the runtime's one). */
export type ProberFor = (checkId: string) => Prober;

/** Where a slot's screenshots go (none: a runtime that keeps no evidence stores only the steps). */
export interface EvidenceDeps {
  artifacts?: ArtifactStore | undefined;
  logger: Logger;
}

/**
 * Probes a slot's members together: each one's result entry, its start as an offset from the slot.
 * A member's screenshots are stored under its slot's result id (the id the results API shows:
 * cell-view.ts entryResult) before the slot's results are, and its details list them.
 */
export const probeMembers = async (
  members: CheckDefinitionRecord[],
  slotMs: number,
  proberFor: ProberFor,
  evidence: EvidenceDeps,
) =>
  Promise.all<CellResultEntry>(
    members.flatMap((member) => {
      const probe = probeDefinition(member);
      if (!probe) return [];
      return [
        proberFor(member.id)(probe).then(async ({ outcome, startedMs }) => {
          const scope = {
            tenantId: member.tenant_id,
            checkId: member.id,
            resultId: slotResultId(member.id, slotMs),
          };
          const details = await detailsWithEvidence(evidence, scope, outcome);
          return {
            c: member.id,
            ok: outcome.success,
            ...(outcome.degraded ? { g: true } : {}),
            s: outcome.status_code,
            l: Math.max(0, Math.round(outcome.latency_ms)),
            o: startedMs - slotMs,
            ...(outcome.error_message ? { e: outcome.error_message } : {}),
            ...(details ? { d: details } : {}),
          };
        }),
      ];
    }),
  );
