import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEnvReferences } from '../../lib/config-doc/secrets.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { withoutStarterSkill } from '../support/toolsets.ts';
import { envForExport } from './export-env.ts';
import { FIXTURE_ENV, FIXTURE_RESOLVE, FIXTURES, fixtureDocument } from './fixtures/index.ts';

/** How many objects the fixture universe holds: each tenant's objects bucket takes one apply of it and two more. */
const OBJECTS = FIXTURES.reduce((n, f) => n + f.docs.length, 0);
const EMPTY = { apiVersion: 'vigil/v1', kind: 'Config' };

/**
 * The fixture document resolved, for one tenant: status page slugs are unique across tenants (the
 * public address is `/p/<slug>`), so each tenant's pages take its tag; a custom domain is one page's
 * across the deployment too, so here the pages have none (fixtures.test.ts applies the domain).
 */
const resolved = (t: { tag: string }) => {
  const document = resolveEnvReferences(fixtureDocument(), FIXTURE_ENV).value;
  for (const page of document.status_pages as { slug: string; domain?: string | null }[]) {
    page.slug = `${page.slug}-${t.tag}`;
    page.domain = null;
  }
  // Ingest tokens are unique across a deployment's tenants, as the page slugs are.
  for (const integration of document.integrations as { token: string }[]) {
    const tag = t.tag.replace(/[^A-Za-z0-9]/g, '');
    integration.token = `${integration.token.slice(0, 32 - tag.length)}${tag}`;
  }
  return document;
};

describe.each(runtimes)('the configuration routes ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const post = (path: string, key: string, body: unknown, headers?: Record<string, string>) =>
    api.request('POST', path, { key, body, ...(headers ? { headers } : {}) });
  const exported = async (key: string, accept = 'application/json') =>
    api.request('GET', '/v1/config/export', { key, headers: { accept } });
  /** A fresh tenant, its admin key, a read-only key and a member's key. */
  const tenant = async (name: string) => {
    const { tenantId, key } = await api.createTenant(name);
    await withoutStarterSkill(api, key);
    const readOnly = await post('/v1/auth/keys', key, { label: 'read-only', is_read_only: true });
    const invited = await post('/v1/settings/users/invite', key, { email: `member-${tenantId}@example.com` });
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token, name: 'Member' },
    });
    expect(accepted.status, accepted.text).toBe(201);
    return {
      tag: name.replace(/[^a-z0-9]+/g, '-'),
      tenantId,
      key,
      readOnlyKey: readOnly.body.key as string,
      memberKey: accepted.body.key as string,
    };
  };

  beforeAll(async () => {
    // Almost no refill: a tenant's bucket holds one apply of the fixtures and two objects more.
    api = await start({
      env: {
        VIGIL_EGRESS_ALLOW: '127.0.0.1/32',
        VIGIL_CONFIG_OBJECTS_BURST: String(OBJECTS + 2),
        VIGIL_CONFIG_OBJECTS_PER_SECOND: '0.001',
      },
      egress: { resolve: FIXTURE_RESOLVE },
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('plans without changing anything; applies once; a second apply changes nothing', async () => {
    const t = await tenant('config plan');
    const before = await exported(t.key);
    const plan = await post('/v1/config/plan', t.key, resolved(t));
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes).toHaveLength(OBJECTS);
    expect(plan.body.changes.every((c: { op: string }) => c.op === 'create')).toBe(true);
    expect((await exported(t.key)).body).toEqual(before.body);

    const applied = await post('/v1/config/apply', t.key, resolved(t));
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ applied: true, summary: { created: OBJECTS, failed: 0 } });
    const again = await post('/v1/config/apply', t.key, resolved(t));
    expect(again.body).toMatchObject({
      changes: [],
      applied: true,
      summary: { created: 0, updated: 0, deleted: 0, failed: 0, unchanged: OBJECTS },
    });
  });

  it('lets a read-only key plan, and only an admin apply', async () => {
    const t = await tenant('config roles');
    const plan = await post('/v1/config/plan', t.readOnlyKey, resolved(t));
    expect(plan.status, plan.text).toBe(200);
    expect((await post('/v1/config/apply', t.readOnlyKey, resolved(t))).status).toBe(403);
    const member = await post('/v1/config/apply', t.memberKey, resolved(t));
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('FORBIDDEN');
    // Nothing was applied.
    expect((await post('/v1/config/plan', t.key, resolved(t))).body.changes).toHaveLength(OBJECTS);
  });

  it("never shows another tenant's objects; exports no secret, in YAML and JSON", async () => {
    const a = await tenant('config tenant a');
    const b = await tenant('config tenant b');
    expect((await post('/v1/config/apply', a.key, resolved(a))).body.summary.failed).toBe(0);
    const empty = await exported(b.key);
    for (const { key } of FIXTURES) expect(empty.body[key], key).toEqual([]);
    const pruned = await post('/v1/config/plan?prune=true', b.key, EMPTY);
    expect(pruned.body.changes).toEqual([]);

    const yaml = await exported(a.key, 'application/yaml');
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    const json = await exported(a.key);
    // The tenant's secrets: the values the export's own `${VIGIL_…}` references stand for.
    const secrets = Object.values(envForExport(json.body, resolved(a)));
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(yaml.text).not.toContain(secret);
      expect(json.text).not.toContain(secret);
    }
    // The YAML export is a document the API takes back as it is: nothing to change.
    const fromYaml = await api.request('POST', '/v1/config/plan', {
      key: a.key,
      rawBody: yaml.text,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(fromYaml.status, fromYaml.text).toBe(200);
    expect(fromYaml.body.changes).toEqual([]);
  });

  it('streams one line per object, then the summary, with Accept: application/x-ndjson', async () => {
    const t = await tenant('config stream');
    const res = await post('/v1/config/apply', t.key, resolved(t), { accept: 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(OBJECTS + 1);
    expect(lines.slice(0, -1).every((line) => line.op === 'create' && line.status === 'applied')).toBe(true);
    expect(lines.at(-1)).toEqual({
      applied: true,
      summary: { created: OBJECTS, updated: 0, deleted: 0, failed: 0, unchanged: 0 },
      unmapped: [],
    });
  });

  it('answers 429 with nothing applied when the changes exceed the objects bucket', async () => {
    const t = await tenant('config bucket');
    expect((await post('/v1/config/apply', t.key, resolved(t))).body.summary.failed).toBe(0);
    // Two tokens are left: a prune deleting every object is refused whole.
    const plan = await post('/v1/config/plan?prune=true', t.key, EMPTY);
    expect(plan.body.changes).toHaveLength(OBJECTS);
    const refused = await post('/v1/config/apply?prune=true', t.key, EMPTY);
    expect(refused.status, refused.text).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const after = await post('/v1/config/plan', t.key, resolved(t));
    expect(after.body.changes).toEqual([]);
  });

  it('refuses a document above 6 MiB with 413, and a bad one with 400 naming the path', async () => {
    const t = await tenant('config limits');
    const big = await api.request('POST', '/v1/config/plan', {
      key: t.key,
      rawBody: `${JSON.stringify(EMPTY).slice(0, -1)}, "unmapped": ["${'x'.repeat(6 * 1024 * 1024)}"]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    const bad = await post('/v1/config/plan', t.key, { ...EMPTY, monitors: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'monitors', message: expect.any(String) }]);
  });

  it('serves the JSON Schema of the document without a key, cacheable', async () => {
    const res = await api.request('GET', '/v1/config/schema.json');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.body.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    for (const { key } of FIXTURES) expect(res.body.properties[key], key).toBeDefined();
  });
});
