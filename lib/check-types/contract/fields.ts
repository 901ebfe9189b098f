import * as z from 'zod';
import { countOf } from '../../platform/plural.ts';

/**
 * Schema parts several check types share. It imports nothing of the check types or of
 * lib/domain, so lib/check-types/check-config.ts may derive from the registry without a cycle.
 */

/** The methods an http check, and a multistep check's step, may send. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The longest interval of a probed check: one day. */
export const PULL_MAX_INTERVAL_SECONDS = 86_400;
/** The longest interval of a push check: 30 days (monthly jobs). */
export const PUSH_MAX_INTERVAL_SECONDS = 30 * 86_400;

/** A host name or address a request names: required, trimmed, at most 253 characters. */
export const hostSchema = z.string().regex(/\S/, 'This field is required.').trim().min(1).max(253);
export const portSchema = z.number().int().min(1).max(65535);

/** A port as stored: a number, or digits (read as the number they spell). */
export const storedPortSchema = z.union([
  portSchema,
  z
    .string()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .pipe(portSchema),
]);

/** "every 30 s", "every 5 min", "every 2 h", "every day": a push check's expected rhythm. */
export function everyWords(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'every day' : `every ${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return `every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return `every ${seconds / 60} min`;
  return `every ${seconds} s`;
}

/**
 * "api.example.com (3 steps)": a script check's label, the host of its first URL (which may hold
 * references after the host) and its number of steps.
 */
export function scriptLabel(firstUrl: string | undefined, steps: number): string {
  const host =
    /^https?:\/\/(?:[^@/?#]*@)?([^/?#:]+(?::\d+)?)/i.exec(firstUrl ?? '')?.[1]?.toLowerCase() ?? '';
  return `${host} (${countOf(steps, 'step')})`;
}
