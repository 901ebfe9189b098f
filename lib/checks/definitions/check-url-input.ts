import * as z from 'zod';
import { HTTP_URL_PATTERN } from '../../domain/formats.ts';
import { unredactedUrl } from '../../domain/redaction.ts';
import { ValidationError } from '../../platform/errors.ts';
import { REDACTED } from '../records.ts';

/** A check's target URL in request bodies (lib/checks/check-input.ts), and what a write of it stores. */

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
  }, 'Enter an absolute http:// or https:// URL, such as https://example.com/health.')
  .meta({ pattern: HTTP_URL_PATTERN, description: 'An absolute http or https URL' });

/** The target URL a write stores: an echo of the read-only view keeps the stored URL; another `********` is a 400. */
export function writtenUrl(given: string | null, stored: string | null): string | null {
  if (given === null) return null;
  return (
    unredactedUrl(given, stored) ??
    fail(
      `${REDACTED} stands for a hidden part of the stored URL: send the URL back unchanged or give it in full`,
    )
  );
}

function fail(message: string): never {
  throw ValidationError.field('target_url', message);
}
