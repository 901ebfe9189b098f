import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_OPS_MANIFEST } from '../../lib/features/feature-routes.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { join } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

const tool = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: { service: { type: 'string' } } },
  ...overrides,
});

const manifest = (slug: string, tools: unknown[], extra: Record<string, unknown> = {}) => ({
  slug,
  name: `Skill ${slug}`,
  description: 'Tools for tests',
  version: '1.0.0',
  tools,
  ...extra,
});

describe.each(runtimes)('skills API ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let member: string;
  let viewer: string;
  const clock = createFakeClock(Date.parse('2026-03-01T10:00:00.000Z'));
  const call = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const enabledToolNames = async (tenantId = api.tenantId) =>
    (await api.app.skills.listEnabledTools(tenantId)).map((t) => `${t.skill_slug}:${t.name}`).sort();

  beforeAll(async () => {
    api = await start({ clock });
    viewer = (await call('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    member = (await join(api, api.adminKey, { email: 'member@example.com' })).key;
  });
  afterAll(async () => {
    await api.close();
  });

  it('starts a new tenant with the catalog-ops skill registered, as the built-in manifest is', async () => {
    expect(await enabledToolNames()).toEqual(
      CATALOG_OPS_MANIFEST.tools.map((t) => `catalog-ops:${t.name}`).sort(),
    );
    const res = await call('GET', '/v1/skills/catalog-ops');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ slug: 'catalog-ops', version: '2.2.0', enabled: true });
    expect(res.body.id).toMatch(/^skl_/);
    expect(res.body.created_at).toBe('2026-03-01T10:00:00.000Z');
    expect(res.body).not.toHaveProperty('revision');
    expect(res.body).not.toHaveProperty('tenant_id');
    expect(res.body.tools).toEqual(CATALOG_OPS_MANIFEST.tools);
    const tools = await api.app.skills.listEnabledTools(api.tenantId);
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual([
      'create_check',
    ]);
  });

  it.each([
    ['a bad tool name', manifest('bad-name', [tool('has space')]), 'tools.0.name'],
    [
      'an invalid JSON Schema',
      manifest('bad-schema', [
        tool('x', { inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } }),
      ]),
      'tools.0.inputSchema',
    ],
    [
      'a non-object schema',
      manifest('bad-type', [tool('x', { inputSchema: { type: 'array' } })]),
      'tools.0.inputSchema',
    ],
    ['a version that is not semver', manifest('bad-version', [], { version: '1.0' }), 'version'],
    ['a bad slug', manifest('Bad_Slug', []), 'slug'],
    ['an unknown field', manifest('bad-field', [], { owner: 'me' }), ''],
  ])('answers 400 for %s', async (_label, body, path) => {
    const res = await call('POST', '/v1/skills', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    if (path) expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers 400 for a runbook tool naming an action the tenant does not have', async () => {
    const other = await api.createTenant('Actions');
    const action = await api.request('POST', '/v1/actions', {
      key: other.key,
      body: { name: 'Restart', url: 'https://{{host}}/restart' },
    });
    expect(action.status, action.text).toBe(201);
    const res = await call(
      'POST',
      '/v1/skills',
      manifest('runbook', [tool('restart', { action_id: action.body.id })]),
    );
    expect(res.status, res.text).toBe(400);
    expect(res.body.details[0]).toMatchObject({ path: 'tools.0.action_id' });
    const own = await call('POST', '/v1/actions', { name: 'Restart', url: 'https://{{host}}/restart' });
    const ok = await call(
      'POST',
      '/v1/skills',
      manifest('runbook', [tool('restart', { action_id: own.body.id })]),
    );
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.tools[0].action_id).toBe(own.body.id);
  });

  it('answers 409 for a duplicate slug and for a tool name another enabled skill holds', async () => {
    expect((await call('POST', '/v1/skills', manifest('alpha', [tool('alpha_one')]))).status).toBe(201);
    const again = await call('POST', '/v1/skills', manifest('alpha', [tool('other')]));
    expect(again.status).toBe(409);
    const clash = await call('POST', '/v1/skills', manifest('beta', [tool('beta_one'), tool('alpha_one')]));
    expect(clash.status, clash.text).toBe(409);
    expect(clash.body).toMatchObject({ code: 'CONFLICT' });
    expect(clash.body.error).toContain('alpha_one');
    expect(clash.body.error).toContain('alpha');
    expect((await call('GET', '/v1/skills/beta')).status).toBe(404);
    expect(await enabledToolNames()).not.toContain('beta:beta_one');
  });

  it('lets exactly one of concurrent creates claiming the same tool name win', async () => {
    const results = await Promise.all(
      ['race-a', 'race-b', 'race-c', 'race-d'].map((slug) =>
        call('POST', '/v1/skills', manifest(slug, [tool(`${slug}_own`), tool('raced_tool')])),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await enabledToolNames()).filter((name) => name.endsWith(':raced_tool'))).toHaveLength(1);
  });

  it('frees the tool names of a disabled skill and claims them again on enable', async () => {
    await call('POST', '/v1/skills', manifest('gamma', [tool('shared_name')]));
    const disabled = await call('PUT', '/v1/skills/gamma', { enabled: false });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.enabled).toBe(false);
    expect(await enabledToolNames()).not.toContain('gamma:shared_name');
    const taker = await call('POST', '/v1/skills', manifest('delta', [tool('shared_name')]));
    expect(taker.status, taker.text).toBe(201);
    const reenable = await call('PUT', '/v1/skills/gamma', { enabled: true });
    expect(reenable.status).toBe(409);
    expect(reenable.body.error).toContain('delta');
    expect((await call('GET', '/v1/skills/gamma')).body.enabled).toBe(false);
    expect((await call('DELETE', '/v1/skills/delta')).status).toBe(204);
    expect((await call('PUT', '/v1/skills/gamma', { enabled: true })).status).toBe(200);
    expect(await enabledToolNames()).toContain('gamma:shared_name');
  });

  it('registers a disabled skill without claiming its names', async () => {
    const res = await call(
      'POST',
      '/v1/skills',
      manifest('dormant', [tool('alpha_one')], { enabled: false }),
    );
    expect(res.status, res.text).toBe(201);
    expect(await enabledToolNames()).toContain('alpha:alpha_one');
    expect(await enabledToolNames()).not.toContain('dormant:alpha_one');
  });

  it('replaces the tools on PUT: released names are free, new names are claimed', async () => {
    await call('POST', '/v1/skills', manifest('epsilon', [tool('eps_old'), tool('eps_kept')]));
    clock.advance(1000);
    const res = await call('PUT', '/v1/skills/epsilon', {
      tools: [tool('eps_kept'), tool('eps_new')],
      version: '1.1.0',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.version).toBe('1.1.0');
    expect(res.body.updated_at).not.toBe(res.body.created_at);
    expect((await enabledToolNames()).filter((n) => n.startsWith('epsilon:'))).toEqual([
      'epsilon:eps_kept',
      'epsilon:eps_new',
    ]);
    expect((await call('POST', '/v1/skills', manifest('zeta', [tool('eps_old')]))).status).toBe(201);
    const clash = await call('PUT', '/v1/skills/epsilon', { tools: [tool('eps_kept'), tool('alpha_one')] });
    expect(clash.status).toBe(409);
    expect((await call('GET', '/v1/skills/epsilon')).body.tools.map((t: { name: string }) => t.name)).toEqual(
      ['eps_kept', 'eps_new'],
    );
    expect((await call('PUT', '/v1/skills/epsilon', { slug: 'renamed' })).status).toBe(400);
  });

  it('deletes a skill and frees its names; a second delete is 404', async () => {
    await call('POST', '/v1/skills', manifest('eta', [tool('eta_tool')]));
    expect((await call('DELETE', '/v1/skills/eta')).status).toBe(204);
    expect((await call('DELETE', '/v1/skills/eta')).status).toBe(404);
    expect((await call('GET', '/v1/skills/eta')).status).toBe(404);
    expect((await call('POST', '/v1/skills', manifest('theta', [tool('eta_tool')]))).status).toBe(201);
  });

  it('lists skills by slug', async () => {
    const res = await call('GET', '/v1/skills');
    expect(res.status).toBe(200);
    const slugs = res.body.map((s: { slug: string }) => s.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toContain('catalog-ops');
  });

  it('lets members and read-only keys read, and only admins write', async () => {
    expect((await call('GET', '/v1/skills', undefined, member)).status).toBe(200);
    expect((await call('GET', '/v1/skills/catalog-ops', undefined, viewer)).status).toBe(200);
    const byMember = await call('POST', '/v1/skills', manifest('by-member', []), member);
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe('FORBIDDEN');
    expect((await call('PUT', '/v1/skills/catalog-ops', { enabled: false }, member)).body.code).toBe(
      'FORBIDDEN',
    );
    expect((await call('DELETE', '/v1/skills/catalog-ops', undefined, member)).body.code).toBe('FORBIDDEN');
    for (const [method, path, body] of [
      ['POST', '/v1/skills', manifest('by-viewer', [])],
      ['PUT', '/v1/skills/catalog-ops', { enabled: false }],
      ['DELETE', '/v1/skills/catalog-ops', undefined],
    ] as const) {
      const res = await call(method, path, body, viewer);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('READ_ONLY');
    }
    expect((await call('GET', '/v1/skills/catalog-ops')).body.enabled).toBe(true);
  });

  it('keeps tenants apart: another tenant sees 404 and may use the same slugs and tool names', async () => {
    expect((await call('POST', '/v1/skills', manifest('kappa', [tool('kappa_one')]))).status).toBe(201);
    const other = await api.createTenant('Neighbour');
    const as = (method: string, path: string, body?: unknown) => call(method, path, body, other.key);
    expect((await as('GET', '/v1/skills/kappa')).status).toBe(404);
    expect((await as('PUT', '/v1/skills/kappa', { enabled: false })).status).toBe(404);
    expect((await as('DELETE', '/v1/skills/kappa')).status).toBe(404);
    expect((await as('GET', '/v1/skills')).body.map((s: { slug: string }) => s.slug)).toEqual([
      'catalog-ops',
    ]);
    expect((await as('POST', '/v1/skills', manifest('kappa', [tool('kappa_one')]))).status).toBe(201);
    expect((await call('GET', '/v1/skills/kappa')).body.enabled).toBe(true);
  });
});
