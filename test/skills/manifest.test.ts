import { describe, expect, it } from 'vitest';
import { CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { createInputSchemaCompiler } from '../../lib/skills/input-schema.ts';
import { createSkillBody, SKILL_LIMITS } from '../../lib/skills/manifest.ts';

const tool = (overrides: Record<string, unknown> = {}) => ({
  name: 'restart_service',
  description: 'Restarts a service',
  inputSchema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
  ...overrides,
});
const manifest = (overrides: Record<string, unknown> = {}) => ({
  slug: 'runbooks',
  name: 'Runbooks',
  description: 'Ops runbooks',
  version: '1.0.0',
  tools: [tool()],
  ...overrides,
});
/** The issue messages of a manifest that does not parse (empty when it parses). */
const problems = (body: unknown) =>
  createSkillBody.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('skill manifest', () => {
  it('accepts the catalog-ops manifest and defaults enabled to true', () => {
    const parsed = createSkillBody.parse(CATALOG_OPS_MANIFEST);
    expect(parsed.tools.map((t) => t.name)).toEqual(CATALOG_OPS_MANIFEST.tools.map((t) => t.name));
    expect(parsed.tools).toHaveLength(13);
    expect(createSkillBody.parse(manifest()).enabled).toBe(true);
  });

  it.each(['', 'has space', 'slash/name', 'é', 'x'.repeat(129)])('rejects the tool name %j', (name) => {
    expect(problems(manifest({ tools: [tool({ name })] }))[0]).toMatch(/^tools\.0\.name/);
  });

  it.each(['a', 'A.b-c_d', 'x'.repeat(128)])('accepts the tool name %j', (name) => {
    expect(problems(manifest({ tools: [tool({ name })] }))).toEqual([]);
  });

  it.each(['1', '1.0', '01.0.0', '1.0.0-', 'v1.0.0', '1.0.0.0'])('rejects the version %j', (version) => {
    expect(problems(manifest({ version }))[0]).toMatch(/^version/);
  });

  it.each(['0.0.1', '1.2.3-rc.1', '10.20.30+build.5'])('accepts the version %j', (version) => {
    expect(problems(manifest({ version }))).toEqual([]);
  });

  it.each([
    ['a non-object type', { type: 'string' }, /type "object"/],
    ['no type', { properties: {} }, /type "object"/],
    ['an unknown keyword', { type: 'object', propertees: {} }, /not a valid JSON Schema.*unknown keyword/],
    [
      'a bad property type',
      { type: 'object', properties: { a: { type: 'strin' } } },
      /not a valid JSON Schema/,
    ],
    ['an invalid $anchor', { type: 'object', $defs: { a: { $anchor: '1a' } } }, /invalid anchor/],
    ['an unknown dialect', { type: 'object', $schema: 'https://example.com/schema' }, /\$schema/],
  ])('rejects an inputSchema with %s', (_label, inputSchema, message) => {
    const [problem] = problems(manifest({ tools: [tool({ inputSchema })] }));
    expect(problem).toMatch(/^tools\.0\.inputSchema/);
    expect(problem).toMatch(message);
  });

  // The focal schema of the official MCP conformance suite's json-schema-2020-12 scenario (SEP-1613,
  // SEP-2106): $anchor, the anyOf-of-required idiom, if/then/else, additionalProperties false.
  const conformance2020 = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      home: { $ref: '#addressDef' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then`, never awaited
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  };

  it.each([
    ['the conformance suite’s 2020-12 tool schema', conformance2020],
    ['a required property declared nowhere else', { type: 'object', required: ['x'] }],
    ['a minimum beside no type', { type: 'object', properties: { n: { minimum: 0 } } }],
    ['an open prefixItems', { type: 'object', properties: { t: { prefixItems: [{ type: 'string' }] } } }],
  ])('accepts a valid JSON Schema 2020-12 inputSchema: %s', (_label, inputSchema) => {
    expect(problems(manifest({ tools: [tool({ inputSchema })] }))).toEqual([]);
  });

  it('validates a call by the 2020-12 schema: $anchor references, anyOf of required, if/then/else', () => {
    for (const mode of ['register', 'call'] as const) {
      const validate = createInputSchemaCompiler(mode)(conformance2020);
      expect(validate({ name: 'a', email: 'e@example.com' }), mode).toBe(true);
      expect(validate({ name: 'a' }), `${mode}: neither phone nor email`).toBe(false);
      expect(validate({ email: 'e', home: { street: 1 } }), `${mode}: #addressDef`).toBe(false);
      expect(validate({ contactMethod: 'phone', email: 'e' }), `${mode}: then`).toBe(false);
      expect(validate({ email: 'e', extra: 1 }), `${mode}: additionalProperties`).toBe(false);
    }
  });

  it('rejects an inputSchema over the size bound', () => {
    const inputSchema = { type: 'object', description: 'x'.repeat(SKILL_LIMITS.inputSchemaBytes) };
    expect(problems(manifest({ tools: [tool({ inputSchema })] }))[0]).toMatch(/at most/);
  });

  it('rejects duplicate tool names, too many tools and unknown fields', () => {
    expect(problems(manifest({ tools: [tool(), tool()] }))[0]).toMatch(
      /^tools\.1\.name: Another tool of this skill is named restart_service: use a different name\.$/,
    );
    const many = Array.from({ length: SKILL_LIMITS.tools + 1 }, (_, i) => tool({ name: `t${i}` }));
    expect(problems(manifest({ tools: many }))[0]).toMatch(/^tools/);
    expect(problems(manifest({ tools: [tool({ outputSchema: {} })] }))[0]).toMatch(/outputSchema/);
  });

  it('compiles draft-07 and 2020-12 schemas, and the same $id in two skills', () => {
    const compile = createInputSchemaCompiler();
    const schema = { $id: 'https://example.com/x', type: 'object', properties: { n: { type: 'integer' } } };
    expect(compile(schema)({ n: 1 })).toBe(true);
    expect(compile({ ...schema })({ n: 'x' })).toBe(false);
    const draft07 = compile({ ...schema, $schema: 'http://json-schema.org/draft-07/schema#' });
    expect(draft07({ n: 2 })).toBe(true);
  });

  it('takes https://json-schema.org/draft-07/schema as it takes http:// (with or without #), in both modes', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    for (const mode of ['register', 'call'] as const)
      for (const $schema of [
        'https://json-schema.org/draft-07/schema',
        'https://json-schema.org/draft-07/schema#',
        'http://json-schema.org/draft-07/schema',
      ]) {
        const validate = createInputSchemaCompiler(mode)({ ...schema, $schema });
        expect(validate({ n: 1 }), `${mode} ${$schema}`).toBe(true);
        expect(validate({ n: 'x' }), `${mode} ${$schema}`).toBe(false);
      }
    expect(
      problems(
        manifest({
          tools: [
            tool({ inputSchema: { type: 'object', $schema: 'https://json-schema.org/draft-07/schema' } }),
          ],
        }),
      ),
    ).toEqual([]);
  });
});
