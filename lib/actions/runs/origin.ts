import { originOf } from '../../domain/formats.ts';

/**
 * Where an action's secrets may go (docs/actions.md "Headers follow their origin"): its headers are
 * sent only to the origin (scheme, host, port) of its stored URL. A URL template whose scheme,
 * host or port holds a `{{placeholder}}` has no fixed origin, so an action with headers cannot
 * have one; placeholders after the host (path, query) cannot move the origin.
 */

/** The scheme and the authority (userinfo, host, port) as written: up to the first `/ ? # \`. */
const SCHEME_AUTHORITY = /^(https?):\/\/([^/?#\\]*)/i;

/** The authority part of a URL template, where a `{{placeholder}}` makes the host known only at run time. */
function authorityOf(url: string): string {
  return SCHEME_AUTHORITY.exec(url)?.[2] ?? '';
}

/** Whether the template's scheme, host or port (or userinfo) comes from a placeholder. */
export function templatesOrigin(url: string): boolean {
  return authorityOf(url).includes('{{');
}

/** The origin a URL template always reaches; undefined when a placeholder decides it (or it does not parse). */
export function fixedOrigin(url: string): string | undefined {
  const match = SCHEME_AUTHORITY.exec(url);
  if (!match || templatesOrigin(url)) return undefined;
  return originOf(`${match[1]}://${match[2]}/`);
}

/**
 * Why a run with this filled URL may not send the action's headers (undefined: it may): the
 * action's URL has no fixed origin, or the filled URL reaches another one. A URL that does not
 * parse is left to the send, which fails on it.
 */
export function headersRefusal(
  action: { url: string; headers: Readonly<Record<string, string>> },
  filledUrl: string,
): string | undefined {
  if (Object.keys(action.headers).length === 0) return undefined;
  const stored = fixedOrigin(action.url);
  if (stored === undefined)
    return "the action's URL takes its scheme, host or port from a variable, and its headers are sent only to the origin they were stored with; nothing was sent";
  const filled = originOf(filledUrl);
  if (filled === undefined || filled === stored) return undefined;
  return `the filled URL reaches ${filled}, and the action's headers are sent only to ${stored}; nothing was sent`;
}
