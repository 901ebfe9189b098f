import type { HttpTransport } from '../../../lib/egress/egress.ts';
import { undiciRequest } from '../../../lib/egress/undici-client.ts';
import { mapResolver } from '../egress-names.ts';
import type { KeyPair } from '../tls-fixtures.ts';
import { jsonObject, type ProviderAnswer, type ProviderServer, startProviderServer } from './https-json.ts';

/**
 * A stand-in for PagerDuty's Events API v2 (`POST /v2/enqueue`) that checks the documented event:
 * routing_key of 32 characters (and one this account knows), event_action trigger, acknowledge or
 * resolve, dedup_key at most 255 characters (required to acknowledge or resolve), and for a
 * trigger a payload with summary (at most 1,024 characters), source and a severity of critical,
 * error, warning or info. Answers as PagerDuty does: 202 `{status, message, dedup_key}`, 400
 * `{status: "invalid event", message, errors}`, 429 when rate limited. Keeps each dedup_key's alert.
 */

interface PagerDutyEvent {
  routing_key: string;
  event_action: 'trigger' | 'acknowledge' | 'resolve';
  dedup_key: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the received event freely
  payload?: any;
  links?: { href: string; text?: string }[];
  client?: string;
  client_url?: string;
}

interface PagerDutyAlert {
  status: 'triggered' | 'acknowledged' | 'resolved';
  triggers: number;
}

export interface PagerDutyReceiver extends ProviderServer {
  /** Events accepted, in order. */
  events: PagerDutyEvent[];
  /** Every answer's status, accepted or not, in order. */
  answers: number[];
  alerts: Map<string, PagerDutyAlert>;
  /** The next `count` requests are answered 429. */
  rateLimit(count: number): void;
}

const SEVERITIES = new Set(['critical', 'error', 'warning', 'info']);
const ACTIONS = new Set(['trigger', 'acknowledge', 'resolve']);

function invalid(...errors: string[]): ProviderAnswer {
  return { status: 400, body: { status: 'invalid event', message: 'Event object is invalid', errors } };
}

/** The errors PagerDuty would list for an event, or none. */
function problems(event: Record<string, unknown>, keys: ReadonlySet<string>): string[] {
  const errors: string[] = [];
  const key = event.routing_key;
  if (typeof key !== 'string' || key === '') errors.push("'routing_key' is missing or blank");
  else if (key.length !== 32) errors.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  else if (!keys.has(key)) errors.push('Invalid routing key');
  if (typeof event.event_action !== 'string' || !ACTIONS.has(event.event_action))
    errors.push(
      "'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')",
    );
  const dedup = event.dedup_key;
  if (dedup !== undefined && (typeof dedup !== 'string' || dedup.length > 255))
    errors.push("'dedup_key' is invalid (must be a string of at most 255 characters)");
  if (event.event_action !== 'trigger') {
    if (typeof dedup !== 'string' || dedup === '') errors.push("'dedup_key' is missing or blank");
    return errors;
  }
  const payload = event.payload as Record<string, unknown> | undefined;
  if (!payload || typeof payload !== 'object') return [...errors, "'payload' is missing or blank"];
  if (typeof payload.summary !== 'string' || payload.summary === '')
    errors.push("'payload.summary' is missing or blank");
  else if (payload.summary.length > 1024)
    errors.push("'payload.summary' is too long (maximum 1024 characters)");
  if (typeof payload.source !== 'string' || payload.source === '')
    errors.push("'payload.source' is missing or blank");
  if (typeof payload.severity !== 'string' || !SEVERITIES.has(payload.severity))
    errors.push(
      "'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')",
    );
  if (payload.timestamp !== undefined && Number.isNaN(Date.parse(String(payload.timestamp))))
    errors.push("'payload.timestamp' is invalid");
  if (payload.custom_details !== undefined && typeof payload.custom_details !== 'object')
    errors.push("'payload.custom_details' is invalid");
  if (event.links !== undefined && !Array.isArray(event.links)) errors.push("'links' is invalid");
  return errors;
}

/** Starts the stand-in; `keys` are the routing keys of the account's integrations. */
export async function startPagerDuty(tls: KeyPair, keys: readonly string[]): Promise<PagerDutyReceiver> {
  const known = new Set(keys);
  const events: PagerDutyEvent[] = [];
  const answers: number[] = [];
  const alerts = new Map<string, PagerDutyAlert>();
  let limited = 0;
  let generated = 0;
  const answer = (a: ProviderAnswer) => {
    answers.push(a.status);
    return a;
  };
  const server = await startProviderServer(tls, (req) => {
    if (req.method !== 'POST' || req.path !== '/v2/enqueue')
      return answer({ status: 404, body: { message: 'Not Found' } });
    if (limited > 0) {
      limited -= 1;
      return answer({
        status: 429,
        body: {
          status: 'throttle event',
          message: 'Requests for this service are arriving too quickly. Please retry later.',
        },
      });
    }
    if (!String(req.headers['content-type']).startsWith('application/json'))
      return answer(invalid('Content-Type must be application/json'));
    const event = jsonObject(req.body);
    if (!event) return answer(invalid('Event object is not valid JSON'));
    const errors = problems(event, known);
    if (errors.length > 0) return answer(invalid(...errors));
    generated += 1;
    const dedup = typeof event.dedup_key === 'string' ? event.dedup_key : `generated-${generated}`;
    events.push({ ...(event as unknown as PagerDutyEvent), dedup_key: dedup });
    const alert = alerts.get(dedup);
    if (event.event_action === 'trigger') {
      // A trigger of a resolved key opens a new alert; of an open one, folds into it.
      if (!alert || alert.status === 'resolved') alerts.set(dedup, { status: 'triggered', triggers: 1 });
      else alert.triggers += 1;
    } else if (alert && alert.status !== 'resolved') {
      alert.status = event.event_action === 'resolve' ? 'resolved' : 'acknowledged';
    }
    return answer({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: dedup } });
  });
  return {
    ...server,
    events,
    answers,
    alerts,
    rateLimit: (count) => {
      limited = count;
    },
  };
}

/**
 * Egress settings (a harness's `egress`) under which PagerDuty's real host name resolves to
 * 127.0.0.1 and reaches the stand-in (its certificate trusted through `caCert`); every other host
 * goes out as usual.
 */
export function pagerDutyEgress(pd: PagerDutyReceiver, caCert: string) {
  const transport: HttpTransport = (req) =>
    req.url.hostname.endsWith('pagerduty.com') ? pd.transport(req) : undiciRequest(req);
  return { ca: [caCert], resolve: mapResolver(new Map([['events.pagerduty.com', '127.0.0.1']])), transport };
}
