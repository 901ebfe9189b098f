import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/domain/principal.ts';
import { ARGUMENT_LIMITS } from '../../lib/skills/schema-budget.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { agentAdmin } from './agent.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * Tenant-supplied inputSchemas cannot make a tools/call slow (issue 24, 10a): patterns run on RE2,
 * at registration and on the call path; a pattern RE2 cannot run is refused with 400; arguments
 * over the bounds are refused with a tool error naming the bound before any validation. The
 * schemas of the audit (a backtracking pattern, uniqueItems over a long array, a pattern in
 * items) register and validate. No timing is asserted: the RE2 engine is shown by what only its
 * semantics accept.
 */

const text = (result: CallToolResult | undefined) =>
  result?.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n') ?? '';

/** The audit's schemas, and two whose patterns only RE2 reads this way. */
const SCHEMAS = {
  backtracking: {
    type: 'object',
    properties: { s: { type: 'string', pattern: '^(a+)+$' } },
    required: ['s'],
  },
  unique: { type: 'object', properties: { list: { type: 'array', uniqueItems: true } } },
  pattern_in_items: {
    type: 'object',
    properties: { list: { type: 'array', items: { type: 'string', pattern: '^(a|aa)+$' } } },
  },
  // RE2's `.` matches every character but \n; JavaScript's also refuses \r, \u2028 and \u2029.
  any_char: { type: 'object', properties: { c: { type: 'string', pattern: '^.$' } }, required: ['c'] },
  // A leading inline flag: RE2 syntax that JavaScript's RegExp does not compile.
  inline_flag: {
    type: 'object',
    properties: { w: { type: 'string', pattern: '^(?i)abc$' } },
    required: ['w'],
  },
};

describe.each(runtimes)('tool arguments under tenant-supplied schemas ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let admin: Principal;
  let client: Client;

  const call = (name: string, args: Record<string, unknown>) => api.app.tools.call(admin, name, args);
  const register = (slug: string, tools: { name: string; inputSchema: Record<string, unknown> }[]) =>
    api.request('POST', '/v1/skills', {
      key: api.adminKey,
      body: {
        slug,
        name: slug,
        version: '1.0.0',
        tools: tools.map((t) => ({
          ...t,
          description: 'A tenant tool',
          annotations: { readOnlyHint: true },
        })),
      },
    });

  beforeAll(async () => {
    api = await start();
    admin = agentAdmin(api.tenantId);
    const res = await register(
      'schemas',
      Object.entries(SCHEMAS).map(([name, inputSchema]) => ({ name, inputSchema })),
    );
    expect(res.status, res.text).toBe(201);
    client = await connectSdkClient(api, api.adminKey);
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  it.each([
    ['a backreference', '^(a)\\1$'],
    ['a lookahead', '^(?=a)a+$'],
    ['a lookbehind', '(?<=a)b'],
  ])('refuses at registration a pattern with %s (400 naming it)', async (_label, pattern) => {
    const res = await register('refused', [
      {
        name: 'refused_tool',
        inputSchema: { type: 'object', properties: { s: { type: 'string', pattern } } },
      },
    ]);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details[0].path).toBe('tools.0.inputSchema');
    expect(res.body.details[0].message).toContain('is not supported (RE2 syntax');
    expect(res.body.details[0].message).toContain(JSON.stringify(pattern));
  });

  it('never tests property names against patterns with JavaScript’s RegExp at registration', async () => {
    // ajv's strict mode tests each declared property name against each patternProperties key with
    // JavaScript's backtracking RegExp (and refuses a match); registration turns that check off.
    const res = await register('matching', [
      {
        name: 'matching_tool',
        inputSchema: {
          type: 'object',
          properties: { aaa: { type: 'string' } },
          patternProperties: { '^(a+)+$': { type: 'string' } },
        },
      },
    ]);
    expect(res.status, res.text).toBe(201);
  });

  it('validates the backtracking pattern of the audit with RE2', async () => {
    const failing = await call('backtracking', { s: `${'a'.repeat(30)}!` });
    expect(failing?.isError).toBe(true);
    expect(text(failing)).toContain('/s must match pattern');
    expect(text(await call('backtracking', { s: 'a'.repeat(30) }))).toBe(
      'tool backtracking has no implementation',
    );
  });

  it('validates uniqueItems, and refuses the audit’s 20,000 items before validating', async () => {
    const distinct = Array.from({ length: ARGUMENT_LIMITS.arrayItems }, (_, i) => ({ n: i, tag: 'x' }));
    expect(text(await call('unique', { list: distinct }))).toBe('tool unique has no implementation');
    const repeated = await call('unique', { list: [...distinct.slice(0, 10), { tag: 'x', n: 3 }] });
    expect(text(repeated)).toContain('must NOT have duplicate items (items ## 3 and 10 are identical)');
    const long = await call('unique', { list: Array.from({ length: 20_000 }, (_, i) => i) });
    expect(long?.isError).toBe(true);
    expect(text(long)).toBe(
      `arguments of unique exceed a limit: at most ${ARGUMENT_LIMITS.arrayItems} items per array`,
    );
  });

  it('validates a pattern in items', async () => {
    const list = Array.from({ length: 100 }, () => `${'a'.repeat(28)}!`);
    expect(text(await call('pattern_in_items', { list }))).toContain('/list/0 must match pattern');
    expect(text(await call('pattern_in_items', { list: ['aaa', 'a'] }))).toBe(
      'tool pattern_in_items has no implementation',
    );
  });

  it('validates on the call path with RE2 semantics, over the SDK client too', async () => {
    expect(text(await call('any_char', { c: '\r' }))).toBe('tool any_char has no implementation');
    expect(text(await call('any_char', { c: '\n' }))).toContain('/c must match pattern');
    expect(text(await call('inline_flag', { w: 'ABC' }))).toBe('tool inline_flag has no implementation');
    expect(text(await call('inline_flag', { w: 'abd' }))).toContain('/w must match pattern');
    const viaSdk = (await client.callTool({ name: 'any_char', arguments: { c: '\r' } })) as CallToolResult;
    expect(text(viaSdk)).toBe('tool any_char has no implementation');
  });

  it.each([
    ['bytes', { s: 'a'.repeat(ARGUMENT_LIMITS.bytes) }, `at most ${ARGUMENT_LIMITS.bytes} bytes as JSON`],
    [
      'values',
      { list: Array.from({ length: 5 }, () => Array.from({ length: 1000 }, () => 0)) },
      `at most ${ARGUMENT_LIMITS.values} values in all`,
    ],
    [
      'depth',
      { s: JSON.parse(`${'['.repeat(ARGUMENT_LIMITS.depth)}${']'.repeat(ARGUMENT_LIMITS.depth)}`) },
      `at most ${ARGUMENT_LIMITS.depth} levels of nesting`,
    ],
  ])('refuses arguments over the %s bound with a tool error naming it', async (_bound, args, message) => {
    const local = await call('backtracking', args);
    expect(local?.isError).toBe(true);
    expect(text(local)).toBe(`arguments of backtracking exceed a limit: ${message}`);
    const viaSdk = (await client.callTool({ name: 'backtracking', arguments: args })) as CallToolResult;
    expect(viaSdk.isError).toBe(true);
    expect(text(viaSdk)).toContain(message);
  });
});
