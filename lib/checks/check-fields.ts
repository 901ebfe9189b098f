import * as z from 'zod';
import { HTTP_URL_PATTERN } from '../domain/url-patterns.ts';

/** Field schemas of check bodies (lib/checks/check-input.ts), kept here so that file stays small. */

/** An absolute http or https URL with a host. */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL')
  .meta({ pattern: HTTP_URL_PATTERN, description: 'An absolute http or https URL' });

/** A check's uptime objective (GET /v1/checks/{id}/uptime's error budget): 0 < t < 1, e.g. 0.999. */
export const sloTarget = z.number().min(0.0001).max(0.99999).meta({
  description:
    'Uptime objective, strictly between 0 and 1 (0.0001 to 0.99999, e.g. 0.999) the error budget of GET /v1/checks/{id}/uptime is counted against; null: none',
});
