import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInVars, fillTemplate, isJsonBody } from '../../lib/actions/template.ts';
import type { StateChangeEvent } from '../../lib/notify/records.ts';

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
    const out = fillTemplate(
      'a={{name}} b={{ name }} c={{  other}}',
      { name: 'x', other: 'y' },
      { json: false },
    );
    expect(out).toBe('a=x b=x c=y');
  });

  it('leaves unknown and malformed placeholders as written', () => {
    const template = '{{missing}} {{Name}} {{ 9x }} {name} {{a-b}} {{}}';
    expect(fillTemplate(template, { name: 'x' }, { json: false })).toBe(template);
  });

  it('does not read inherited object properties as variables', () => {
    expect(fillTemplate('{{constructor}} {{__proto__}}', {}, { json: false })).toBe(
      '{{constructor}} {{__proto__}}',
    );
  });

  it('substitutes values as written without json and does not fill placeholders inside values', () => {
    const out = fillTemplate('{{a}}/{{b}}', { a: 'x"y\\z', b: '{{a}}' }, { json: false });
    expect(out).toBe('x"y\\z/{{a}}');
  });

  it('escapes a quoted name so the JSON payload stays intact', () => {
    const out = fillTemplate(
      '{"entity":"{{entity_name}}"}',
      { entity_name: 'a "quoted" name' },
      { json: true },
    );
    expect(JSON.parse(out)).toEqual({ entity: 'a "quoted" name' });
  });

  it('keeps any JSON body parseable and round-trips every value (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ unit: 'binary' }), (a, b) => {
        const out = fillTemplate(
          '{"a":"{{a}}","nested":{"b":"pre {{ b }} post"},"list":["{{a}}"]}',
          { a, b },
          { json: true },
        );
        const parsed = JSON.parse(out);
        expect(parsed).toEqual({ a, nested: { b: `pre ${b} post` }, list: [a] });
      }),
    );
  });

  it('keeps lone surrogates as escapes that round-trip (property)', () => {
    const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(surrogate, fc.constant('"')) }), (v) => {
        expect(JSON.parse(fillTemplate('{"v":"{{v}}"}', { v }, { json: true })).v).toBe(v);
      }),
    );
  });

  it('cannot add fields to a JSON object through a value (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('"', '\\', ',', ':', '}', '{', 'x', '\n', '\u2028') }),
        (v) => {
          const parsed = JSON.parse(fillTemplate('{"only":"{{v}}"}', { v }, { json: true }));
          expect(Object.keys(parsed)).toEqual(['only']);
          expect(parsed.only).toBe(v);
        },
      ),
    );
  });
});

describe('isJsonBody', () => {
  it('follows a JSON Content-Type header whatever the case of its name', () => {
    expect(isJsonBody({ 'content-TYPE': 'application/json; charset=utf-8' }, 'not json')).toBe(true);
    expect(isJsonBody({ 'Content-Type': 'application/vnd.github+json' }, '')).toBe(true);
  });

  it('follows a non-JSON Content-Type header even when the body parses', () => {
    expect(isJsonBody({ 'Content-Type': 'application/x-www-form-urlencoded' }, '{"a":1}')).toBe(false);
    expect(isJsonBody({ 'Content-Type': 'text/plain' }, '[]')).toBe(false);
  });

  it('without a Content-Type, decides by whether the filled body parses', () => {
    expect(isJsonBody({}, '{"ref":"main"}')).toBe(true);
    expect(isJsonBody({ Authorization: 'Bearer x' }, '[1, 2]')).toBe(true);
    expect(isJsonBody({}, 'token=abc&ref=main')).toBe(false);
    expect(isJsonBody({}, '')).toBe(false);
    expect(isJsonBody({}, '   ')).toBe(false);
  });
});

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
