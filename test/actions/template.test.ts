import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillJsonTemplate, isJsonTemplate, jsonTemplateParts } from '../../lib/actions/runs/json-template.ts';
import { builtInVars, fillBody, fillTemplate } from '../../lib/actions/runs/template.ts';
import type { StateChangeEvent } from '../../lib/domain/states/state-change-event.ts';
import { ValidationError } from '../../lib/platform/errors.ts';

const ACTION = { id: 'act_01J0000000000000000000000A', name: 'restart' };
const EXEC = 'exe_01J0000000000000000000000B';
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const EVENT: StateChangeEvent = {
  entity_id: 'ent_1',
  entity_name: 'payments',
  check_id: 'chk_1',
  tenant_id: 'tnt_1',
  from_state: 'up',
  to_state: 'down',
  transition_id: 'trn_1',
  timestamp: '2026-03-01T11:59:59.000Z',
};

describe('fillTemplate', () => {
  it('replaces known placeholders, with or without inner spaces', () => {
    const out = fillTemplate('a={{name}} b={{ name }} c={{  other}}', { name: 'x', other: 'y' });
    expect(out).toBe('a=x b=x c=y');
  });

  it('leaves unknown and malformed placeholders as written', () => {
    const template = '{{missing}} {{Name}} {{ 9x }} {name} {{a-b}} {{}}';
    expect(fillTemplate(template, { name: 'x' })).toBe(template);
  });

  it('does not read inherited object properties as variables', () => {
    expect(fillTemplate('{{constructor}} {{__proto__}}', {})).toBe('{{constructor}} {{__proto__}}');
  });

  it('substitutes values as written and does not fill placeholders inside values', () => {
    const out = fillTemplate('{{a}}/{{b}}', { a: 'x"y\\z', b: '{{a}}' });
    expect(out).toBe('x"y\\z/{{a}}');
  });
});

describe('fillBody', () => {
  it('follows a JSON Content-Type header whatever the case of its name', () => {
    const filled = fillBody({ 'content-TYPE': 'application/json; charset=utf-8' }, '{"a":"{{v}}"}', {
      v: '"',
    });
    expect(filled.body).toBe('{"a":"\\""}');
    const github = fillBody({ 'Content-Type': 'application/vnd.github+json' }, '{"a":"{{v}}"}', { v: '"' });
    expect(JSON.parse(github.body ?? '')).toEqual({ a: '"' });
  });

  it('follows a non-JSON Content-Type header even when the template is JSON', () => {
    const form = fillBody({ 'Content-Type': 'application/x-www-form-urlencoded' }, '{"a":"{{v}}"}', {
      v: '"',
    });
    expect(form).toEqual({
      body: '{"a":"""}',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  });

  it('without a Content-Type, sends a JSON object or array template as application/json', () => {
    expect(fillBody({}, '{"ref":"{{ref}}"}', { ref: 'main' })).toEqual({
      body: '{"ref":"main"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(fillBody({ Authorization: 'Bearer x' }, '[1, {{n}}]', { n: '2' }).headers).toEqual({
      Authorization: 'Bearer x',
      'content-type': 'application/json',
    });
  });

  it('without a Content-Type, fills other templates as written and sends no Content-Type', () => {
    expect(fillBody({}, 'token=abc&ref={{ref}}', { ref: 'a"b' })).toEqual({
      body: 'token=abc&ref=a"b',
      headers: {},
    });
    expect(fillBody({}, '{{message}}', { message: '42' })).toEqual({ body: '42', headers: {} });
    expect(fillBody({}, '', { message: 'x' })).toEqual({ body: undefined, headers: {} });
  });

  it('decides JSON by the template, so a value cannot turn escaping off', () => {
    // Before: the body was JSON only if it parsed once filled, so an unquoted placeholder made it text.
    const filled = fillBody({}, '{"count": {{n}}, "user":"{{user}}"}', {
      n: '3',
      user: 'a","admin":true,"b":"',
    });
    expect(filled.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(filled.body ?? '')).toEqual({ count: 3, user: 'a","admin":true,"b":"' });
  });

  it('refuses a value that is not a JSON scalar in a bare position, naming the variable', () => {
    const run = () =>
      fillBody({}, '{"count": {{n}}, "ok": true}', { n: 'a","admin":true,"b":"' }, { n: 'x' });
    expect(run).toThrow(ValidationError);
    expect(run).toThrow(/^vars\.n: \{\{n\}\} stands outside a JSON string/);
    const builtIn = () =>
      fillBody({ 'Content-Type': 'application/json' }, '{"id": {{execution_id}}}', { execution_id: 'exe_1' });
    expect(builtIn).toThrow(/^body_template: /);
  });
});

describe('jsonTemplateParts', () => {
  it('tells placeholders inside strings from bare ones, escaped quotes included', () => {
    const parts = jsonTemplateParts('{"a":"{{x}}","b\\"{{y}}":{{z}},"c":["\\\\",{{w}}]}');
    expect(parts.filter((p) => p.kind === 'placeholder').map((p) => [p.name, p.inString])).toEqual([
      ['x', true],
      ['y', true],
      ['z', false],
      ['w', false],
    ]);
  });
});

describe('isJsonTemplate', () => {
  it('reads placeholders outside strings as null and wants an object or an array', () => {
    expect(isJsonTemplate('{"n": {{n}}, "s": "{{s}}"}')).toBe(true);
    expect(isJsonTemplate('[{{a}}, {{ b }}]')).toBe(true);
    expect(isJsonTemplate('{"n": {{n}} {{m}}}')).toBe(false);
    expect(isJsonTemplate('{{n}}')).toBe(false);
    expect(isJsonTemplate('"text"')).toBe(false);
    expect(isJsonTemplate('a={{a}}&b=2')).toBe(false);
  });
});

/** JSON object keys: lowercase words; string literals: any text without placeholder braces. */
const key = fc.stringMatching(/^[a-z]{1,6}$/);
const literal = fc.string().filter((s) => !s.includes('{{'));

/** A template value: a placeholder in a string, around text, bare, or a literal. */
const valueTemplate = fc.oneof(
  fc.constant({ kind: 'quoted' as const }),
  fc.tuple(literal, literal).map(([pre, post]) => ({ kind: 'embedded' as const, pre, post })),
  fc.constant({ kind: 'bare' as const }),
  fc.jsonValue({ maxDepth: 1, depthSize: 'xsmall' }).map((value) => ({ kind: 'literal' as const, value })),
);
/** A var's value: any text, or the text of a JSON scalar (what a bare position accepts). */
const varValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.integer().map(String),
  fc.constantFrom('true', 'false', 'null', '-0.5e-3', '1E+2', ' 1', '01', '1.', 'NaN', '"x"'),
);

describe('JSON templates (property)', () => {
  it('give valid JSON with exactly the template keys, string values round-tripping, for any vars', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, valueTemplate), { selector: ([k]) => k, minLength: 1, maxLength: 6 }),
        fc.array(varValue, { minLength: 6, maxLength: 6 }),
        fc.boolean(),
        (fields, values, withHeader) => {
          const vars: Record<string, string> = {};
          const expected: Record<string, unknown> = {};
          const entries = fields.map(([name, value], i) => {
            const v = values[i] ?? '';
            const placeholder = `{{ v${i} }}`;
            vars[`v${i}`] = v;
            switch (value.kind) {
              case 'quoted':
                expected[name] = v;
                return `${JSON.stringify(name)}:"${placeholder}"`;
              case 'embedded': {
                expected[name] = `${value.pre}${v}${value.post}`;
                const [pre, post] = [value.pre, value.post].map((t) => JSON.stringify(t).slice(1, -1));
                return `${JSON.stringify(name)}:"${pre}${placeholder}${post}"`;
              }
              case 'bare':
                expected[name] = v;
                return `${JSON.stringify(name)}: ${placeholder}`;
              default:
                // JSON has no -0: the template's own text is what a literal means.
                expected[name] = JSON.parse(JSON.stringify(value.value));
                return `${JSON.stringify(name)}:${JSON.stringify(value.value)}`;
            }
          });
          const template = `{${entries.join(',')}}`;
          const headers: Record<string, string> = withHeader ? { 'Content-Type': 'application/json' } : {};
          let body: string | undefined;
          try {
            body = fillBody(headers, template, vars, vars).body;
          } catch (err) {
            // Only a bare value that is not a JSON scalar is refused, and it says which.
            expect(err).toBeInstanceOf(ValidationError);
            const refused = fields.some(([, value], i) => value.kind === 'bare' && !isJsonScalar(values[i]));
            expect(refused).toBe(true);
            return;
          }
          const parsed = JSON.parse(body ?? '');
          expect(Object.keys(parsed).sort()).toEqual(fields.map(([name]) => name).sort());
          for (const [name, value] of fields) {
            if (value.kind === 'bare') expect(parsed[name]).toEqual(JSON.parse(String(expected[name])));
            else expect(parsed[name]).toEqual(expected[name]);
          }
        },
      ),
    );
  });

  it('never lets a value add a field, whatever it holds (property)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('"', '\\', ',', ':', '}', '{', 'a', '1', ' ', '\n', '\u2028', 't', 'n'),
        }),
        fc.string({ unit: fc.constantFrom('"', '\\', ',', ':', '}', '{', '1', '.', 'e', '-', 'true') }),
        (s, n) => {
          let body: string | undefined;
          try {
            body = fillBody({}, '{"s":"{{s}}","n": {{n}} }', { s, n }).body;
          } catch (err) {
            expect(err).toBeInstanceOf(ValidationError);
            expect(isJsonScalar(n)).toBe(false);
            return;
          }
          const parsed = JSON.parse(body ?? '');
          expect(Object.keys(parsed)).toEqual(['s', 'n']);
          expect(parsed.s).toBe(s);
        },
      ),
    );
  });

  it('keeps lone surrogates as escapes that round-trip (property)', () => {
    const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(surrogate, fc.constant('"')) }), (v) => {
        expect(JSON.parse(fillJsonTemplate('{"v":"{{v}}"}', { v })).v).toBe(v);
      }),
    );
  });
});

function isJsonScalar(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    const value: unknown = JSON.parse(text);
    return (value === null || typeof value !== 'object') && typeof value !== 'string' && text.trim() === text;
  } catch {
    return false;
  }
}

describe('builtInVars', () => {
  it('always has the execution, the action and an RFC 3339 UTC timestamp', () => {
    expect(builtInVars(ACTION, EXEC, NOW)).toEqual({
      execution_id: EXEC,
      action_id: ACTION.id,
      action_name: 'restart',
      timestamp: '2026-03-01T12:00:00.000Z',
    });
  });

  it('adds the state change context when an event fired the run', () => {
    const vars = builtInVars(ACTION, EXEC, NOW, EVENT);
    expect(vars).toMatchObject({
      entity_id: 'ent_1',
      entity_name: 'payments',
      check_id: 'chk_1',
      from_state: 'up',
      to_state: 'down',
      transition_id: 'trn_1',
    });
    expect(vars).not.toHaveProperty('tenant_id');
  });

  it('builds the callback URL from the public URL, or leaves the bare path without one', () => {
    const withUrl = builtInVars(ACTION, EXEC, NOW, undefined, {
      token: 'vcb_t',
      publicUrl: 'https://vigil.example.com/',
    });
    expect(withUrl.callback_url).toBe(`https://vigil.example.com/v1/actions/executions/${EXEC}/events`);
    expect(withUrl.callback_token).toBe('vcb_t');
    const bare = builtInVars(ACTION, EXEC, NOW, undefined, { token: 'vcb_t' });
    expect(bare.callback_url).toBe(`/v1/actions/executions/${EXEC}/events`);
  });
});
