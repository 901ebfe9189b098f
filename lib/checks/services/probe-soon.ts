import type { CheckDefinitionRecord, CheckRecord } from '../../check-types/check-record.ts';
import { runsAlone } from '../../check-types/registry.ts';
import { locationsOf, probesFromLocations, quorumOf } from '../../domain/states.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import { type ProbeJob, probeDefinition } from '../probe-job.ts';
import type { CellJob } from '../runner/cell-runner.ts';
import type { CheckService } from './check-service.ts';

/** A one-off probe of one check: a member's own cell slot, or a located or browser check's extra slot. */
export type OneOffJob = CellJob | ProbeJob;

/**
 * Queues a one-off job to run now (the runtime's probe queue: the local SQLite queue, SQS in the
 * cloud), its queue id the job's idempotency key (cellJobId, probeJobId).
 */
export type ProbeSoon = (job: OneOffJob) => Promise<void>;

/**
 * The one-off job probing `check` at `atMs`: in its cell (a slot of its own, the cell's regular
 * slots untouched), or, for a located check, a slot fanned out to its locations (for a browser
 * check, a slot of its own). None for a
 * disabled or push check (push checks are never probed).
 */
export function oneOffJob(check: CheckRecord, atMs: number, manual = false): OneOffJob | undefined {
  if (!check.enabled || check.execution_mode !== 'pull' || !probeDefinition(check)) return undefined;
  const flag = manual ? { manual: true as const } : {};
  if (check.cell) {
    const { cell_id, shard } = check.cell;
    return {
      kind: 'cell',
      tenant_id: check.tenant_id,
      cell_id,
      shard,
      slot_ms: atMs,
      check_id: check.id,
      ...flag,
    };
  }
  // A check outside cells: a located one's slot fans out, a browser check's runs alone.
  if (!probesFromLocations(check) && !runsAlone(check.check_type)) return undefined;
  // Off the check's own next slot, whose job would otherwise find this one's results.
  const slotMs = check.next_run_at && Date.parse(check.next_run_at) === atMs ? atMs + 1 : atMs;
  return { tenant_id: check.tenant_id, check_id: check.id, kind: 'probe', slot_ms: slotMs, ...flag };
}

/** What a probe of the check is: its request and expectations and where it runs (not its name). */
const probeShape = (check: CheckDefinitionRecord) =>
  JSON.stringify([probeDefinition(check) ?? null, locationsOf(check), quorumOf(check)]);

/**
 * Whether a write makes the check worth probing at once: it is new, was enabled, or what it
 * probes changed (target, method, assertions, locations...); a rename or an interval alone is not.
 */
function wantsOneOff(before: CheckDefinitionRecord | undefined, after: CheckRecord): boolean {
  if (!after.enabled || after.execution_mode !== 'pull') return false;
  if (!before?.enabled || before.execution_mode !== 'pull') return true;
  return probeShape(before) !== probeShape(after);
}

export interface FirstProbeDeps {
  clock: Clock;
  logger: Logger;
  /** Absent: no probe queue here, a check waits for its first slot. */
  probeSoon?: ProbeSoon | undefined;
  /** Config.firstProbe: false leaves new checks to their slots (manual runs still dispatch). */
  firstProbe?: boolean | undefined;
}

/**
 * The check service whose create and update queue the check's one-off probe when the write calls
 * for one (wantsOneOff). The write stands if the queue fails: the check's regular slots probe it.
 */
export function withFirstProbe(service: CheckService, deps: FirstProbeDeps): CheckService {
  const { probeSoon } = deps;
  if (!probeSoon || deps.firstProbe === false) return service;
  const queue = async (before: CheckDefinitionRecord | undefined, after: CheckRecord) => {
    const job = wantsOneOff(before, after) ? oneOffJob(after, deps.clock.now()) : undefined;
    if (!job) return;
    try {
      await probeSoon(job);
    } catch (err) {
      deps.logger.warn('first probe not queued; the check waits for its slot', { check_id: after.id, err });
    }
  };
  return {
    ...service,
    async create(tenantId, body) {
      const check = await service.create(tenantId, body);
      await queue(undefined, check);
      return check;
    },
    async update(tenantId, checkId, patch) {
      // The definition before the write (an API write's extra read, never a slot's).
      const before = (await service.requireRun(tenantId, checkId)).definition;
      const check = await service.update(tenantId, checkId, patch);
      await queue(before, check);
      return check;
    },
  };
}
