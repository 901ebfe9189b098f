import type { Route } from '../http/types.ts';

/**
 * How a write is named in the audit log (docs/auth.md "The audit log"): pure functions of the route,
 * its path parameters, the request body and the reply body.
 */

/** Verbs of operationIds that mean "changed it". */
const UPDATE_VERBS = new Set(['put', 'replace', 'update']);

/** `deleteNotificationChannel` → `notification_channel.delete`; put/replace → update. */
export function actionOf(route: Route): string {
  const words = route.operationId.split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  const [verb = 'write', ...rest] = words;
  if (rest.length === 0) return `${verb}.write`;
  return `${rest.join('_')}.${UPDATE_VERBS.has(verb) ? 'update' : verb}`;
}

/** `entities` → `entity`, `status-pages` → `status_page`. */
function singular(segment: string): string {
  const word = segment.replace(/-/g, '_');
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const idOfReply = (replyBody: unknown): string | undefined => {
  if (typeof replyBody !== 'object' || replyBody === null) return undefined;
  const { id, slug } = replyBody as Record<string, unknown>;
  const named = typeof id === 'string' ? id : slug;
  return typeof named === 'string' && named.length <= 200 ? named : undefined;
};

/**
 * What a write acted on: a create (`create…` on a collection's path) names the id (or slug) its
 * reply answers; any other the last path parameter, typed by the segment before it (`/v1/checks/{id}/…`
 * → check); a write to a fixed path (settings) names the tenant.
 */
export function targetOf(
  route: Route,
  params: Record<string, string>,
  replyBody: unknown,
  tenantId: string,
): { type: string; id: string } {
  const segments = route.path.split('/').filter((s) => s !== '' && s !== 'v1');
  const last = segments.at(-1) ?? '';
  const created = idOfReply(replyBody);
  if (route.operationId.startsWith('create') && !last.startsWith('{') && created)
    return { type: singular(last), id: created };
  for (let i = segments.length - 1; i >= 0; i -= 1) {
    const name = /^\{(\w+)\}$/.exec(segments[i] ?? '')?.[1];
    if (name === undefined) continue;
    return { type: singular(segments[i - 1] ?? 'item'), id: params[name] ?? '' };
  }
  return { type: singular(last || 'tenant'), id: tenantId };
}

/** Field names as schemas spell them; anything else in a body is not named. */
const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** Top-level values shown as they are: what people call things by. Every other value is left out. */
const SHOWN_VALUES = ['name', 'slug'] as const;
const MAX_FIELDS = 40;
const MAX_VALUE = 100;

/**
 * The redacted summary of a write's body: the names of the top-level fields it set, and the
 * values of `name` and `slug` only. Never any other value, so no secret (a channel's token, an
 * action's headers, a password, a TOTP code, an SSO client secret) can reach the audit log.
 */
export function redactedSummary(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  if (Array.isArray(body)) return `${body.length} item${body.length === 1 ? '' : 's'}`;
  const record = body as Record<string, unknown>;
  const fields = Object.keys(record)
    .filter((k) => FIELD_NAME.test(k))
    .sort();
  if (fields.length === 0) return '';
  const shown = SHOWN_VALUES.flatMap((k) => {
    const value = record[k];
    return typeof value === 'string' ? [`${k}: ${JSON.stringify(value.slice(0, MAX_VALUE))}`] : [];
  });
  const more = fields.length > MAX_FIELDS ? ` (+${fields.length - MAX_FIELDS} more)` : '';
  return [`fields: ${fields.slice(0, MAX_FIELDS).join(', ')}${more}`, ...shown].join('; ');
}
