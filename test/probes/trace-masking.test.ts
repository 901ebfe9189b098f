import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { keptTrace } from '../../lib/probes/browser/trace-masking.ts';
import { secretSpellings } from '../check-types/support/trace-secrets.ts';

/**
 * A browser run's trace as the child answers it (lib/probes/browser/trace-masking.ts): every entry
 * of the zip rewritten with the check's secrets masked in each spelling, binary entries included,
 * the other entries and bytes as they were; a trace over the bound is left out, saying why.
 */

const SECRET = 'p@ss w0rd&"<x>';

/** A zip as Playwright writes a trace: events, network, a binary resource. */
function traceZip(): Uint8Array {
  const events = secretSpellings(SECRET)
    .map((s) => JSON.stringify({ type: 'before', method: 'fill', params: { value: s } }))
    .join('\n');
  return zipSync({
    'trace.trace': strToU8(`${events}\n{"type":"after","callId":"call@1"}\n`),
    'trace.network': strToU8(`{"postData":{"text":"user=ada&password=${encodeURIComponent(SECRET)}"}}`),
    'resources/page@1.jpeg': new Uint8Array([0xff, 0xd8, ...strToU8(SECRET), 0xff, 0xd9]),
    'resources/plain.html': strToU8('<p>nothing to hide</p>'),
  });
}

const entriesOf = (answer: ReturnType<typeof keptTrace>) => {
  if (!('trace' in answer)) throw new Error(answer.trace_left_out);
  return unzipSync(new Uint8Array(Buffer.from(answer.trace, 'base64')));
};

describe('keptTrace', () => {
  it('masks the secret in every entry and every spelling, leaving the rest as it was', () => {
    const entries = entriesOf(keptTrace(traceZip(), [SECRET]));

    expect(Object.keys(entries).sort()).toEqual([
      'resources/page@1.jpeg',
      'resources/plain.html',
      'trace.network',
      'trace.trace',
    ]);
    for (const [name, bytes] of Object.entries(entries))
      for (const spelling of secretSpellings(SECRET))
        expect(Buffer.from(bytes).includes(spelling), `${name}: ${spelling}`).toBe(false);
    expect(Buffer.from(entries['trace.network'] ?? []).toString()).toBe(
      '{"postData":{"text":"user=ada&password=********"}}',
    );
    expect([...(entries['resources/page@1.jpeg'] ?? [])]).toEqual([
      0xff,
      0xd8,
      ...strToU8('********'),
      0xff,
      0xd9,
    ]);
    expect(Buffer.from(entries['resources/plain.html'] ?? []).toString()).toBe('<p>nothing to hide</p>');
    expect(Buffer.from(entries['trace.trace'] ?? []).toString()).toContain(
      '{"type":"after","callId":"call@1"}',
    );
  });

  it('answers the trace as it was when the check has no secrets', () => {
    const zip = traceZip();

    const entries = entriesOf(keptTrace(zip, []));

    expect(Buffer.from(entries['trace.network'] ?? []).toString()).toContain(encodeURIComponent(SECRET));
  });

  it('leaves out a trace larger than the bound and says so', () => {
    const answer = keptTrace(traceZip(), [SECRET], 100);

    expect(answer).toEqual({
      trace_left_out: expect.stringMatching(
        /^the trace \(0\.0 MB\) was larger than the 0\.0 MB a result keeps and was left out$/,
      ),
    });
  });
});
