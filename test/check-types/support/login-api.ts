import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small API on 127.0.0.1 for multistep checks: a login form that answers a token and a session
 * cookie, then endpoints that want them. Routes:
 * - POST /login `{"user","password"}`: 200 `{"token"}` and `Set-Cookie: session=…` for the right
 *   password, 401 otherwise;
 * - GET /me: 200 `{"id": 7, "name": "ada"}` with `Authorization: Bearer <token>`, else 401;
 * - GET /orders?user=<id>: 200 `{"orders": [...]}` with the session cookie, else 403;
 * - GET /form: HTML with a CSRF token in an input; GET /echo: JSON of the request's headers;
 * - GET /redirect?to=<url>: 302 there; GET /slow: never answers; GET /delay?ms=N: 200 after N ms.
 */

export const PASSWORD = 'hunter2-s3cret';
export const TOKEN = 'tok-8f14e45f';
export const SESSION = 'sess-c9f0f895';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface LoginApi {
  origin: string;
  requests: Seen[];
  close(): Promise<void>;
}

const json = (status: number, value: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

function answer(
  req: Seen,
): { status: number; headers: Record<string, string>; body: string } | 'hang' | number {
  const url = new URL(req.url, 'http://x');
  switch (`${req.method} ${url.pathname}`) {
    case 'POST /login': {
      let given: { password?: unknown } = {};
      try {
        given = JSON.parse(req.body) as { password?: unknown };
      } catch {}
      if (given.password !== PASSWORD) return json(401, { error: 'bad credentials' });
      return json(200, { token: TOKEN }, { 'set-cookie': `session=${SESSION}; Path=/; HttpOnly` });
    }
    case 'GET /me':
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { error: 'no token' });
      return json(200, { id: 7, name: 'ada' });
    case 'GET /orders':
      if (!String(req.headers.cookie ?? '').includes(`session=${SESSION}`))
        return json(403, { error: 'no session' });
      return json(200, { user: url.searchParams.get('user'), orders: [{ id: 'o-1' }] });
    case 'GET /form':
      return {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<input name="csrf" value="csrf-42">',
      };
    case 'GET /echo':
      return json(200, { headers: req.headers });
    case 'GET /redirect':
      return { status: 302, headers: { location: url.searchParams.get('to') ?? '/me' }, body: '' };
    case 'GET /slow':
      return 'hang';
    case 'GET /delay':
      return Number(url.searchParams.get('ms') ?? 0);
    default:
      return json(404, { error: 'not found' });
  }
}

/** Starts the API on an ephemeral port of 127.0.0.1. */
export async function startLoginApi(): Promise<LoginApi> {
  const requests: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const reply = answer(seen);
      if (reply === 'hang') return;
      if (typeof reply === 'number') {
        setTimeout(() => res.writeHead(200).end('late'), reply);
        return;
      }
      res.writeHead(reply.status, reply.headers).end(reply.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A multistep config that logs in to the API at `origin` with `password` (a secret variable) and
 * reads /me with the token it extracted: passes with PASSWORD, fails at "login" otherwise.
 */
export const loginSteps = (origin: string, password: string) => ({
  variables: { password: { value: password, secret: true } },
  steps: [
    {
      name: 'login',
      method: 'POST',
      url: `${origin}/login`,
      headers: { 'content-type': 'application/json' },
      body: '{"user": "ada", "password": "{{variables.password}}"}',
      extract: { token: { source: 'json_body', path: '$.token' } },
    },
    {
      name: 'me',
      url: `${origin}/me`,
      headers: { authorization: 'Bearer {{steps.login.token}}' },
      assertions: [{ source: 'json', path: '$.name', op: 'eq', value: 'ada' }],
    },
  ],
});
