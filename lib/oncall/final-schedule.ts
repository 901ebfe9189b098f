import type { Rota } from '../domain/schedules.ts';
import { layerShifts, type Span } from './layer-shifts.ts';

/**
 * The final schedule (pure): who is on call, from the layers and overrides of a rota. An override
 * wins over every layer (of overlapping overrides, the one listed last); otherwise the highest
 * layer (listed last) that has someone then; otherwise nobody. Shifts are computed for the window
 * asked, never stored.
 */

/** Where a final shift comes from. */
export type ShiftSource = { type: 'layer'; layer_id: string } | { type: 'override'; override_id: string };

export interface FinalShift {
  user_id: string;
  source: ShiftSource;
  start: number;
  end: number;
}

/** Who is on call at one instant, and until when that holds (null: past the window looked at). */
export interface OnCallNow {
  user_id: string | null;
  source: ShiftSource | null;
  until: number | null;
}

/** How far `onCallAt` looks for the end of the current shift. */
const ON_CALL_HORIZON_MS = 35 * 24 * 3_600_000;

interface Candidate {
  spans: Span[];
  source: (span: Span) => ShiftSource;
}

/** The span of `spans` (sorted, disjoint) that covers `at`, by binary search. */
function covering(spans: Span[], at: number): Span | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const span = spans[mid];
    if (!span) return undefined;
    if (span.end <= at) lo = mid + 1;
    else if (span.start > at) hi = mid - 1;
    else return span;
  }
  return undefined;
}

function sameSource(a: ShiftSource, b: ShiftSource): boolean {
  return a.type === 'layer'
    ? b.type === 'layer' && a.layer_id === b.layer_id
    : b.type === 'override' && a.override_id === b.override_id;
}

/** The final shifts overlapping [from, to), clipped to it, in time order; gaps with nobody are left out. */
export function finalShifts(rota: Rota, from: number, to: number): FinalShift[] {
  if (from >= to) return [];
  // Highest priority first: overrides from the last listed, then layers from the highest.
  const candidates: Candidate[] = [
    ...[...rota.overrides].reverse().map((o): Candidate => {
      const start = Math.max(from, Date.parse(o.starts_at));
      const end = Math.min(to, Date.parse(o.ends_at));
      return {
        spans: end > start ? [{ start, end, user_id: o.user_id }] : [],
        source: () => ({ type: 'override', override_id: o.id }),
      };
    }),
    ...[...rota.layers].reverse().map(
      (layer): Candidate => ({
        spans: layerShifts(layer, rota.time_zone, from, to),
        source: () => ({ type: 'layer', layer_id: layer.id }),
      }),
    ),
  ];
  const edges = new Set<number>([from, to]);
  for (const c of candidates) for (const s of c.spans) edges.add(s.start).add(s.end);
  const sorted = [...edges].filter((e) => e >= from && e <= to).sort((a, b) => a - b);
  const shifts: FinalShift[] = [];
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const start = sorted[i] as number;
    const end = sorted[i + 1] as number;
    const winner = candidates
      .map((c) => ({ c, span: covering(c.spans, start) }))
      .find((hit) => hit.span !== undefined);
    if (!winner?.span) continue;
    const source = winner.c.source(winner.span);
    const last = shifts.at(-1);
    if (last && last.end === start && last.user_id === winner.span.user_id && sameSource(last.source, source))
      last.end = end;
    else shifts.push({ user_id: winner.span.user_id, source, start, end });
  }
  return shifts;
}

/** Who is on call at `at`, and until when (the end of that final shift, if within the horizon). */
export function onCallAt(rota: Rota, at: number): OnCallNow {
  const horizon = at + ON_CALL_HORIZON_MS;
  const first = finalShifts(rota, at, horizon)[0];
  if (!first || first.start > at) {
    return { user_id: null, source: null, until: first ? first.start : null };
  }
  return { user_id: first.user_id, source: first.source, until: first.end < horizon ? first.end : null };
}
