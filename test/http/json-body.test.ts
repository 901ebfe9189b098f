import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_JSON_DEPTH, parseJsonBody, withinDepth } from '../../lib/http/requests/json-body.ts';
import { parseInput } from '../../lib/http/requests/validation.ts';
import { ValidationError } from '../../lib/platform/errors.ts';

const depth = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

function thrown(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe('parseJsonBody', () => {
  it('parses a body nesting exactly the maximum depth', () => {
    expect(parseJsonBody(Buffer.from(depth(MAX_JSON_DEPTH)))).toBeDefined();
  });

  it('refuses a body one level deeper with a detail naming the body', () => {
    const err = thrown(() => parseJsonBody(Buffer.from(depth(MAX_JSON_DEPTH + 1))));
    expect(err.details).toEqual([{ path: 'body', message: 'nests deeper than 32 levels' }]);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: `\\"${'{['.repeat(100)}` });
    expect(withinDepth(text, 2)).toBe(true);
    expect(parseJsonBody(Buffer.from(text))).toEqual({ a: `\\"${'{['.repeat(100)}` });
  });

  it('refuses __proto__ keys, plain or escaped, and names where', () => {
    const plain = thrown(() => parseJsonBody(Buffer.from('{"a":[{"__proto__":{}}]}')));
    expect(plain.details).toEqual([{ path: 'a.0.__proto__', message: "'__proto__' is a reserved name" }]);
    const escaped = thrown(() => parseJsonBody(Buffer.from('{"\\u005f_proto__":1}')));
    expect(escaped.details?.[0]?.path).toBe('__proto__');
  });

  it('accepts "__proto__" as a value', () => {
    expect(parseJsonBody(Buffer.from('{"name":"__proto__"}'))).toEqual({ name: '__proto__' });
  });
});

describe('parseInput', () => {
  it('caps details at 20 and counts the rest in a 21st', () => {
    const schema = z.array(z.string());
    const err = thrown(() =>
      parseInput(
        schema,
        Array.from({ length: 50 }, () => 1),
      ),
    );
    expect(err.details).toHaveLength(21);
    expect(err.details?.[20]).toEqual({ path: '…', message: '30 more issues not shown' });
    expect(err.message.length).toBeLessThan(400);
  });

  it('clips long keys in paths and messages', () => {
    const err = thrown(() => parseInput(z.strictObject({}), { ['k'.repeat(10_000)]: 1 }));
    expect(err.details?.[0]?.path.length).toBeLessThanOrEqual(200);
    expect(err.details?.[0]?.message.length).toBeLessThanOrEqual(200);
    expect(err.message.length).toBeLessThanOrEqual(1000);
  });

  it('reports one message per path', () => {
    const schema = z.strictObject({ n: z.number().int().min(0).max(10) });
    const err = thrown(() => parseInput(schema, { n: 1e300 }));
    expect(err.details).toHaveLength(1);
  });

  it('says the body is required when there is none', () => {
    const err = thrown(() => parseInput(z.strictObject({ a: z.string() }), undefined));
    expect(err.message).toBe('request body is required');
  });
});
