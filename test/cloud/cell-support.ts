import * as z from 'zod';
import { getCell } from '../../lib/checks/cells/cell-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { type ProbeJob, probeJobId, probeJobSchema } from '../../lib/checks/probe-job.ts';
import { type CellJob, cellJobId, cellJobSchema } from '../../lib/checks/runner/cell-runner.ts';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { nextCellSlot } from '../../lib/domain/schedules/cell-slots.ts';
import type { CloudHarness } from './support.ts';

/**
 * Probe-queue jobs on the cell layout: enabled pull checks run as members of a cell (one `cell`
 * job per cell and slot), push checks keep their per-check `deadman` jobs.
 */

/** What the generator and the API send to the probe queue (the browser function's results aside). */
export type WorkerJob = CellJob | ProbeJob;
const sentJobSchema = z.union([cellJobSchema, probeJobSchema]);

/** The job a probe-queue message carries (the `{id, body}` envelope, parsed as the worker parses it). */
export function workerJobOf(messageBody: string | undefined): WorkerJob & { job_id: string } {
  const envelope = jobEnvelopeSchema.parse(JSON.parse(String(messageBody)));
  return { ...sentJobSchema.parse(envelope.body), job_id: envelope.id };
}

/** A message body as the generator sends a cell or a deadman job. */
export function workerMessageBody(job: WorkerJob): string {
  return JSON.stringify({ id: job.kind === 'cell' ? cellJobId(job) : probeJobId(job), body: job });
}

/** The cell an enabled pull check runs in, as its definition places it. */
async function cellOf(h: CloudHarness, checkId: string) {
  const place = (await getCheckDefinition(h.table, h.tenantId, checkId, { consistent: true }))?.cell;
  if (!place) throw new Error(`check ${checkId} runs in no cell`);
  const cell = await getCell(h.table, place.shard, place.cell_id);
  if (!cell) throw new Error(`cell ${place.cell_id} is missing`);
  return cell;
}

/**
 * The job of the `nth` slot (0: the first at or after `fromMs`, default: now) of the cell
 * holding `checkId`: what the generator sends for it.
 */
export async function cellJobFor(
  h: CloudHarness,
  checkId: string,
  nth = 0,
  fromMs?: number,
): Promise<CellJob> {
  const cell = await cellOf(h, checkId);
  const first = nextCellSlot(cell, fromMs ?? h.clock.now());
  return {
    kind: 'cell',
    tenant_id: cell.tenant_id,
    cell_id: cell.id,
    shard: cell.shard,
    slot_ms: first + nth * cell.interval_seconds * 1000,
  };
}

/** A push check's dead man's switch job for `slotMs` (the check never reported: no last result). */
export const deadmanJob = (h: CloudHarness, checkId: string, slotMs: number): ProbeJob => ({
  tenant_id: h.tenantId,
  check_id: checkId,
  kind: 'deadman',
  slot_ms: slotMs,
  last_result_at: null,
});

/** The check's results as the api shows them (newest first): a cell member's come from its cell's slots. */
export async function apiResults(h: CloudHarness, checkId: string): Promise<Record<string, unknown>[]> {
  const response = await h.api('GET', `/v1/checks/${checkId}/results`);
  if (response.status !== 200) throw new Error(`results: ${response.status}`);
  return response.body.results;
}
