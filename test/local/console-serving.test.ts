import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../lib/http/policies/console-policy.ts';
import { isApiPath } from '../../lib/local/console-files.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { type Raw, rawRequest } from './raw-request.ts';

// The local runtime serving the built web console at `/` next to the API under /v1.

const INDEX =
  '<!doctype html><title>Vigil</title><script type="module" src="/assets/index-abc123.js"></script>';
const SCRIPT = 'console.log("vigil")';
const STYLE = 'body{color:#111}';

/** A raw request: the path goes out byte for byte (fetch would resolve `..` before sending). */
function send(
  base: string,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return rawRequest({ host: hostname, port, method, path, headers });
}

const workdirs: string[] = [];

/** A local runtime on a fresh database, reading the console from `consoleDir`, with its log lines. */
async function start(consoleDir: string): Promise<{ runtime: LocalRuntime; logs: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-console-data-'));
  workdirs.push(dataDir);
  const logs: string[] = [];
  const runtime = await startLocalRuntime({
    config: {
      ...loadConfig('local', { VIGIL_CONSOLE_DIR: consoleDir, VIGIL_ALLOWED_HOSTS: 'vigil.lan' }),
      dataDir,
      port: 0,
    },
    logger: createLogger({ level: 'info', write: (line) => logs.push(line) }),
    host: '127.0.0.1',
    scheduler: false,
    actionSchedule: false,
  });
  return { runtime, logs };
}

afterAll(() => {
  for (const dir of workdirs) rmSync(dir, { recursive: true, force: true });
});

describe('local runtime: the built console', () => {
  let runtime: LocalRuntime;
  let logs: string[];
  let root: string;
  let url: string;

  beforeAll(async () => {
    // A secret beside the console directory: no request may read it.
    root = mkdtempSync(join(tmpdir(), 'vigil-console-'));
    workdirs.push(root);
    writeFileSync(join(root, 'secret.txt'), 'top secret');
    const dist = join(root, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(dist, 'assets', 'index-def456.css'), STYLE);
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dist, '.env'), 'HIDDEN=1');
    ({ runtime, logs } = await start(dist));
    url = runtime.url;
  }, 60_000);

  afterAll(() => runtime.stop());

  it('answers index.html at / without caching it, with the security headers', async () => {
    const res = await send(url, '/');
    expect(res.status).toBe(200);
    expect(res.body).toBe(INDEX);
    expect(res.headers['content-type']).toBe('text/html;charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('allows only its own origin in the Content-Security-Policy', () => {
    const directives = Object.fromEntries(
      CONSOLE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(directives).toMatchObject({
      'script-src': "'self'",
      'connect-src': "'self'",
      'img-src': "'self' data:",
      'style-src': "'self' 'unsafe-inline'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
    });
    expect(CONSOLE_CSP).not.toMatch(/https?:|\*|'unsafe-eval'/);
  });

  it('serves hashed assets with their content type, cached for a year as immutable', async () => {
    const js = await send(url, '/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.body).toBe(SCRIPT);
    expect(js.headers['content-type']).toBe('text/javascript');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-security-policy']).toBe(CONSOLE_CSP);
    const css = await send(url, '/assets/index-def456.css');
    expect(css.headers['content-type']).toBe('text/css');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const svg = await send(url, '/favicon.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('no-cache');
  });

  it('answers 304 to a revalidation with the ETag it gave', async () => {
    const first = await send(url, '/');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await send(url, '/', 'GET', { 'if-none-match': String(etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it.each(['/status', '/entities/a/b', '/accept?token=x', '/settings/keys/'])(
    'answers index.html, not cached, for the client route %s',
    async (path) => {
      const res = await send(url, path);
      expect(res.status).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('answers 404, not index.html, for a missing asset or file', async () => {
    for (const path of ['/assets/index-old999.js', '/assets/gone', '/robots.txt']) {
      const res = await send(url, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('<title>');
      expect(res.headers['cache-control'], path).toBe('no-store');
    }
  });

  it('answers HEAD with the head of GET and no body', async () => {
    const get = await send(url, '/assets/index-abc123.js');
    const head = await send(url, '/assets/index-abc123.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(SCRIPT)));
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect((await send(url, '/entities/a/b', 'HEAD')).headers['content-length']).toBe(String(INDEX.length));
  });

  it('refuses the shell and its assets under a Host it is not known by (DNS rebinding), 403', async () => {
    for (const path of ['/', '/assets/index-abc123.js', '/entities/a/b'])
      for (const headers of [
        { host: 'evil.example.com' } as Record<string, string>,
        { host: 'evil.example.com:8080', origin: 'http://evil.example.com:8080' },
      ]) {
        const res = await send(url, path, 'GET', headers);
        expect(res.status, `${path} ${headers.host}`).toBe(403);
        expect(res.body).not.toContain(SCRIPT);
        expect(res.body).not.toContain('<title>');
      }
    // A known Host with another page's Origin (a module script fetched cross-site) is refused too.
    const crossSite = await send(url, '/assets/index-abc123.js', 'GET', {
      host: 'localhost',
      origin: 'http://evil.example.com',
    });
    expect(crossSite.status).toBe(403);
  });

  it('serves under the loopback names on any port and VIGIL_ALLOWED_HOSTS', async () => {
    for (const host of ['localhost:1234', '127.0.0.1', '[::1]:8080', 'vigil.lan:8080']) {
      const res = await send(url, '/', 'GET', { host });
      expect(res.status, host).toBe(200);
      expect(res.body).toBe(INDEX);
    }
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/%252e%252e/secret.txt',
    '/.env',
    '/%2eenv',
  ])('never reads a file outside the directory or a hidden one: %s', async (path) => {
    const res = await send(url, path);
    expect(res.body).not.toContain('top secret');
    expect(res.body).not.toContain('HIDDEN');
    expect([404, 400]).toContain(res.status);
  });

  it('leaves /v1 to the API: an unknown path is its JSON 404', async () => {
    const res = await send(url, '/v1/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'NOT_FOUND' });
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect((await send(url, '/healthz')).body).toBe('{"status":"ok"}');
  });

  it('serves the API with the printed key', async () => {
    const res = await send(url, '/v1/me', 'GET', { authorization: `Bearer ${runtime.bootstrapKey}` });
    expect(res.status).toBe(200);
  });

  it('hands methods other than GET and HEAD to the API router, never to the files', async () => {
    const res = await send(url, '/index.html', 'POST');
    expect(res.body).not.toBe(INDEX);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('reports the console as built, logging no warning about it', () => {
    expect(runtime.console).toEqual({ url: `${url}/`, dir: join(root, 'dist'), built: true });
    expect(logs.filter((line) => line.includes('console not built'))).toEqual([]);
  });
});

describe('local runtime: no console built', () => {
  let runtime: LocalRuntime;
  let logs: string[];

  beforeAll(async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'vigil-console-')), 'dist');
    workdirs.push(join(missing, '..'));
    ({ runtime, logs } = await start(missing));
  }, 60_000);

  afterAll(() => runtime.stop());

  it('answers a 503 page at / and client routes saying how to build the console', async () => {
    for (const path of ['/', '/status', '/accept?token=x']) {
      const res = await send(runtime.url, path);
      expect(res.status, path).toBe(503);
      expect(res.headers['content-type'], path).toBe('text/plain; charset=utf-8');
      expect(res.body, path).toContain('not built');
      expect(res.body, path).toContain('npm run build:web');
      expect(res.headers['content-security-policy'], path).toBe(CONSOLE_CSP);
    }
  });

  it('keeps the API working', async () => {
    const me = await send(runtime.url, '/v1/me', 'GET', { authorization: `Bearer ${runtime.bootstrapKey}` });
    expect(me.status).toBe(200);
    const nope = await send(runtime.url, '/v1/nope');
    expect(nope.status).toBe(404);
    expect(JSON.parse(nope.body)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('logs once at start that the console is not built', () => {
    expect(runtime.console.built).toBe(false);
    const warnings = logs.filter((line) => line.includes('console not built'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('npm run build:web');
  });
});

describe('console directory', () => {
  it('is web/dist of this checkout unless VIGIL_CONSOLE_DIR names another, resolved from the working directory', () => {
    expect(loadConfig('local', {}).consoleDir).toBe(join(import.meta.dirname, '..', '..', 'web', 'dist'));
    expect(loadConfig('local', { VIGIL_CONSOLE_DIR: 'build/console' }).consoleDir).toBe(
      join(process.cwd(), 'build', 'console'),
    );
  });
});

describe('isApiPath', () => {
  it('claims /v1, what is under it and /healthz, and nothing that merely starts alike', () => {
    for (const path of ['/v1', '/v1/', '/v1?x=1', '/v1/status/stream', '/healthz', '/healthz?x', '*'])
      expect(isApiPath(path), path).toBe(true);
    for (const path of ['/', '/v10', '/v1x/a', '/v1.js', '/healthzz', '/status', '/assets/v1/a.js'])
      expect(isApiPath(path), path).toBe(false);
  });

  it('claims ping URLs, which cron curls GET, and not a console page that merely starts alike', () => {
    for (const path of ['/ping/vpt_abc', '/ping/vpt_abc/fail', '/ping/x?y=1'])
      expect(isApiPath(path), path).toBe(true);
    for (const path of ['/ping', '/pings', '/pingdom/a']) expect(isApiPath(path), path).toBe(false);
  });

  it('claims on-call calendar feeds, which calendars GET, and not a console page that merely starts alike', () => {
    for (const path of ['/ical/vcal_abc.ics', '/ical/x']) expect(isApiPath(path), path).toBe(true);
    for (const path of ['/ical', '/icalendar/a']) expect(isApiPath(path), path).toBe(false);
  });

  it('claims acknowledgement links, and not a console page that merely starts alike', () => {
    for (const path of ['/a/vack_abc', '/a/x']) expect(isApiPath(path), path).toBe(true);
    for (const path of ['/a', '/about', '/alerts/a']) expect(isApiPath(path), path).toBe(false);
  });

  it("claims the OAuth authorization server and its metadata, not the console's consent page", () => {
    for (const path of [
      '/oauth/authorize?client_id=x',
      '/oauth/token',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/v1/mcp',
      '/.well-known/oauth-authorization-server',
    ])
      expect(isApiPath(path), path).toBe(true);
    for (const path of ['/oauth', '/consent?request=x', '/.well-known/security.txt'])
      expect(isApiPath(path), path).toBe(false);
  });
});
