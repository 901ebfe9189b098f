import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../lib/check-types/run-probe.ts';
import type { HttpAssertion } from '../../lib/domain/http-assertions.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { listenOnLoopback } from '../support/cell-fixtures.ts';
import {
  assertionsFor,
  ENCODINGS,
  filler,
  headerValue,
  leakOf,
  PLACES,
  type Reflection,
  reflectingEndpoint,
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

let target: Server;
let origin: string;
/** What the endpoint answered last (the test checks it did reflect the secret). */
const last: Reflection = { text: '', value: '' };

beforeAll(async () => {
  target = createServer(reflectingEndpoint(last));
  origin = `http://127.0.0.1:${await listenOnLoopback(target)}`;
});
afterAll(() => {
  target?.close();
});

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
        expect(last.value).toBe(sent);
        // ...and the message does not.
        for (const secret of secrets) {
          expect(
            leakOf(outcome.error_message, secret),
            `${JSON.stringify(assertion)} on ${last.text}`,
          ).toBeUndefined();
        }
      }),
      { numRuns: 80 },
    );
  });
});
