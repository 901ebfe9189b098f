import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small web site on 127.0.0.1 for browser checks. Routes:
 * - GET /login: a login form (user, password) that posts to /login;
 * - POST /login: the right password sets a `session` cookie and redirects to /account, a wrong
 *   one answers 401 "Wrong password";
 * - GET /account: "Welcome, ada" (title "Account") with the session cookie, else a redirect to /login;
 * - GET /login-json: a login form whose button posts `{user, password}` as JSON to /api/login, which
 *   answers 200 with the session cookie for the right password (the page then shows "Signed in"),
 *   401 otherwise ("Wrong password");
 * - GET /app: a page that loads /app.js, which fetches /api/data and shows its answer in #out;
 * - GET /metadata: a page whose script fetches http://169.254.169.254/latest/meta-data/;
 * - GET /ws: a page whose script opens a websocket to ws://169.254.169.254/;
 * - GET /redirect?to=<url>: 302 there; GET /slow: never answers.
 * `requests` lists each path asked for.
 */

export const SITE_PASSWORD = 'pa55-W0rd-xyzzy';

/** The steps that sign ada in with `password` on the site at `origin`, ending on /account. */
export const loginSteps = (origin: string, password: string) => [
  { action: 'goto', url: `${origin}/login` },
  { action: 'fill', selector: '#user', value: 'ada' },
  { action: 'fill', selector: '#password', value: password },
  { action: 'click', selector: '#go' },
  { action: 'wait_for', url: '/account' },
];
const SESSION = 'sess-4f2a91';

export interface BrowserSite {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

const LOGIN_FORM = page(
  'Sign in',
  `<h1>Sign in</h1><form method="post" action="/login">
  <input id="user" name="user"><input id="password" name="password" type="password">
  <select id="lang" name="lang"><option value="en">English</option><option value="fr">Français</option></select>
  <button id="go" type="submit">Sign in</button></form>`,
);

const JSON_LOGIN = page(
  'Sign in',
  `<input id="user"><input id="password" type="password"><button id="go" type="button">Sign in</button>
  <p id="out"></p><script>document.getElementById('go').onclick = () => fetch('/api/login', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: document.getElementById('user').value, password: document.getElementById('password').value }),
  }).then((r) => { document.getElementById('out').textContent = r.ok ? 'Signed in' : 'Wrong password'; });</script>`,
);

/** The site; `password` is the one its logins take (default SITE_PASSWORD). */
export async function startBrowserSite(options: { password?: string } = {}): Promise<BrowserSite> {
  const password = options.password ?? SITE_PASSWORD;
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    requests.push(`${req.method} ${url.pathname}`);
    const html = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
    };
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /login') return html(200, LOGIN_FORM);
    // A login's body, then whether it names ada with the site's password.
    const login = (
      read: (body: string) => { user?: unknown; password?: unknown },
      then: (ok: boolean) => void,
    ) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        const sent = read(body);
        then(sent.user === 'ada' && sent.password === password);
      });
    };
    if (route === 'POST /login')
      return login(
        (body) => Object.fromEntries(new URLSearchParams(body)),
        (ok) => {
          if (ok)
            return void res
              .writeHead(302, { location: '/account', 'set-cookie': `session=${SESSION}; Path=/; HttpOnly` })
              .end();
          html(401, page('Sign in', '<p id="error">Wrong password</p>'));
        },
      );
    if (route === 'GET /login-json') return html(200, JSON_LOGIN);
    if (route === 'POST /api/login')
      return login(
        (body) => JSON.parse(body || '{}'),
        (ok) => {
          if (ok)
            return void res
              .writeHead(200, {
                'content-type': 'application/json',
                'set-cookie': `session=${SESSION}; Path=/`,
              })
              .end('{"ok":true}');
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Wrong password"}');
        },
      );
    if (route === 'GET /account') {
      if ((req.headers.cookie ?? '').includes(`session=${SESSION}`))
        return html(200, page('Account', '<h1>Welcome, ada</h1><ul><li>a</li><li>b</li><li>c</li></ul>'));
      return void res.writeHead(302, { location: '/login' }).end();
    }
    if (route === 'GET /app')
      return html(200, page('App', '<div id="out">loading</div><script src="/app.js"></script>'));
    if (route === 'GET /app.js')
      return void res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(
          "fetch('/api/data').then((r) => r.json()).then((d) => { document.getElementById('out').textContent = d.message; });",
        );
    if (route === 'GET /api/data')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"data loaded"}');
    if (route === 'GET /metadata')
      return html(
        200,
        page(
          'Metadata',
          `<div id="out">waiting</div><script>fetch('http://169.254.169.254/latest/meta-data/')
            .then(() => 'reached', () => 'blocked').then((t) => { document.getElementById('out').textContent = t; });</script>`,
        ),
      );
    if (route === 'GET /ws')
      return html(
        200,
        page(
          'Socket',
          `<div id="out">waiting</div><script>const ws = new WebSocket('ws://169.254.169.254/socket');
            ws.onopen = () => { document.getElementById('out').textContent = 'open'; };
            ws.onerror = () => { document.getElementById('out').textContent = 'closed'; };</script>`,
        ),
      );
    if (route === 'GET /redirect')
      return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (route === 'GET /slow') return; // never answers
    html(404, page('Not found', 'Not found'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
