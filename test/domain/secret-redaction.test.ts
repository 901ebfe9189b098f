import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUT_MARK, secretRedactor, urlSecrets } from '../../lib/domain/redaction/secret-redaction.ts';
import { ENCODINGS, encode, filler, headerValue, LEAK_RUN, leakOf } from '../support/secret-leaks.ts';

/**
 * The redactor of what probes and action runs store (docs/api.md "Secrets in results"): examples
 * of each form, then a property over generated echoes — generated secrets in generated header
 * values (plain, `Bearer`, `Basic`, URL credentials), reflected in every encoding a reflecting
 * endpoint uses, at any byte alignment, several times, split, cut short — judged by an oracle
 * that decodes the text (test/support/secret-leaks.ts).
 */

const SECRET = 'sk_live_0123456789abcdef';

describe('the secret redactor', () => {
  const redact = secretRedactor([
    `Bearer ${SECRET}`,
    `Basic ${Buffer.from('deploy:pa55word!').toString('base64')}`,
  ]);

  it('hides a value as written and in its encodings', () => {
    for (const shown of [
      SECRET,
      JSON.stringify({ v: SECRET }),
      encodeURIComponent(`Bearer ${SECRET}`),
      Buffer.from(SECRET).toString('hex'),
      Buffer.from(SECRET).toString('hex').toUpperCase(),
      Buffer.from(`x${SECRET}`).toString('base64'),
      Buffer.from(`xy${SECRET}`).toString('base64url'),
      Buffer.from(`{"authorization":"Bearer ${SECRET}"}`).toString('base64'),
      'deploy:pa55word!',
      'pw=pa55word%21',
    ]) {
      const out = redact(`<${shown}>`);
      expect(out, shown).toContain('********');
      expect(leakOf(out, SECRET) ?? leakOf(out, 'pa55word!'), shown).toBeUndefined();
    }
  });

  it('hides a secret with a `+` in every spelling, the form-decoded one (`+` read as a space) too', () => {
    const plus = secretRedactor(['tok+en/abc==']);
    for (const shown of [
      'tok+en/abc==',
      // A trace's network log: the query of `?token=tok+en/abc==` as a reader decodes it.
      '{"queryString":[{"name":"token","value":"tok en/abc=="}]}',
      'tok%2Ben%2Fabc%3D%3D',
      'tok%2ben%2fabc%3d%3d',
      'tok%20en%2Fabc%3D%3D',
      'tok+en%2Fabc%3D%3D',
      Buffer.from('tok+en/abc==').toString('base64'),
      Buffer.from('tok en/abc==').toString('base64'),
      Buffer.from('tok+en/abc==').toString('hex'),
    ]) {
      const out = plus(`<${shown}>`);
      expect(out, shown).toContain('********');
      expect(out, shown).not.toMatch(/tok[+ %]|abc/i);
    }
  });

  it('hides a secret split in two, or cut short at the end or before a …', () => {
    expect(redact(`a=${SECRET.slice(0, 12)} b=${SECRET.slice(12)}`)).toBe('a=******** b=********');
    expect(redact(`...Bearer ${SECRET.slice(0, 6)}`)).toBe('...********');
    expect(redact(`is "${SECRET.slice(0, 5)}${CUT_MARK}", expected`)).toBe(
      `is "********${CUT_MARK}", expected`,
    );
  });

  it('leaves short values and unrelated text alone', () => {
    const short = secretRedactor(['json', 'true']);
    expect(short('{"type":"json","ok":true}')).toBe('{"type":"json","ok":true}');
    expect(redact('assertion failed: $.status is "ok", expected eq "up"')).toBe(
      'assertion failed: $.status is "ok", expected eq "up"',
    );
  });

  it("takes a URL's userinfo and secret-looking parameters as secrets", () => {
    expect(
      urlSecrets('https://mon:pa%24%24word@example.com/h?region=eu&api_key=k3y-123456#token=t0k3n-abc'),
    ).toEqual([
      'mon',
      'mon',
      'pa%24%24word',
      'pa$$word',
      'k3y-123456',
      'k3y-123456',
      't0k3n-abc',
      't0k3n-abc',
    ]);
    expect(urlSecrets('https://{{host}}/x')).toEqual([]);
    expect(urlSecrets('not a url')).toEqual([]);
  });
});

/** One reflection of the value: an encoding, the bytes before it in an encoded stream, whether the whole value or the secret alone. */
const reflection = fc.record({
  encoding: fc.constantFrom(...ENCODINGS),
  lead: filler,
  whole: fc.boolean(),
  before: filler,
  after: filler,
});

describe('a generated echo', () => {
  it('never gives a generated secret back, in any encoding, split or cut', () => {
    fc.assert(
      fc.property(
        headerValue,
        fc.array(reflection, { minLength: 1, maxLength: 3 }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        ({ value, secrets }, reflections, split, cut) => {
          const [secret = ''] = secrets;
          let echo = reflections
            .map((r) => `${r.before}${encode(r.whole ? value : secret, r.encoding, r.lead)}${r.after}`)
            .join(' | ');
          if (split !== undefined) {
            // The secret in the first reflection's encoding, split in two fields.
            const [first] = reflections;
            const encoded = first ? encode(secret, first.encoding, first.lead) : secret;
            const at = split % encoded.length;
            echo += ` {"a":"${encoded.slice(0, at)}","b":"${encoded.slice(at)}"}`;
          }
          if (cut !== undefined && cut < echo.length) {
            // A value shortened in a message (…), or a snippet cut at its size.
            echo =
              cut % 2 === 0 ? `${echo.slice(0, echo.length - cut)}${CUT_MARK}", more` : echo.slice(0, -cut);
          }
          const out = secretRedactor([value])(echo);
          for (const s of secrets) expect(leakOf(out, s), `echo ${JSON.stringify(echo)}`).toBeUndefined();
        },
      ),
      { numRuns: 600 },
    );
  });

  it('is judged by an oracle that finds the leaks it promises to hide', () => {
    // The oracle itself: without the redactor every encoding is found.
    for (const encoding of ENCODINGS) {
      expect(leakOf(encode(SECRET, encoding, 'é'), SECRET), encoding).toBeDefined();
    }
    expect(leakOf(SECRET.slice(0, LEAK_RUN), SECRET)).toBeDefined();
    expect(leakOf(SECRET.slice(0, LEAK_RUN - 1), SECRET)).toBeUndefined();
  });
});
