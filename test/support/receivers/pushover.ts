import { bodyFields, type ProviderReply, type ProviderServer, startProviderServer } from './provider-host.ts';

/**
 * Pushover's message API as documented (https://pushover.net/api): `POST /1/messages.json`, form
 * or JSON, with token (the application's), user (a user or group key) and message (≤ 1,024
 * characters), optional title (≤ 250), url (≤ 512), url_title (≤ 100), priority -2..2 (2 needs
 * retry ≥ 30 and expire ≤ 10,800); answers 200 `{status:1, request}` (and a receipt for priority
 * 2) with the X-Limit-App-* headers, 400 `{<field>:"invalid", errors:[...], status:0, request}`,
 * and 429 once the application is over its monthly limit (`overLimit`).
 */

interface PushoverMessage {
  fields: Record<string, string>;
  contentType: string;
}

export interface PushoverReceiver extends ProviderServer {
  messages: PushoverMessage[];
  /** Set: every further request is over the application's monthly limit (429). */
  overLimit: boolean;
}

const REQUEST = '5042853c-402d-4a18-abcb-168734a801de';

export async function startPushoverReceiver(appToken: string, userKey: string): Promise<PushoverReceiver> {
  const messages: PushoverMessage[] = [];
  const state = { messages, overLimit: false };
  const invalid = (field: string, error: string): ProviderReply => ({
    status: 400,
    json: { [field]: 'invalid', errors: [error], status: 0, request: REQUEST },
  });
  const server = await startProviderServer((req) => {
    if (req.method !== 'POST' || req.path !== '/1/messages.json')
      return { status: 404, json: { status: 0, errors: ['not found'] } };
    if (state.overLimit)
      return {
        status: 429,
        json: { status: 0, errors: ['application has exceeded its monthly message limit'], request: REQUEST },
      };
    const raw = bodyFields(req) ?? {};
    const fields = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, String(v)]));
    if (fields.token !== appToken)
      return invalid('token', 'application token is invalid, see https://pushover.net/api');
    if (fields.user !== userKey)
      return invalid(
        'user',
        'user identifier is not a valid user, group, or subscribed user key, see https://pushover.net/api#identifiers',
      );
    const message = fields.message ?? '';
    if (message.trim() === '') return invalid('message', 'message cannot be blank');
    if ([...message].length > 1024)
      return invalid('message', 'message cannot be longer than 1024 characters');
    if ((fields.title ?? '').length > 250)
      return invalid('title', 'title cannot be longer than 250 characters');
    if ((fields.url ?? '').length > 512) return invalid('url', 'url cannot be longer than 512 characters');
    if ((fields.url_title ?? '').length > 100)
      return invalid('url_title', 'url_title cannot be longer than 100 characters');
    const priority = fields.priority === undefined ? 0 : Number(fields.priority);
    if (!Number.isInteger(priority) || priority < -2 || priority > 2)
      return invalid('priority', 'priority is invalid');
    if (priority === 2) {
      const retry = Number(fields.retry);
      const expire = Number(fields.expire);
      if (!Number.isInteger(retry) || retry < 30)
        return invalid('retry', 'retry must be at least 30 seconds');
      if (!Number.isInteger(expire) || expire > 10_800)
        return invalid('expire', 'expire cannot be more than 10800 seconds');
    }
    messages.push({ fields, contentType: String(req.headers['content-type'] ?? '') });
    return {
      status: 200,
      headers: {
        'x-limit-app-limit': '10000',
        'x-limit-app-remaining': String(10_000 - messages.length),
        'x-limit-app-reset': '1393653600',
      },
      json: {
        status: 1,
        request: REQUEST,
        ...(priority === 2 ? { receipt: 'rLqVuqTRh62UzxtmqiaLzQmVcPgiCy' } : {}),
      },
    };
  });
  // The handler reads `state`, which the tests get back (with the server's fields) to flip overLimit.
  return Object.assign(state, server);
}
