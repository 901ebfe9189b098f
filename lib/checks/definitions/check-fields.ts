import * as z from 'zod';
import { isAllowedKey, RESERVED_NAME_MESSAGE, RESERVED_NAMES } from '../../domain/catalog.ts';

/** Field schemas of check bodies (lib/checks/check-input.ts), kept here so that file stays small (the target URL's: check-url-input.ts). */

/** A check's uptime objective (GET /v1/checks/{id}/uptime's error budget): 0 < t < 1, e.g. 0.999. */
export const sloTarget = z.number().min(0.0001).max(0.99999).meta({
  description:
    'Uptime objective, strictly between 0 and 1 (0.0001 to 0.99999, e.g. 0.999) the error budget of GET /v1/checks/{id}/uptime is counted against; null: none',
});

/** An http check's request headers: at most 20, none of the names Vigil sets itself. */
export const httpHeaders = z
  .record(
    z
      .string()
      .min(1)
      .max(256)
      .refine(isAllowedKey, RESERVED_NAME_MESSAGE)
      .meta({ not: { enum: [...RESERVED_NAMES] } }),
    z.string().max(8192),
  )
  .refine((h) => Object.keys(h).length <= 20, { message: 'Use at most 20 headers.' })
  .meta({ maxProperties: 20 });

/** Successes in a row a down or degraded check needs to recover (issue 35; 1 = SPEC's "any single success"). */
export const successThreshold = z.number().int().min(1).max(10).meta({
  description:
    'Consecutive successes a down or degraded check needs to recover (1 to 10, default 1: any single success). A check with no result yet is up on its first success',
});
