import { Temporal } from 'temporal-polyfill';
import type { Layer, Restriction, Rotation } from '../domain/schedules.ts';
import { WEEKDAYS } from '../domain/schedules.ts';

/**
 * One layer's shifts in a window (pure). Handoffs are wall-clock times in the schedule's zone
 * (Temporal: a local date-time placed in the zone with the "compatible" rule, so a handoff in a
 * spring-forward gap happens just after it and one in a fall-back overlap at its first
 * occurrence). The k-th handoff starts member k mod n's shift; before the first handoff the layer
 * has nobody. Restrictions cut the shifts to their windows of the week.
 */

/** A span of time in epoch ms, [start, end), and who holds it. */
export interface Span {
  start: number;
  end: number;
  user_id: string;
}

/** Bounds a walk over handoffs or days, whatever the window asked for (routes bound it earlier). */
const MAX_STEPS = 20_000;

const MS_HOUR = 3_600_000;
const MS_DAY = 24 * MS_HOUR;

function clockTime(hhmm: string): { hour: number; minute: number } {
  const [hour = 0, minute = 0] = hhmm.split(':').map(Number);
  return { hour, minute };
}

/** The instant of a local date-time in `zone` (gap: just after it; overlap: the first). */
function placed(local: Temporal.PlainDateTime, zone: string): number {
  return local.toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;
}

/** The instant of `hhmm` on a local date ("24:00" is the next day's midnight). */
function instantOn(date: Temporal.PlainDate, hhmm: string, zone: string): number {
  if (hhmm === '24:00') return placed(date.add({ days: 1 }).toPlainDateTime({ hour: 0, minute: 0 }), zone);
  return placed(date.toPlainDateTime(clockTime(hhmm)), zone);
}

function localDateTime(ms: number, zone: string): Temporal.PlainDateTime {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toPlainDateTime();
}

/** The rotation's handoffs as a function of k (the first is k = 0), and their nominal wall-clock period. */
function handoffs(rotation: Rotation, zone: string): { at: (k: number) => number; periodMs: number } {
  const first = Temporal.PlainDate.from(rotation.start).toPlainDateTime(clockTime(rotation.handoff));
  if (rotation.type === 'custom') {
    const hours = rotation.length_hours ?? 24;
    return { at: (k) => placed(first.add({ hours: k * hours }), zone), periodMs: hours * MS_HOUR };
  }
  const days = rotation.type === 'weekly' ? 7 : 1;
  return { at: (k) => placed(first.add({ days: k * days }), zone), periodMs: days * MS_DAY };
}

/** The index of the last handoff at or before `ms` (-1 and below: before the first). */
function handoffIndex(rotation: Rotation, zone: string, ms: number): number {
  const { at, periodMs } = handoffs(rotation, zone);
  const first = Temporal.PlainDate.from(rotation.start).toPlainDateTime(clockTime(rotation.handoff));
  // The wall-clock distance gives k within one step of the truth (DST moves instants by ≤ 2 h).
  const wall = localDateTime(ms, zone).since(first, { largestUnit: 'hours' }).total('milliseconds');
  let k = Math.floor(wall / periodMs);
  while (at(k) > ms) k -= 1;
  while (at(k + 1) <= ms) k += 1;
  return k;
}

/** The layer's rotation shifts overlapping [from, to), clipped to it and to the layer's own start and end. */
function rotationShifts(layer: Layer, zone: string, from: number, to: number): Span[] {
  const lo = Math.max(from, layer.starts_at ? Date.parse(layer.starts_at) : from);
  const hi = Math.min(to, layer.ends_at ? Date.parse(layer.ends_at) : to);
  if (lo >= hi) return [];
  const { at } = handoffs(layer.rotation, zone);
  const spans: Span[] = [];
  let k = Math.max(0, handoffIndex(layer.rotation, zone, lo));
  for (let step = 0; step < MAX_STEPS; step += 1, k += 1) {
    const start = Math.max(at(k), lo);
    if (start >= hi) break;
    const end = Math.min(at(k + 1), hi);
    const member = layer.members[k % layer.members.length];
    // A handoff swallowed by a spring-forward gap leaves an empty shift: that member skips a turn.
    if (end > start && member !== undefined) spans.push({ start, end, user_id: member });
  }
  return spans;
}

/** The restriction windows overlapping [from, to), merged, as instants. */
function restrictionWindows(
  restrictions: Restriction[],
  zone: string,
  from: number,
  to: number,
): [number, number][] {
  const windows: [number, number][] = [];
  // A window may start the day before `from` and run past midnight into it.
  let day = localDateTime(from, zone).toPlainDate().subtract({ days: 1 });
  const last = localDateTime(to, zone).toPlainDate();
  for (let step = 0; step < MAX_STEPS && Temporal.PlainDate.compare(day, last) <= 0; step += 1) {
    const weekday = WEEKDAYS[day.dayOfWeek - 1];
    for (const r of restrictions) {
      if (weekday === undefined || !r.days.includes(weekday)) continue;
      const start = instantOn(day, r.from, zone);
      const end =
        r.to <= r.from && r.to !== '24:00'
          ? instantOn(day.add({ days: 1 }), r.to, zone)
          : instantOn(day, r.to, zone);
      if (end > from && start < to && end > start) windows.push([Math.max(start, from), Math.min(end, to)]);
    }
    day = day.add({ days: 1 });
  }
  windows.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const w of windows) {
    const top = merged.at(-1);
    if (top && w[0] <= top[1]) top[1] = Math.max(top[1], w[1]);
    else merged.push([w[0], w[1]]);
  }
  return merged;
}

/** The layer's shifts overlapping [from, to): its rotation, cut to its restrictions when it has any. */
export function layerShifts(layer: Layer, zone: string, from: number, to: number): Span[] {
  const shifts = rotationShifts(layer, zone, from, to);
  if (!layer.restrictions?.length || shifts.length === 0) return shifts;
  const windows = restrictionWindows(layer.restrictions, zone, from, to);
  const cut: Span[] = [];
  for (const shift of shifts) {
    for (const [ws, we] of windows) {
      const start = Math.max(shift.start, ws);
      const end = Math.min(shift.end, we);
      if (end > start) cut.push({ start, end, user_id: shift.user_id });
    }
  }
  return cut;
}
