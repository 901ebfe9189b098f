import { randomUUID } from 'node:crypto';
import type { KeyPair } from '../tls-fixtures.ts';
import { jsonObject, type ProviderAnswer, type ProviderServer, startProviderServer } from './https-json.ts';

/**
 * A stand-in for Opsgenie's Alert API v2 that checks the documented requests: `Authorization:
 * GenieKey <key>` of a key the account knows; create (`POST /v2/alerts`) with message (1 to 130
 * characters), alias (at most 512), description (at most 15,000), priority P1 to P5, source (at
 * most 100), entity (at most 512), tags (at most 20 of 50 characters) and details (string
 * values); close and acknowledge (`POST /v2/alerts/{identifier}/{action}?identifierType=alias`)
 * with user and source (at most 100) and note (at most 25,000). Answers as Opsgenie does: 202
 * `{result, took, requestId}`, 401 for an unknown key, 422 with `errors` for an invalid body,
 * 429 with X-RateLimit-State: THROTTLED. Keeps each alias's alert.
 */

interface OpsgenieCall {
  action: 'create' | 'close' | 'acknowledge';
  /** The alias addressed (create: the body's). */
  alias: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the received body freely
  body: any;
}

interface OpsgenieAlert {
  status: 'open' | 'closed';
  acknowledged: boolean;
  count: number;
  priority: string;
}

export interface OpsgenieReceiver extends ProviderServer {
  calls: OpsgenieCall[];
  answers: number[];
  alerts: Map<string, OpsgenieAlert>;
  /** The next `count` requests are answered 429. */
  rateLimit(count: number): void;
}

const PRIORITIES = new Set(['P1', 'P2', 'P3', 'P4', 'P5']);

const took = () => Math.round(Math.random() * 100) / 1000;
const meta = () => ({ took: took(), requestId: randomUUID() });

function unprocessable(errors: Record<string, string>): ProviderAnswer {
  return {
    status: 422,
    body: { message: 'Request body is not processable. Please check the errors.', errors, ...meta() },
  };
}

const tooLong = (value: unknown, max: number) => typeof value === 'string' && value.length > max;

function createProblems(body: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (typeof body.message !== 'string' || body.message.trim() === '')
    errors.message = 'Message can not be empty.';
  else if (body.message.length > 130) errors.message = 'Message can not be longer than 130 characters.';
  if (tooLong(body.alias, 512)) errors.alias = 'Alias can not be longer than 512 characters.';
  if (tooLong(body.description, 15000))
    errors.description = 'Description can not be longer than 15000 characters.';
  if (body.priority !== undefined && !PRIORITIES.has(String(body.priority)))
    errors.priority = 'Priority should be one of [P1, P2, P3, P4, P5]';
  if (tooLong(body.source, 100)) errors.source = 'Source can not be longer than 100 characters.';
  if (tooLong(body.entity, 512)) errors.entity = 'Entity can not be longer than 512 characters.';
  const tags = body.tags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.length > 20 || tags.some((t) => tooLong(t, 50))))
    errors.tags = 'Tags can have at most 20 items of at most 50 characters.';
  const details = body.details;
  if (
    details !== undefined &&
    (typeof details !== 'object' || Object.values(details as object).some((v) => typeof v !== 'string'))
  )
    errors.details = 'Details values should be strings.';
  return errors;
}

function actionProblems(body: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (tooLong(body.user, 100)) errors.user = 'User can not be longer than 100 characters.';
  if (tooLong(body.source, 100)) errors.source = 'Source can not be longer than 100 characters.';
  if (tooLong(body.note, 25000)) errors.note = 'Note can not be longer than 25000 characters.';
  return errors;
}

/** Starts the stand-in; `keys` are the API integration keys the account knows. */
export async function startOpsgenie(tls: KeyPair, keys: readonly string[]): Promise<OpsgenieReceiver> {
  const known = new Set(keys);
  const calls: OpsgenieCall[] = [];
  const answers: number[] = [];
  const alerts = new Map<string, OpsgenieAlert>();
  let limited = 0;
  const answer = (a: ProviderAnswer) => {
    answers.push(a.status);
    return a;
  };
  const accepted = () => answer({ status: 202, body: { result: 'Request will be processed', ...meta() } });
  const server = await startProviderServer(tls, (req) => {
    const auth = String(req.headers.authorization ?? '');
    const key = /^GenieKey (\S+)$/.exec(auth)?.[1];
    if (!key || !known.has(key))
      return answer({ status: 401, body: { message: 'Could not authenticate', ...meta() } });
    if (limited > 0) {
      limited -= 1;
      return answer({
        status: 429,
        headers: { 'x-ratelimit-state': 'THROTTLED' },
        body: {
          message: 'You are making too many requests! To avoid errors, we recommend you limit requests.',
          ...meta(),
        },
      });
    }
    if (req.method !== 'POST')
      return answer({ status: 405, body: { message: 'Method not allowed', ...meta() } });
    if (!String(req.headers['content-type']).startsWith('application/json'))
      return answer(unprocessable({ body: 'Content-Type must be application/json.' }));
    const body = jsonObject(req.body);
    if (!body) return answer(unprocessable({ body: 'Request body is not a JSON object.' }));
    if (req.path === '/v2/alerts') {
      const errors = createProblems(body);
      if (Object.keys(errors).length > 0) return answer(unprocessable(errors));
      const alias = typeof body.alias === 'string' ? body.alias : String(body.message);
      calls.push({ action: 'create', alias, body });
      const open = alerts.get(alias);
      // An open alert of the alias de-duplicates the create (its count grows); a closed one is replaced.
      if (open && open.status === 'open') open.count += 1;
      else
        alerts.set(alias, {
          status: 'open',
          acknowledged: false,
          count: 1,
          priority: String(body.priority ?? 'P3'),
        });
      return accepted();
    }
    const match = /^\/v2\/alerts\/([^/]+)\/(close|acknowledge)$/.exec(req.path);
    if (!match) return answer({ status: 404, body: { message: 'Not found', ...meta() } });
    if (req.query.get('identifierType') !== 'alias')
      return answer(unprocessable({ identifierType: 'This stand-in expects identifierType=alias.' }));
    const errors = actionProblems(body);
    if (Object.keys(errors).length > 0) return answer(unprocessable(errors));
    const alias = decodeURIComponent(match[1] as string);
    const action = match[2] as 'close' | 'acknowledge';
    calls.push({ action, alias, body });
    const alert = alerts.get(alias);
    if (alert && action === 'close') alert.status = 'closed';
    if (alert && action === 'acknowledge') alert.acknowledged = true;
    return accepted();
  });
  return {
    ...server,
    calls,
    answers,
    alerts,
    rateLimit: (count) => {
      limited = count;
    },
  };
}
