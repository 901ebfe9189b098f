import * as z from 'zod';

/**
 * An http check's accepted statuses (`expected_statuses`, DECISIONS.md "Checks (wave 5)"): codes
 * and `"NNN-NNN"` ranges, so a monitor that accepts `200-299` elsewhere keeps that meaning here.
 * When the list is set, the check's `expected_status` reads as its first code.
 */

/** At most this many codes and ranges in one list. */
export const MAX_EXPECTED_STATUSES = 20;

const RANGE = /^([1-5][0-9]{2})-([1-5][0-9]{2})$/;

/** A code or a range as stored and returned. */
export type ExpectedStatus = number | string;

const code = z.number().int().min(100).max(599);
const range = z
  .string()
  .regex(RANGE, 'Write a range as "NNN-NNN" with codes from 100 to 599.')
  .refine(
    (text) => {
      const [, lo = '0', hi = '0'] = RANGE.exec(text) ?? [];
      return Number(lo) <= Number(hi);
    },
    { error: 'A range starts at its lower code: "200-299", not "299-200".' },
  )
  .meta({ description: 'An inclusive range of codes, "200-299"; its first code is not above its last' });

/** One entry: a code (100–599) or a range of them. */
export const expectedStatusSchema = z.union([code, range]);

/** The list as a request gives it: 1 to 20 codes (100–599) and ranges. */
export const expectedStatusesSchema = z.array(expectedStatusSchema).min(1).max(MAX_EXPECTED_STATUSES).meta({
  description:
    'Statuses that count as success, codes and "NNN-NNN" ranges (at most 20); expected_status reads as the first code. null: exactly expected_status',
});

/** The list as stored and carried in probe jobs (validated on the way in). */
export const storedExpectedStatusesSchema = z.array(z.union([z.number().int(), z.string()]));

/** The lowest and highest code of one entry. */
function bounds(entry: ExpectedStatus): [number, number] {
  if (typeof entry === 'number') return [entry, entry];
  const [, lo = '0', hi = '0'] = RANGE.exec(entry) ?? [];
  return [Number(lo), Number(hi)];
}

/** The list's first code: its first entry's code, or the lower end of its first range. */
export function firstExpectedCode(statuses: readonly ExpectedStatus[]): number {
  const first = statuses[0];
  return first === undefined ? 200 : bounds(first)[0];
}

/** Whether `status` is one of the list's codes or inside one of its ranges. */
export function statusAccepted(statuses: readonly ExpectedStatus[], status: number): boolean {
  return statuses.some((entry) => {
    const [lo, hi] = bounds(entry);
    return status >= lo && status <= hi;
  });
}

/** The list in words for a failed result: `200, 300-399`. */
export function expectedStatusesText(statuses: readonly ExpectedStatus[]): string {
  return statuses.join(', ');
}
