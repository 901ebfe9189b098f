import { setTimeout as sleep } from 'node:timers/promises';
import type { LeaseRequest } from '../agent/protocol.ts';
import { probeDefinition } from '../checks/probe-job.ts';
import type { CheckStore } from '../checks/services.ts';
import type { LocationPrincipal } from '../domain/principal.ts';
import { locationsOf } from '../domain/states.ts';
import type { Clock } from '../platform/clock.ts';
import type { ProbeDefinition } from '../probes/types.ts';
import type { Table } from '../store/table.ts';
import { type LocationJobRecord, leaseLocationJobs } from './location-job-items.ts';

/** Between two reads of the location's jobs while a lease waits for one. */
const LEASE_POLL_MS = 500;
/** A job is leased for its check's timeout and this much more (posting, clocks), at most to its deadline. */
const LEASE_MARGIN_MS = 15_000;

/** A leased job as the agent protocol sends it (lib/agent/protocol.ts leasedJobSchema). */
export interface LeasedJob {
  job_id: string;
  slot: number;
  check: ProbeDefinition;
}

/** A location job's id on the wire: `<check id>:<slot ms>`; with the location, a result's idempotency key. */
function locationJobId(checkId: string, slotMs: number): string {
  return `${checkId}:${slotMs}`;
}

/** The check and slot a wire job id names; undefined when it is not one. */
export function parseLocationJobId(jobId: string): { checkId: string; slotMs: number } | undefined {
  const match = /^(chk_[0-9A-Z]{26}):(\d{1,15})$/.exec(jobId);
  if (!match?.[1] || !match[2]) return undefined;
  return { checkId: match[1], slotMs: Number(match[2]) };
}

export interface LeaseServiceDeps {
  table: Table;
  checks: Pick<CheckStore, 'run'>;
  clock: Clock;
  /** How the long-poll waits between reads (tests may pass their own); default Node's timers. */
  sleep?: (ms: number) => Promise<unknown>;
  /** Aborted when the runtime stops: a waiting lease answers what it has (nothing) at once. */
  stopping?: AbortSignal;
}

/**
 * `POST /v1/agent/lease`: a location's due jobs, each with the probe config of its check (the
 * check read now, so an edit since the slot was queued is probed as edited). A job whose check was
 * deleted or disabled, or no longer probes from this location, is deleted instead of leased.
 * With nothing to lease, the read is repeated every LEASE_POLL_MS until `wait_seconds` passed (a
 * bounded number of reads, whatever the clock says): the agent's long-poll. Its 20 s at most
 * (MAX_WAIT_SECONDS) stay inside the API function's 29 s timeout and API Gateway's 30 s.
 */
export function createLeaseService(deps: LeaseServiceDeps) {
  const stopping = deps.stopping;
  // A stop ends the pause at once (the rejection is the stop, not an error); the loop then answers.
  const pause = (ms: number) =>
    stopping
      ? (deps.sleep ?? sleep)(ms, undefined, { signal: stopping }).catch(() => undefined)
      : (deps.sleep ?? sleep)(ms);

  const leaseOnce = async (location: LocationPrincipal, max: number): Promise<LeasedJob[]> => {
    const probes = new Map<string, ProbeDefinition>();
    const leaseMs = async (job: LocationJobRecord) => {
      const check = (await deps.checks.run(job.tenant_id, job.check_id))?.definition;
      if (!check?.enabled || !locationsOf(check).includes(job.location)) return undefined;
      const probe = probeDefinition(check);
      if (!probe) return undefined;
      probes.set(locationJobId(job.check_id, job.slot_ms), probe);
      return check.timeout_ms + LEASE_MARGIN_MS;
    };
    const leased = await leaseLocationJobs(deps.table, {
      tenantId: location.tenantId,
      location: location.locationName,
      nowMs: deps.clock.now(),
      max,
      leaseMs,
    });
    return leased.flatMap((job) => {
      const id = locationJobId(job.check_id, job.slot_ms);
      const check = probes.get(id);
      return check ? [{ job_id: id, slot: job.slot_ms, check }] : [];
    });
  };

  return {
    async lease(location: LocationPrincipal, request: LeaseRequest): Promise<LeasedJob[]> {
      const waitMs = request.wait_seconds * 1000;
      for (let waited = 0; ; waited += LEASE_POLL_MS) {
        const jobs = await leaseOnce(location, request.max);
        if (jobs.length > 0 || waited >= waitMs || stopping?.aborted) return jobs;
        await pause(Math.min(LEASE_POLL_MS, waitMs - waited));
      }
    },
  };
}

export type LeaseService = ReturnType<typeof createLeaseService>;
