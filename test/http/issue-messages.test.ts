import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { slugSchema } from '../../lib/domain/formats/slug.ts';
import { listInWords } from '../../lib/http/requests/issue-messages.ts';
import { parseInput } from '../../lib/http/requests/validation.ts';
import type { ValidationError } from '../../lib/platform/errors.ts';

function refusal(schema: z.ZodType, value: unknown): ValidationError {
  try {
    parseInput(schema, value);
  } catch (err) {
    return err as ValidationError;
  }
  throw new Error('expected a refusal');
}

/** The one detail a refusal of `{ v: value }` carries for `v`. */
const sentenceFor = (schema: z.ZodType, value: unknown) =>
  refusal(z.strictObject({ v: schema }), value === undefined ? {} : { v: value }).details?.[0]?.message;

describe('a validation message is a sentence a person reads at the field', () => {
  const cases: [string, z.ZodType, unknown, string][] = [
    ['a missing field', z.string(), undefined, 'This field is required.'],
    ['a null field', z.number(), null, 'This field is required.'],
    ['an empty required text', z.string().min(1), '', 'This field is required.'],
    ['a short text', z.string().min(8), 'abc', 'Use at least 8 characters.'],
    ['a long text', z.string().max(3), 'abcd', 'Use at most 3 characters.'],
    ['a number below its minimum', z.number().int().min(60), 5, 'Enter 60 or more.'],
    ['a number not above an exclusive minimum', z.number().positive(), 0, 'Enter more than 0.'],
    ['a number above its maximum', z.number().max(100), 101, 'Enter 100 or less.'],
    ['a number not below an exclusive maximum', z.number().lt(5), 5, 'Enter less than 5.'],
    ['a fraction for a whole number', z.number().int(), 1.5, 'Enter a whole number.'],
    ['text for a number', z.number(), 'ten', 'Enter a number.'],
    ['a number for text', z.string(), 5, 'Enter text.'],
    ['text for a yes/no', z.boolean(), 'yes', 'Use true or false.'],
    ['text for a list', z.array(z.string()), 'a', 'Use a list.'],
    ['text for an object', z.record(z.string(), z.string()), 'a', 'Use an object of named values.'],
    ['an empty list', z.array(z.string()).min(1), [], 'Add at least one.'],
    ['a long list', z.array(z.string()).max(2), ['a', 'b', 'c'], 'Use at most 2 items.'],
    [
      'a value outside a choice',
      z.enum(['slack', 'discord', 'webhook']),
      'irc',
      'Choose one of: slack, discord or webhook.',
    ],
    ['a value other than a literal', z.literal('depends_on'), 'uses', 'Use depends_on.'],
    ['a bad email', z.email(), 'me', 'Enter an email address, such as name@example.com.'],
    ['a bad URL', z.url(), 'nope', 'Enter a full URL, such as https://example.com.'],
    ['a bad time', z.iso.datetime(), 'today', 'Enter a date and time, such as 2026-01-31T09:00:00Z.'],
    ['a number not a multiple', z.number().multipleOf(5), 7, 'Enter a multiple of 5.'],
    [
      'a pattern without words of its own',
      z.string().regex(/^a/),
      'b',
      'This value is not in the expected format.',
    ],
    [
      'a refinement without words of its own',
      z.string().refine(() => false),
      'x',
      'This value is not valid.',
    ],
    [
      'a refinement with its own words',
      z.string().refine(() => false, 'Pick another name.'),
      'x',
      'Pick another name.',
    ],
    [
      'a union no form fits',
      z.union([z.string(), z.number()]),
      true,
      'This value matches none of the accepted forms.',
    ],
  ];

  it.each(cases)('for %s', (_what, schema, value, sentence) => {
    const err = refusal(z.strictObject({ v: schema }), value === undefined ? {} : { v: value });
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual([{ path: 'v', message: sentence }]);
    expect(err.message).toBe(`invalid body: v: ${sentence.replace(/\.$/, '')}`);
  });

  it('lists the choices of a discriminated union at its discriminator', () => {
    const schema = z.discriminatedUnion('type', [
      z.object({ type: z.literal('http') }),
      z.object({ type: z.literal('tcp') }),
    ]);
    expect(refusal(z.strictObject({ v: schema }), { v: { type: 'dns' } }).details).toEqual([
      { path: 'v.type', message: 'Choose one of: http or tcp.' },
    ]);
  });

  it('names unknown fields, a few of them, and counts the rest', () => {
    const one = refusal(z.strictObject({}), { colour: 'red' });
    expect(one.details).toEqual([{ path: 'colour', message: 'Unknown field: colour.' }]);
    const many = refusal(
      z.strictObject({}),
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 1])),
    );
    expect(many.details?.[0]?.message).toBe('Unknown fields: k0, k1, k2, k3, k4, k5, k6, k7 and 12 more.');
  });

  it('says an empty slug is missing and a bad one what a slug may hold', () => {
    expect(sentenceFor(slugSchema(), '')).toBe('Enter a slug.');
    expect(sentenceFor(slugSchema(), 'Not OK')).toBe(
      'Use lower-case letters (a-z), digits and hyphens, starting with a letter or a digit, at most 63 characters.',
    );
  });

  it('shows no code, type name or comparison sign', () => {
    for (const [, schema, value] of cases) {
      const message = sentenceFor(schema, value) ?? '';
      expect(message).not.toMatch(
        /[<>=]|received|Invalid|Too (small|big)|expected (string|number|int|boolean|array|object)/,
      );
      expect(message).toMatch(/^[A-Z].*\.$/);
    }
  });
});

describe('listInWords', () => {
  it('joins names as a sentence does', () => {
    expect(listInWords(['a'])).toBe('a');
    expect(listInWords(['a', 'b'], 'or')).toBe('a or b');
    expect(listInWords(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
