import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainCheckType } from '../../lib/check-types/domain/domain.ts';
import { runDomainProbe } from '../../lib/check-types/domain/domain-probe.ts';
import { type RdapBootstrap, rdapServerFor, shippedBootstrap } from '../../lib/check-types/rdap-bootstrap.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { ProbeDeps } from '../../lib/probes/types.ts';
import { portOf } from '../probes/support/http-server.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const clock = createFakeClock(NOW);
let server: Server;
let base: string;
let caCert: string;
const requests: { url: string; accept: string | undefined }[] = [];

/** An RDAP domain object (RFC 9083 section 5.3) with its registration and expiration events. */
const domainObject = (name: string, expiresInDays: number) => ({
  rdapConformance: ['rdap_level_0'],
  objectClassName: 'domain',
  ldhName: name.toUpperCase(),
  status: ['active'],
  events: [
    { eventAction: 'registration', eventDate: '2015-03-01T10:00:00Z' },
    { eventAction: 'expiration', eventDate: new Date(NOW + expiresInDays * DAY).toISOString() },
    { eventAction: 'last update of RDAP database', eventDate: new Date(NOW).toISOString() },
  ],
  notices: [{ title: 'Terms of Use', description: ['Service subject to terms of use.'] }],
});

const answers: Record<string, (res: import('node:http').ServerResponse) => void> = {
  'soon.test': (res) => json(res, 200, domainObject('soon.test', 10)),
  'fine.test': (res) => json(res, 200, domainObject('fine.test', 100)),
  'gone.test': (res) => json(res, 200, domainObject('gone.test', -5)),
  'cached.test': (res) => json(res, 200, domainObject('cached.test', 200)),
  'missing.test': (res) => json(res, 404, { errorCode: 404, title: 'Not Found', description: ['not found'] }),
  'busy.test': (res) => {
    res.writeHead(429, { 'retry-after': '60', 'content-type': 'application/rdap+json' }).end('{}');
  },
  'broken.test': (res) => {
    res
      .writeHead(200, { 'content-type': 'application/rdap+json' })
      .end('{"objectClassName": "domain", "events": [');
  },
  'noexp.test': (res) =>
    json(res, 200, {
      objectClassName: 'domain',
      ldhName: 'noexp.test',
      events: [{ eventAction: 'registration', eventDate: '2015-03-01T10:00:00Z' }],
    }),
  'shop.co.test': (res) => json(res, 200, domainObject('shop.co.test', 100)),
};

function json(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/rdap+json' }).end(JSON.stringify(body));
}

beforeAll(async () => {
  const fixtures = createTlsFixtures();
  caCert = fixtures.caCert;
  server = createServer(fixtures.valid, (req, res) => {
    requests.push({ url: req.url ?? '', accept: req.headers.accept });
    const match = /^\/(rdap|co)\/domain\/([^/?]+)$/.exec(req.url ?? '');
    const name = match?.[2] ?? '';
    // The co.test server knows only co.test names: a wrong longest-match pick would 404.
    const answer = match && (match[1] === 'co') === name.endsWith('.co.test') ? answers[name] : undefined;
    if (answer) answer(res);
    else json(res, 404, { errorCode: 404, title: 'Not Found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `https://localhost:${portOf(server)}`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

const bootstrap = (): RdapBootstrap => ({
  services: [
    [['test'], [`${base}/rdap/`]],
    [['co.test'], [`http://localhost:1/co/`, `${base}/co/`]],
  ],
});
const deps = (): ProbeDeps => ({ clock, allowPrivate: true, tlsCa: [caCert], rdapBootstrap: bootstrap() });
const job = (domain: string, extra: { expiry_threshold_days?: number } = {}) => ({
  check_type: 'domain' as const,
  domain,
  timeout_ms: 3000,
  ...extra,
});

describe('domain check type', () => {
  it('is up when the registration expires after the threshold, with the date in details', async () => {
    const outcome = await runDomainProbe(job('fine.test'), deps());
    expect(outcome).toMatchObject({
      success: true,
      error_message: '',
      details: {
        days_left: 100,
        expires_at: new Date(NOW + 100 * DAY).toISOString(),
        rdap_server: `${base}/rdap/`,
      },
    });
    expect(outcome.degraded).toBeUndefined();
    expect(requests.find((r) => r.url === '/rdap/domain/fine.test')?.accept).toMatch(
      /^application\/rdap\+json/,
    );
  });

  it('is degraded inside the threshold', async () => {
    expect(await runDomainProbe(job('soon.test'), deps())).toMatchObject({
      success: true,
      degraded: true,
      error_message: 'registration expires in 10 days (2026-06-11; threshold 30)',
      details: { days_left: 10 },
    });
    const short = await runDomainProbe(job('soon.test', { expiry_threshold_days: 7 }), deps());
    expect(short.degraded).toBeUndefined();
  });

  it('is down once expired', async () => {
    expect(await runDomainProbe(job('gone.test'), deps())).toMatchObject({
      success: false,
      error_message: 'registration expired 5 days ago (2026-05-27)',
      details: { days_left: -5 },
    });
  });

  it('is down when the registry does not know the domain (404)', async () => {
    expect(await runDomainProbe(job('missing.test'), deps())).toMatchObject({
      success: false,
      error_message: 'missing.test is not registered (the RDAP server answered 404)',
    });
  });

  it('is down with a clear error on malformed JSON, a missing date or a rate limit', async () => {
    expect((await runDomainProbe(job('broken.test'), deps())).error_message).toBe(
      'the RDAP server answered with malformed JSON',
    );
    expect((await runDomainProbe(job('noexp.test'), deps())).error_message).toBe(
      'the registry publishes no expiration date for this domain (no RDAP expiration event)',
    );
    expect((await runDomainProbe(job('busy.test'), deps())).error_message).toBe(
      'the RDAP server is rate-limiting requests (HTTP 429); try a longer interval',
    );
  });

  it('asks the server of the longest matching bootstrap entry, its https URL first', async () => {
    expect(await runDomainProbe(job('shop.co.test'), deps())).toMatchObject({
      success: true,
      details: { rdap_server: `${base}/co/` },
    });
  });

  it('asks RDAP once per domain within the cache time', async () => {
    const before = requests.filter((r) => r.url.endsWith('/cached.test')).length;
    await runDomainProbe(job('cached.test'), deps());
    const second = await runDomainProbe(job('cached.test'), deps());
    expect(second).toMatchObject({ success: true, details: { days_left: 200 } });
    expect(requests.filter((r) => r.url.endsWith('/cached.test')).length).toBe(before + 1);
  });

  it('refuses a private RDAP server without allowPrivate', async () => {
    // A name not asked before: a cached answer needs no request.
    const outcome = await runDomainProbe(job('never.test'), { ...deps(), allowPrivate: false });
    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toMatch(/^RDAP server localhost:\d+: destination 127\.0\.0\.1 is/);
  });

  it('is down for a top-level domain no RDAP server is known for', async () => {
    expect((await runDomainProbe(job('example.invalid'), deps())).error_message).toBe(
      'no RDAP server is known for .invalid (IANA bootstrap)',
    );
  });
});

describe('the shipped RDAP bootstrap', () => {
  it('finds the registry of real names', () => {
    expect(rdapServerFor('example.com', shippedBootstrap)).toBe('https://rdap.verisign.com/com/v1/');
    expect(rdapServerFor('example.co.uk', shippedBootstrap)).toBe('https://rdap.nominet.uk/uk/');
    expect(rdapServerFor('example.invalid', shippedBootstrap)).toBeUndefined();
  });

  it('prefers the longest entry whatever the order', () => {
    const both: RdapBootstrap = {
      services: [
        [['co.uk'], ['https://long.example/']],
        [['uk'], ['https://short.example']],
      ],
    };
    expect(rdapServerFor('a.co.uk', both)).toBe('https://long.example/');
    expect(rdapServerFor('a.org.uk', both)).toBe('https://short.example/');
  });
});

describe('domain config', () => {
  it('takes a bare domain name and names the field otherwise', () => {
    expect(domainCheckType.input.parse({ domain: ' Example.COM. ' })).toEqual({ domain: 'example.com' });
    const bad = domainCheckType.input.safeParse({ domain: 'https://example.com/' });
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['domain'],
      message: expect.stringMatching(/^Enter a registered domain/),
    });
    expect(domainCheckType.input.safeParse({ domain: 'localhost' }).success).toBe(false);
  });
});
