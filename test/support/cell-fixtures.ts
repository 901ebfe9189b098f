import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Server as TlsServer } from 'node:tls';
import { expect } from 'vitest';
import { getCell } from '../../lib/checks/cells/cell-items.ts';
import { checkDefinitionsById, getCheckDefinition } from '../../lib/checks/check-items.ts';
import { probeDefinition } from '../../lib/checks/probe-job.ts';
import { type CellOutcome, createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { type Clock, systemClock } from '../../lib/platform/clock.ts';
import type { ProbeDefinition, Prober } from '../../lib/probes/types.ts';
import type { ApiHarness } from './api-harness.ts';

/** What the prober answers for one member: a success flag, or the outcome's fields. */
type SlotAnswer =
  | boolean
  | {
      success: boolean;
      latency_ms?: number;
      status_code?: number;
      error_message?: string;
      details?: { days_left?: number };
    };

export interface CellSlot {
  /** The slot (ms): each call needs its own, later than the cell's last applied one. */
  slotMs: number;
  /** The answer per check id of the cell's members. */
  answers: Record<string, SlotAnswer>;
  /** The answer of the members `answers` leaves out (default: success). */
  others?: SlotAnswer;
  tenantId?: string;
  /** What stamps the transitions (default: the system clock). */
  clock?: Clock;
}

/** A probe definition's identity: the prober sees definitions, not check ids. */
const probeKey = (def: ProbeDefinition) => JSON.stringify(def);

/**
 * Runs one slot of the cell holding the answered checks, as a worker runs a cell job (the real
 * cell runner: results item, cell state, transitions, entity aggregates), with a prober answering
 * each member by its check id. The prober only sees probe definitions, so members that must answer
 * differently need different targets; the fixture refuses an ambiguous slot rather than guess.
 */
export async function runCellSlot(
  api: Pick<ApiHarness, 'table' | 'app' | 'tenantId'>,
  slot: CellSlot,
): Promise<CellOutcome> {
  const tenantId = slot.tenantId ?? api.tenantId;
  const [first] = Object.keys(slot.answers);
  if (!first) throw new Error('a slot answers for at least one check');
  const place = (await getCheckDefinition(api.table, tenantId, first, { consistent: true }))?.cell;
  if (!place) throw new Error(`check ${first} runs in no cell (a disabled or push check has none)`);
  const cell = await getCell(api.table, place.shard, place.cell_id);
  if (!cell) throw new Error(`cell ${place.cell_id} is missing`);
  for (const id of Object.keys(slot.answers)) {
    if (!(id in cell.members)) throw new Error(`check ${id} is not a member of cell ${cell.id}`);
  }

  const byKey = new Map<string, SlotAnswer>();
  for (const member of await checkDefinitionsById(api.table, tenantId, Object.keys(cell.members))) {
    const probe = probeDefinition(member);
    if (!probe) continue;
    const answer = slot.answers[member.id] ?? slot.others ?? true;
    const key = probeKey(probe);
    const known = byKey.get(key);
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(answer)) {
      throw new Error(`members of cell ${cell.id} probe the same target but answer differently`);
    }
    byKey.set(key, answer);
  }
  const prober: Prober = async (def) => {
    const answer = byKey.get(probeKey(def));
    if (answer === undefined) throw new Error('probed a target the slot has no answer for');
    const outcome = typeof answer === 'boolean' ? { success: answer } : answer;
    return {
      startedMs: slot.slotMs,
      outcome: {
        success: outcome.success,
        status_code: outcome.status_code ?? 0,
        latency_ms: outcome.latency_ms ?? 10,
        error_message: outcome.error_message ?? (outcome.success ? '' : 'connection refused'),
        ...(typeof answer === 'object' && answer.details ? { details: answer.details } : {}),
      },
    };
  };

  return runSlotWith(api, prober, { tenantId, cell, slotMs: slot.slotMs, clock: slot.clock });
}

async function runSlotWith(
  api: Pick<ApiHarness, 'table' | 'app'>,
  prober: Prober,
  slot: { tenantId: string; cell: { id: string; shard: number }; slotMs: number; clock?: Clock | undefined },
): Promise<CellOutcome> {
  const runner = createCellRunner({
    table: api.table,
    prober,
    tenants: api.app.tenants,
    clock: slot.clock ?? systemClock,
  });
  const outcome = await runner.run({
    kind: 'cell',
    tenant_id: slot.tenantId,
    cell_id: slot.cell.id,
    shard: slot.cell.shard,
    slot_ms: slot.slotMs,
  });
  expect(outcome.status).toBe('recorded');
  return outcome;
}

/**
 * Runs slot `slotMs` of the cell holding `checkId` with a real prober (real targets on 127.0.0.1):
 * the cell runner as a worker runs it, every member probed for real.
 */
export async function probeCellSlot(
  api: Pick<ApiHarness, 'table' | 'app' | 'tenantId'>,
  prober: Prober,
  checkId: string,
  slotMs: number,
): Promise<CellOutcome> {
  const place = (await getCheckDefinition(api.table, api.tenantId, checkId, { consistent: true }))?.cell;
  if (!place) throw new Error('the check runs in no cell');
  const cell = await getCell(api.table, place.shard, place.cell_id);
  if (!cell) throw new Error('no cell');
  return runSlotWith(api, prober, { tenantId: api.tenantId, cell, slotMs });
}

/** Listens on 127.0.0.1 at a port the system picks; answers the port. */
export async function listenOnLoopback(server: Server | TlsServer): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not on TCP');
  return address.port;
}
