import { PING_BODY_LIMIT_BYTES, type PingKind } from '../log/ping-items.ts';
import { looksLikePingToken } from '../tokens/ping-token.ts';

/**
 * Reading a ping URL (pure): which of Healthchecks' Pinging API forms it is, and what the ping
 * carries. The forms (https://healthchecks.io/docs/http_api/, hc/api/urls.py):
 * `/ping/<uuid>[/start|/fail|/log|/<exit status>]` (and Vigil's legacy `vpt_` tokens), and
 * `/ping/<ping key>/<slug>[/start|/fail|/log|/<exit status>]`.
 */

/** What a ping reports. */
export interface PingAction {
  kind: PingKind;
  /** `/<n>` pings; Healthchecks answers 400 `invalid url format` above 255 (after finding the check). */
  exitStatus?: number;
}

/** The URL's form: a token (UUID or legacy), or a ping key and a slug; undefined when it is neither. */
export type PingUrl =
  | { form: 'token'; token: string; action: PingAction }
  | { form: 'slug'; pingKey: string; slug: string; action: PingAction };

/** Django's `slug` path converter, which Healthchecks' slug routes use for the ping key and the slug. */
const SLUG_SEGMENT = /^[-a-zA-Z0-9_]+$/;

/** The action a suffix names (none: a success), or undefined for a suffix that is no form. */
function readSuffix(suffix: string | undefined): PingAction | undefined {
  if (suffix === undefined) return { kind: 'success' };
  if (suffix === 'start' || suffix === 'fail' || suffix === 'log') return { kind: suffix };
  // Django's `int` converter: any run of digits, leading zeros allowed (a value above 255 is
  // refused once the check is found; a long one is read only as "above 255").
  if (/^[0-9]+$/.test(suffix)) {
    const digits = suffix.replace(/^0+(?=[0-9])/, '');
    return { kind: 'exit', exitStatus: digits.length > 3 ? 1000 : Number(digits) };
  }
  return undefined;
}

/**
 * The form of `/ping/<segments…>`. A first segment that is a UUID (in any case) or starts with
 * `vpt_` is a token; anything else is a ping key (ping keys are neither).
 */
export function readPingUrl(segments: string[]): PingUrl | undefined {
  const [first, second, third, ...rest] = segments;
  if (first === undefined || rest.length > 0) return undefined;
  if (segments.length === 1 || looksLikePingToken(first)) {
    if (third !== undefined) return undefined;
    const action = readSuffix(second);
    return action ? { form: 'token', token: first, action } : undefined;
  }
  if (second === undefined || !SLUG_SEGMENT.test(first) || !SLUG_SEGMENT.test(second)) return undefined;
  const action = readSuffix(third);
  return action ? { form: 'slug', pingKey: first, slug: second, action } : undefined;
}

/** The kept body: the request's bytes as UTF-8 text, cut to `limit` bytes on a character boundary. */
export function pingBody(raw: Buffer, limit = PING_BODY_LIMIT_BYTES): { body: string; truncated: boolean } {
  if (raw.length <= limit) return { body: raw.toString('utf8'), truncated: false };
  let end = limit;
  // Back off over continuation bytes (10xxxxxx) so the cut never splits a character.
  while (end > 0 && ((raw[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { body: raw.subarray(0, end).toString('utf8'), truncated: true };
}

/** Healthchecks keeps the first 200 characters of a User-Agent. */
export const USER_AGENT_LIMIT = 200;

/**
 * A plain success: a success with no body, no run id, to an enabled check with no run started.
 * It is recorded as its result only (marked `pinged`), with no ping log item and no ping number:
 * the log keeps what a user reads there (bodies, starts, fails, exit statuses, logs, runs,
 * ignored pings) and the results list every success (issue 58: one copy of each success).
 */
export function plainSuccess(
  input: PingAction & {
    body: string;
    bodyTruncated: boolean;
    bodyOverBudget?: boolean | undefined;
    rid?: string | undefined;
  },
  run: { definition: { enabled: boolean }; state: { run_started_at?: string | null | undefined } },
): boolean {
  return (
    input.kind === 'success' &&
    input.body === '' &&
    !input.bodyTruncated &&
    !input.bodyOverBudget &&
    input.rid === undefined &&
    run.definition.enabled &&
    !run.state.run_started_at
  );
}
