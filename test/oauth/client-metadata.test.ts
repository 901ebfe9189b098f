import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientMetadataFetcher } from '../../lib/oauth/client-metadata.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { createTlsFixtures, type TlsFixtures } from '../support/tls-fixtures.ts';
import { PUBLIC_URL, pkcePair, REDIRECT_URI, requestNoFollow } from './oauth-support.ts';

/** An https server on 127.0.0.1 serving client metadata documents by path, counting fetches. */
let tls: TlsFixtures;
let server: Server;
let base: string;
const fetched: string[] = [];
const documents = new Map<string, unknown>();

beforeAll(async () => {
  tls = createTlsFixtures();
  server = createServer(tls.valid, (req, res) => {
    fetched.push(req.url ?? '');
    const doc = documents.get(req.url ?? '');
    res.writeHead(doc === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(doc === undefined ? '{}' : JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(server.address() as AddressInfo).port}`;
  documents.set('/client.json', {
    client_id: `${base}/client.json`,
    client_name: 'Metadata client',
    redirect_uris: [REDIRECT_URI],
  });
  documents.set('/mismatch.json', {
    client_id: 'https://someone-else.example/client.json',
    redirect_uris: [REDIRECT_URI],
  });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const logger = createLogger({ level: 'error', write: () => undefined });

describe('client metadata documents (the fetcher)', () => {
  it('refuses a document on a private address unless the egress allows it', async () => {
    const clock = createFakeClock();
    const guarded = createClientMetadataFetcher({
      clock,
      logger,
      egressAllow: [],
      egress: { ca: [tls.caCert] },
    });
    const before = fetched.length;
    expect(await guarded(`${base}/client.json`)).toBeUndefined();
    // Refused before any connection: the server saw nothing.
    expect(fetched.length).toBe(before);
  });

  it('fetches an allowed document, checks its client_id and keeps it for the TTL', async () => {
    const clock = createFakeClock();
    const fetch = createClientMetadataFetcher({
      clock,
      logger,
      egressAllow: ['127.0.0.1/32'],
      egress: { ca: [tls.caCert] },
    });
    const before = fetched.length;
    const client = await fetch(`${base}/client.json`);
    expect(client).toEqual({
      client_id: `${base}/client.json`,
      client_name: 'Metadata client',
      redirect_uris: [REDIRECT_URI],
    });
    expect(await fetch(`${base}/client.json`)).toEqual(client);
    expect(fetched.length - before).toBe(1);
    clock.advance(5 * 60_000 + 1);
    await fetch(`${base}/client.json`);
    expect(fetched.length - before).toBe(2);
    // A document naming another client_id than its URL is refused; so is a missing one.
    expect(await fetch(`${base}/mismatch.json`)).toBeUndefined();
    expect(await fetch(`${base}/missing.json`)).toBeUndefined();
  });
});

describe.each(runtimes)('a metadata-document client at /oauth/authorize ($runtime)', ({ start }) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await start({
      env: { VIGIL_PUBLIC_URL: PUBLIC_URL, VIGIL_EGRESS_ALLOW: '127.0.0.1/32' },
      egress: { ca: [tls.caCert] },
      scheduler: false,
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('authorizes a client whose client_id is its document URL, on its redirect URIs only', async () => {
    const query = (redirect: string) =>
      new URLSearchParams({
        response_type: 'code',
        client_id: `${base}/client.json`,
        redirect_uri: redirect,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
    const ok = await requestNoFollow(api, 'GET', `/oauth/authorize?${query(REDIRECT_URI)}`);
    expect(ok.status, ok.text).toBe(302);
    const requestId = new URL(ok.headers.location ?? '').searchParams.get('request');
    const shown = await api.request('GET', `/v1/oauth/requests/${requestId}`, { key: api.adminKey });
    expect(shown.body).toMatchObject({
      client_id: `${base}/client.json`,
      client_name: 'Metadata client',
      scopes: ['read'],
    });
    const other = await requestNoFollow(api, 'GET', `/oauth/authorize?${query('http://127.0.0.1:1/other')}`);
    expect(other.status).toBe(400);
  });
});
