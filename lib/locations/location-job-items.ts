import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { transactIf } from '../store/items.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of the `location_job` items: one slot of one located check waiting for one location's
 * agent (lib/agent), in that location's partition `LOCJOBS#<tnt>#<location name>`, ordered by slot.
 * Put by the check's probe job (lib/checks/probe-job.ts), leased by the location's agents
 * (POST /v1/agent/lease: a conditional move of `leased_until_ms`), deleted with the location's
 * result (POST /v1/agent/results), and expiring a day after the slot's deadline if nobody did.
 */

const locationJobSchema = z.object({
  tenant_id: z.string(),
  /** The location's name (checks name their locations by name). */
  location: z.string(),
  check_id: z.string(),
  slot_ms: z.number().int(),
  /** After this the slot is decided without this location: the job is no longer leased. */
  deadline_ms: z.number().int(),
  /** Leased until then (0: never leased); after it another agent of the location may lease it. */
  leased_until_ms: z.number().int(),
  /** A manual run's slot (POST /v1/checks/{id}/run): the location's result is stored marked. */
  manual: z.literal(true).optional(),
});
export type LocationJobRecord = z.infer<typeof locationJobSchema>;

/** Slots in sort keys: zero-padded epoch milliseconds, so keys sort by time. */
const slotKey = (slotMs: number) => String(slotMs).padStart(15, '0');

const locationJob = defineItem({
  type: itemType('location_job'),
  schema: locationJobSchema,
  key: (k: { tenant_id: string; location: string; check_id: string; slot_ms: number }) => ({
    pk: `LOCJOBS#${k.tenant_id}#${k.location}`,
    sk: `${slotKey(k.slot_ms)}#${k.check_id}`,
  }),
  // Nobody needs a job a day past its deadline: it expires (the local sweeper, DynamoDB's TTL).
  ttl: (r) => Math.floor(r.deadline_ms / 1000) + 86_400,
  docKey: {
    tenant_id: '<tnt>',
    location: '<location name>',
    slot_ms: '<slot ms, 15 digits>',
    check_id: '<chk>',
  },
});

/** The put of a new job; fails (itemNotExists) when the slot's job for that location is there. */
export function locationJobOp(job: LocationJobRecord): WriteOp {
  return locationJob.put(job, { kind: 'itemNotExists' });
}

/** The delete of a job (with its location's result); no condition: it may have expired meanwhile. */
export function locationJobDeleteOp(
  tenantId: string,
  location: string,
  checkId: string,
  slotMs: number,
): WriteOp {
  return locationJob.delete({ tenant_id: tenantId, location, check_id: checkId, slot_ms: slotMs });
}

/** One job, or undefined (consistent). */
export function getLocationJob(
  table: Table,
  tenantId: string,
  location: string,
  checkId: string,
  slotMs: number,
): Promise<LocationJobRecord | undefined> {
  return locationJob.get(
    table,
    { tenant_id: tenantId, location, check_id: checkId, slot_ms: slotMs },
    { consistent: true },
  );
}

/** Jobs read per lease query: enough to pass over leased ones to free ones behind them. */
const LEASE_SCAN = 200;

/**
 * How long a job is leased: a fixed length, or one per job (the caller reads the job's check);
 * `undefined` drops the job (deleted: its check no longer probes from this location).
 */
export type LeaseLength = number | ((job: LocationJobRecord) => Promise<number | undefined>);

/**
 * Leases up to `max` of the location's jobs that are due (slot ≤ now), before their deadline and
 * not leased (or whose lease ran out): each is taken by a conditional update of its
 * `leased_until_ms` (at most until its deadline), so two agents of one location never both take
 * it. Jobs past their deadline are deleted on sight (their slot is decided without them), and so
 * are jobs `leaseMs` drops.
 */
export async function leaseLocationJobs(
  table: Table,
  input: { tenantId: string; location: string; nowMs: number; max: number; leaseMs: LeaseLength },
): Promise<LocationJobRecord[]> {
  const page = await table.query({
    pk: `LOCJOBS#${input.tenantId}#${input.location}`,
    sk: { op: '<', value: `${slotKey(input.nowMs + 1)}#` },
    limit: LEASE_SCAN,
    consistent: true,
  });
  const jobs = page.items.map((item) => locationJob.parse(item));
  const leased: LocationJobRecord[] = [];
  for (const job of jobs) {
    if (leased.length >= input.max) break;
    const key = {
      tenant_id: job.tenant_id,
      location: job.location,
      check_id: job.check_id,
      slot_ms: job.slot_ms,
    };
    if (job.deadline_ms <= input.nowMs) {
      await table.transact([locationJob.delete(key)]);
      continue;
    }
    if (job.leased_until_ms > input.nowMs) continue;
    const leaseMs = typeof input.leaseMs === 'number' ? input.leaseMs : await input.leaseMs(job);
    if (leaseMs === undefined) {
      await table.transact([locationJob.delete(key)]);
      continue;
    }
    const until = Math.min(input.nowMs + leaseMs, job.deadline_ms);
    const taken = await transactIf(table, [
      locationJob.update(key, {
        set: { leased_until_ms: until },
        condition: { kind: 'compare', attr: 'leased_until_ms', op: '=', value: job.leased_until_ms },
      }),
    ]);
    if (taken) leased.push({ ...job, leased_until_ms: until });
  }
  return leased;
}
