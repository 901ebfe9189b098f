import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/** The rule as a user reads it; no refusal may show the pattern behind it. */
const RULE_IN_WORDS =
  'Use lower-case letters (a-z), digits and hyphens, starting with a letter or a digit, at most 63 characters.';

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
    const ruleInSummary = RULE_IN_WORDS.replace(/\.$/, '');
    expect(res.body.error).toContain(`${field}: ${ruleInSummary}`);
    expect(res.body.error.split(ruleInSummary)).toHaveLength(2);
    expect(res.text).not.toMatch(/\^|\$|\[a-z0-9\]|\{0,62\}/);
  });

  const empties: [string, string, unknown][] = [
    ['a blueprint', '/v1/blueprints', { slug: '', name: 'Service' }],
    ['an entity', '/v1/blueprints/service/entities', { slug: '', name: 'API' }],
  ];

  it.each(empties)(
    'for %s with an empty slug: asks for one, with no pattern rule',
    async (_what, path, body) => {
      const res = await api.request('POST', path, { key: api.adminKey, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual([{ path: 'slug', message: 'Enter a slug.' }]);
      expect(res.body.error).toBe('invalid body: slug: Enter a slug');
    },
  );

  it('says a number out of bounds and a value outside a choice in words', async () => {
    const entity = await api.request('POST', '/v1/blueprints/service/entities', {
      key: api.adminKey,
      body: { slug: 'api', name: 'API' },
    });
    expect(entity.status, entity.text).toBe(201);
    const type = await api.request('POST', '/v1/checks', {
      key: api.adminKey,
      body: { entity_id: entity.body.id, check_type: 'gopher' },
    });
    expect(type.status, type.text).toBe(400);
    expect(type.body.code).toBe('VALIDATION_ERROR');
    expect(type.body.details).toEqual([
      {
        path: 'check_type',
        message: 'Choose one of: http, tcp, tls, dns, push, icmp, domain, grpc, multistep or browser.',
      },
    ]);
    const interval = await api.request('POST', '/v1/checks', {
      key: api.adminKey,
      body: {
        entity_id: entity.body.id,
        check_type: 'tcp',
        config: { host: 'example.com', port: 443 },
        interval_seconds: 0,
      },
    });
    expect(interval.status, interval.text).toBe(400);
    expect(interval.body.details).toEqual([{ path: 'interval_seconds', message: 'Enter 1 or more.' }]);
    // A stored check's config is checked by its type on update: the same sentences.
    const push = await api.request('POST', '/v1/checks', {
      key: api.adminKey,
      body: { entity_id: entity.body.id, check_type: 'push', interval_seconds: 3600 },
    });
    expect(push.status, push.text).toBe(201);
    const grace = await api.request('PUT', `/v1/checks/${push.body.id}`, {
      key: api.adminKey,
      body: { config: { grace_seconds: 0 } },
    });
    expect(grace.status, grace.text).toBe(400);
    expect(grace.body.details).toEqual([{ path: 'config.grace_seconds', message: 'Enter 1 or more.' }]);
    const extra = await api.request('PUT', `/v1/checks/${push.body.id}`, {
      key: api.adminKey,
      body: { config: { grace_seconds: 7200, colour: 'red' } },
    });
    expect(extra.status, extra.text).toBe(400);
    expect(extra.body.details).toEqual([{ path: 'config.colour', message: 'Unknown field: colour.' }]);
  });
});
