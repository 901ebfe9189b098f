import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** The rule as a user reads it; no refusal may show the pattern behind it. */
const RULE_IN_WORDS =
  'may contain only lowercase letters (a-z), digits and hyphens, must start with a letter or a digit, ' +
  'and is at most 63 characters long';

describe.each(runtimes)('a refused slug says the rule in words ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start();
    const bp = await api.request('POST', '/v1/blueprints', {
      key: api.adminKey,
      body: { slug: 'service', name: 'Service' },
    });
    expect(bp.status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
  });

  const refusals: [string, string, string, unknown, string][] = [
    ['a blueprint', 'POST', '/v1/blueprints', { slug: 'Not_OK', name: 'x' }, 'slug'],
    ['an entity', 'POST', '/v1/blueprints/service/entities', { slug: '-api', name: 'API' }, 'slug'],
    ['a skill', 'POST', '/v1/skills', { slug: 'My Skill', name: 'x', version: '1.0.0', tools: [] }, 'slug'],
    ['the status filter', 'GET', '/v1/status?blueprint_slug=Services', undefined, 'blueprint_slug'],
  ];

  it.each(refusals)('for %s: one sentence, no regex', async (_what, method, path, body, field) => {
    const res = await api.request(method, path, { key: api.adminKey, ...(body ? { body } : {}) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([{ path: field, message: RULE_IN_WORDS }]);
    expect(res.body.error).toContain(`${field}: ${RULE_IN_WORDS}`);
    expect(res.body.error.split(RULE_IN_WORDS)).toHaveLength(2);
    expect(res.text).not.toMatch(/\^|\$|\[a-z0-9\]|\{0,62\}/);
  });
});
