import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpAssertion } from '../../lib/domain/http-assertions.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { runProbe } from '../../lib/probes/run-probe.ts';
import { listenOnLoopback } from '../support/cell-fixtures.ts';
import {
  ENCODINGS,
  type Encoding,
  encode,
  filler,
  headerValue,
  leakOf,
  secretValue,
} from '../support/secret-leaks.ts';

/**
 * The probe's whole output against targets that reflect what it sent (docs/api.md "Secrets in
 * results"): a property over generated secrets (in a header, plain, Bearer or Basic, or in a
 * secret-looking query parameter of the URL), reflected by a real endpoint on 127.0.0.1 in a
 * generated encoding and place (a json field, deep in an object, the whole document, a response
 * header, the text body), read by a generated assertion that fails. Whatever the assertion shows,
 * the outcome's message gives no secret back (test/support/secret-leaks.ts decodes it to look).
 */

const PLACES = ['json', 'nested', 'halves', 'header', 'text'] as const;
type Place = (typeof PLACES)[number];

let target: Server;
let origin: string;
/** What the endpoint sent back last, and the value it reflected (the test checks it was the secret). */
let reflected = '';
let reflectedValue = '';

beforeAll(async () => {
  target = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = url.searchParams;
    const from = query.get('from') ?? 'header';
    const raw =
      from === 'url' ? (query.get('api_key') ?? '') : String(req.headers[query.get('name') ?? ''] ?? '');
    const value = encode(raw, (query.get('enc') ?? 'raw') as Encoding, query.get('lead') ?? '');
    const place = (query.get('place') ?? 'json') as Place;
    const half = Math.floor(value.length / 2);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    let body: string;
    if (place === 'json') body = JSON.stringify({ echo: value });
    else if (place === 'nested') body = JSON.stringify({ data: { items: [{ v: value, n: 1 }] } });
    else if (place === 'halves') body = JSON.stringify({ parts: [value.slice(0, half), value.slice(half)] });
    else if (place === 'header') {
      headers['x-echo'] = value;
      body = '{}';
    } else body = `reflected: ${value}`;
    reflected = `${body} ${headers['x-echo'] ?? ''}`;
    reflectedValue = raw;
    res.writeHead(200, headers);
    res.end(body);
  });
  origin = `http://127.0.0.1:${await listenOnLoopback(target)}`;
});
afterAll(() => {
  target?.close();
});

/** Assertions that fail on each place, each showing what it read where it shows anything. */
const assertionsFor: Record<Place, HttpAssertion[]> = {
  json: [
    { source: 'json', path: '$.echo', op: 'eq', value: 'x' },
    { source: 'json', path: '$', op: 'eq', value: 'x' },
    { source: 'json', path: '$.echo', op: 'gt', value: 1 },
  ],
  nested: [
    { source: 'json', path: '$.data', op: 'eq', value: 'x' },
    { source: 'json', path: '$.data.items[0].v', op: 'matches', value: '^nothing$' },
    { source: 'json', path: '$.data.items', op: 'contains', value: 'x' },
  ],
  halves: [
    { source: 'json', path: '$.parts', op: 'eq', value: 'x' },
    { source: 'json', path: '$.parts[1]', op: 'eq', value: 'x' },
  ],
  header: [
    { source: 'header', path: 'X-Echo', op: 'eq', value: 'x' },
    { source: 'header', path: 'x-echo', op: 'lt', value: 0 },
  ],
  text: [
    { source: 'body', op: 'matches', value: '^nothing$' },
    { source: 'json', path: '$.echo', op: 'exists' },
  ],
};

const echoCase = fc.record({
  header: headerValue,
  name: fc.constantFrom('X-Api-Key', 'Authorization', 'X-Custom', 'X-Upstream-Auth'),
  fromUrl: fc.boolean(),
  urlSecret: secretValue,
  encoding: fc.constantFrom(...ENCODINGS),
  lead: filler,
  place: fc.constantFrom(...PLACES),
  pick: fc.nat(),
});

describe('a probe of a target that reflects its request', () => {
  it('never stores a generated secret, whatever the echo and the assertion', async () => {
    await fc.assert(
      fc.asyncProperty(echoCase, async (c) => {
        const assertions = assertionsFor[c.place];
        const assertion = assertions[c.pick % assertions.length] as HttpAssertion;
        const query = new URLSearchParams({
          name: c.name.toLowerCase(),
          enc: c.encoding,
          lead: c.lead,
          place: c.place,
          from: c.fromUrl ? 'url' : 'header',
          api_key: c.urlSecret,
        });
        const outcome = await runProbe(
          {
            check_type: 'http',
            target_url: `${origin}/echo?${query}`,
            headers: { [c.name]: c.header.value },
            assertions: [assertion],
            timeout_ms: 5000,
          },
          { clock: systemClock, allowPrivate: true },
        );
        const sent = c.fromUrl ? c.urlSecret : c.header.value;
        const secrets = c.fromUrl ? [c.urlSecret] : [c.header.value, ...c.header.secrets];
        expect(outcome.success, outcome.error_message).toBe(false);
        // The endpoint did reflect the secret...
        expect(reflectedValue).toBe(sent);
        // ...and the message does not.
        for (const secret of secrets) {
          expect(
            leakOf(outcome.error_message, secret),
            `${JSON.stringify(assertion)} on ${reflected}`,
          ).toBeUndefined();
        }
      }),
      { numRuns: 80 },
    );
  });
});
