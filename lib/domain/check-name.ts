import * as z from 'zod';
import type { CheckConfig } from './check-config.ts';

/**
 * A check's name: what people read in the console, in alerts and in MCP answers instead of its id.
 * A name the user gave is stored; without one (`null`, and every check created before names
 * existed) the name is derived on every read from the type and target, so it follows target edits
 * and needs no migration. Setting `name: null` goes back to the derived one.
 */

export const CHECK_NAME_MAX = 200;

/** The `name` a request may set: 1 to 200 characters after trimming, not blank. */
export const checkNameSchema = z
  .string()
  .regex(/\S/, 'This field is required.')
  .trim()
  .min(1)
  .max(CHECK_NAME_MAX)
  .meta({ description: `The check's name, 1 to ${CHECK_NAME_MAX} characters (trimmed)` });

/** What a derived name needs of a check. */
type NamedCheck = CheckConfig & {
  name?: string | null | undefined;
  target_url: string | null;
  method: string;
  entity_slug: string;
  interval_seconds: number;
};

/** "every 30 s", "every 5 min", "every 2 h", "every day": a push check's expected rhythm. */
function everyWords(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'every day' : `every ${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return `every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return `every ${seconds / 60} min`;
  return `every ${seconds} s`;
}

/**
 * "api.example.com/health": the URL's host and path, never its credentials or query (which may
 * hold secrets, and a derived name is shown to read-only keys and sent in alerts).
 */
function hostAndPath(target: string | null): string {
  if (!target) return '';
  try {
    const url = new URL(target);
    return url.pathname === '/' ? url.host : `${url.host}${url.pathname}`;
  } catch {
    return '';
  }
}

/** Text cut to the name bound with an ellipsis (a long URL path can exceed it). */
function bounded(text: string): string {
  return text.length <= CHECK_NAME_MAX ? text : `${text.slice(0, CHECK_NAME_MAX - 1)}…`;
}

/** The name a check has when none was given: "HTTP GET api.example.com/health", "TCP db.internal:5432". */
export function defaultCheckName(check: NamedCheck): string {
  switch (check.check_type) {
    case 'http':
      return bounded(`HTTP ${check.method} ${hostAndPath(check.target_url)}`.trim());
    case 'tcp':
      return bounded(`TCP ${check.config.host}:${check.config.port}`);
    case 'tls': {
      const port = check.config.port ?? 443;
      return bounded(`TLS ${check.config.host}${port === 443 ? '' : `:${port}`}`);
    }
    case 'dns':
      return bounded(`DNS ${check.config.record_type} ${check.config.hostname}`);
    case 'push':
      return bounded(`Push check for ${check.entity_slug}, ${everyWords(check.interval_seconds)}`);
  }
}

/** The check's name as shown: the one given, else the derived one. */
export function checkNameOf(check: NamedCheck): string {
  return check.name ?? defaultCheckName(check);
}
