import type { Rota } from '../domain/schedules.ts';
import { type FinalShift, finalShifts } from './final-schedule.ts';

/**
 * Handoffs of a final schedule (pure; issue 55 item 6): the instants where the person on call
 * changes (to someone else, or to nobody, or from nobody). Two shifts of one person back to back
 * (a layer's then an override's) are no handoff.
 */

/** How far one look for the next handoff reaches; past it the handover chain looks again from there. */
export const HANDOFF_HORIZON_MS = 35 * 24 * 3_600_000;

/** A handoff: who was on call just before `at` (null: nobody) and who is from `at` on. */
export interface Handoff {
  at: number;
  outgoing: string | null;
  incoming: string | null;
  /** Since when the outgoing person was on call without a break (or, for nobody, since the last shift ended). */
  since: number;
}

/** Who is on call at `t` among `shifts` (sorted, disjoint), or null. */
function whoAt(shifts: readonly FinalShift[], t: number): string | null {
  return shifts.find((s) => s.start <= t && t < s.end)?.user_id ?? null;
}

/** The times in (after, to) where a shift starts or ends, ascending. */
function edgesOf(shifts: readonly FinalShift[], after: number, to: number): number[] {
  const edges = new Set<number>();
  for (const s of shifts) edges.add(s.start).add(s.end);
  return [...edges].filter((t) => t > after && t < to).sort((a, b) => a - b);
}

/** The handoff at exactly `at`, or undefined when the person on call does not change then. */
export function handoffAt(rota: Rota, at: number): Handoff | undefined {
  const from = at - HANDOFF_HORIZON_MS;
  const shifts = finalShifts(rota, from, at + 1);
  const outgoing = whoAt(shifts, at - 1);
  const incoming = whoAt(shifts, at);
  if (outgoing === incoming) return undefined;
  // Back from `at` while the one before stays `outgoing` (a person's shifts back to back are one).
  let since = from;
  for (const t of edgesOf(shifts, from, at).reverse()) {
    if (whoAt(shifts, t - 1) !== outgoing) {
      since = t;
      break;
    }
  }
  return { at, outgoing, incoming, since };
}

/** The first instant after `after` (within HANDOFF_HORIZON_MS) where the person on call changes. */
export function nextHandoffTime(rota: Rota, after: number): number | undefined {
  const to = after + HANDOFF_HORIZON_MS;
  const shifts = finalShifts(rota, after, to);
  return edgesOf(shifts, after, to).find((t) => whoAt(shifts, t - 1) !== whoAt(shifts, t));
}
