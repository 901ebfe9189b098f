import { bodyFields, type ProviderReply, type ProviderServer, startProviderServer } from './provider-host.ts';

/**
 * A Gotify server's `POST /message` as documented (https://gotify.net/api-docs): the application
 * token in X-Gotify-Key (or ?token=), a JSON (or form) body with a required message, optional
 * title, priority and extras; answers 200 with the stored message (id, appid, date added), 400
 * for a missing message, 401 without a token for a missing or wrong one, as
 * `{error, errorCode, errorDescription}`. Served under `prefix` (a reverse proxy's path), at
 * https://gotify.test (the egress resolver points it at 127.0.0.1).
 */

interface GotifyMessage {
  title: unknown;
  message: unknown;
  priority: unknown;
  extras: unknown;
  headers: Record<string, unknown>;
}

export interface GotifyReceiver extends ProviderServer {
  messages: GotifyMessage[];
}

const error = (status: number, name: string, description: string): ProviderReply => ({
  status,
  json: { error: name, errorCode: status, errorDescription: description },
});

export async function startGotifyReceiver(token: string, prefix = ''): Promise<GotifyReceiver> {
  const messages: GotifyMessage[] = [];
  const server = await startProviderServer((req) => {
    const url = new URL(req.path, 'https://gotify.test');
    if (req.method !== 'POST' || url.pathname !== `${prefix}/message`)
      return error(404, 'Not Found', 'page not found');
    const given = req.headers['x-gotify-key'] ?? url.searchParams.get('token');
    if (!given)
      return error(
        401,
        'Unauthorized',
        'you need to provide a valid access token or user credentials to access this api',
      );
    if (given !== token)
      return error(
        401,
        'Unauthorized',
        'you need to provide a valid access token or user credentials to access this api',
      );
    const body = bodyFields(req);
    if (!body || typeof body.message !== 'string' || body.message === '')
      return error(400, 'Bad Request', "Field 'message' is required");
    if (body.priority !== undefined && !Number.isInteger(body.priority))
      return error(400, 'Bad Request', "Field 'priority' must be an integer");
    messages.push({
      title: body.title,
      message: body.message,
      priority: body.priority,
      extras: body.extras,
      headers: req.headers,
    });
    return {
      status: 200,
      json: {
        id: messages.length,
        appid: 1,
        message: body.message,
        title: body.title,
        priority: body.priority ?? 0,
        extras: body.extras,
        date: '2026-03-01T12:34:56Z',
      },
    };
  });
  return Object.assign(server, { messages });
}
