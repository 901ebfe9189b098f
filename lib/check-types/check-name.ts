import * as z from 'zod';
import type { CheckConfig } from './check-config.ts';
import { checkTypeDefinition } from './registry.ts';

/**
 * A check's name: what people read in the console, in alerts and in MCP answers instead of its id.
 * A name the user gave is stored; without one (`null`, and every check created before names
 * existed) the name is derived on every read from the type and target, so it follows target edits
 * and needs no migration. Setting `name: null` goes back to the derived one.
 */

const CHECK_NAME_MAX = 200;

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

/** Text cut to the name bound with an ellipsis (a long URL path can exceed it). */
function bounded(text: string): string {
  return text.length <= CHECK_NAME_MAX ? text : `${text.slice(0, CHECK_NAME_MAX - 1)}…`;
}

/** The name a check has when none was given: "HTTP GET api.example.com/health", "TCP db.internal:5432". */
function defaultCheckName(check: NamedCheck): string {
  const type = checkTypeDefinition(check.check_type);
  // http and push name themselves from the check's fields, the others from their config.
  if ('kind' in type) return bounded(type.defaultName(check));
  return bounded(type.defaultName(check.config));
}

/** The check's name as shown: the one given, else the derived one. */
export function checkNameOf(check: NamedCheck): string {
  return check.name ?? defaultCheckName(check);
}
