import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { getAction } from '../../lib/actions/items/action-items.ts';
import { type Current, type DocKey, SECRET_PLACEHOLDER } from '../../lib/config-doc/kind.ts';
import { createNameIndex } from '../../lib/config-doc/names.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { leakOf } from '../support/secret-leaks.ts';
import { withoutStarterSkill } from '../support/toolsets.ts';
import { fixture as actionsFixture } from './fixtures/actions.ts';
import { FIXTURE_RUNTIME_ENV } from './fixtures/index.ts';
import { fixture as skillsFixture } from './fixtures/skills.ts';
import { FIXTURE_PAGE_DOMAIN, fixture as statusPagesFixture } from './fixtures/status_pages.ts';
import type { KindFixture } from './fixtures/types.ts';
import { adminCallOk, httpKindApi } from './kind-api.ts';

/**
 * The config-doc kinds status_pages, actions and skills against the real API of both runtimes:
 * each fixture object is created through its kind, read back in exactly its parsed form (so a
 * fresh apply plans nothing), changed by its fixture's mutation, and removed. The kinds' `Api` is
 * the harness's HTTP surface, the same contract as the in-process invoker. The page's custom
 * domain is planned, applied, moved and cleared as its document says.
 */

/** In creation order: a status page names entities, an action a check, a skill's tool an action. */
const FIXTURES = [statusPagesFixture, actionsFixture, skillsFixture];
const SECRET = actionsFixture.env?.REDEPLOY_TOKEN ?? '';
/** A second domain on the runtime's list, for the fixture page to move to. */
const SPARE_DOMAIN = 'status.spare-fixture.test';

/** `${NAME}` strings replaced by the fixture's environment values, as the CLI does before sending. */
function resolveEnv(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(/^\$\{([A-Z][A-Z0-9_]*)\}$/, (ref, name: string) => env[name] ?? ref);
  if (Array.isArray(value)) return value.map((item) => resolveEnv(item, env));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnv(v, env)]));
  return value;
}

/** A copy of `doc` with the field at the dotted `path` set to `to`. */
function withField(doc: Record<string, unknown>, path: string, to: unknown): Record<string, unknown> {
  const copy = structuredClone(doc);
  const parts = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) target = target[part] as Record<string, unknown>;
  target[parts.at(-1) ?? ''] = to;
  return copy;
}

/** What the API reads back of a parsed document object: every action header value `********`. */
function asRead(key: DocKey, doc: Record<string, unknown>): Record<string, unknown> {
  if (key !== 'actions') return doc;
  const headers = doc.headers as Record<string, string>;
  return {
    ...doc,
    headers: Object.fromEntries(Object.keys(headers).map((name) => [name, SECRET_PLACEHOLDER])),
  };
}

describe('config-doc kinds status_pages, actions and skills (schemas)', () => {
  it.each(FIXTURES)('generates the JSON Schema of $key from the schema that parses it', ({ key }) => {
    const schema = z.toJSONSchema(CONFIG_KINDS[key].schema, { io: 'input' });
    expect(JSON.stringify(schema)).toContain(key === 'actions' ? '"check"' : '"slug"');
  });

  it('parses a document with the API defaults and ids replaced by names', () => {
    expect(
      CONFIG_KINDS.status_pages.schema.parse({ slug: 'minimal', title: 'Minimal', description: '' }),
    ).toStrictEqual({
      slug: 'minimal',
      title: 'Minimal',
      description: null,
      entities: [],
      show_incidents: true,
      auto_publish_drafts_after_minutes: null,
      domain: null,
    });
    const badDomain = CONFIG_KINDS.status_pages.schema.safeParse({
      slug: 'p1',
      title: 'P',
      domain: 'https://Status.Example.com',
    });
    expect(badDomain.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['domain']);
    expect(
      CONFIG_KINDS.actions.schema.parse({ name: 'ping', url: 'https://hooks.example.com/ping' }),
    ).toStrictEqual({
      name: 'ping',
      url: 'https://hooks.example.com/ping',
      method: 'POST',
      headers: {},
      body_template: '',
      trigger_type: 'manual',
      check: null,
      trigger_to_state: null,
      interval_seconds: null,
      timeout_ms: 10_000,
      pipeline_timeout_seconds: 3600,
    });
    const bad = CONFIG_KINDS.status_pages.schema.safeParse({
      slug: 'p1',
      title: 'P',
      entities: ['service/api', 'service/api'],
    });
    expect(bad.error?.issues.map((issue) => issue.message)).toEqual(['Name each entity once.']);
    const badTool = CONFIG_KINDS.skills.schema.safeParse({
      slug: 's',
      name: 'S',
      version: '1.0.0',
      tools: [{ name: 't', description: 'T', inputSchema: { type: 'string' }, action: 'redeploy' }],
    });
    expect(badTool.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['tools.0.inputSchema']);
  });
});

describe.each(runtimes)(
  'config-doc kinds status_pages, actions and skills ($runtime runtime)',
  ({ start }) => {
    let harness: ApiHarness;
    const names = createNameIndex();
    const api = httpKindApi(() => harness);
    const call = adminCallOk(() => harness);
    const readAll = (key: DocKey) => CONFIG_KINDS[key].read(api, names);
    const find = async (
      key: DocKey,
      identity: string,
    ): Promise<Current<Record<string, unknown>> | undefined> => {
      const kind = CONFIG_KINDS[key];
      return (await readAll(key)).find((current) => kind.identity(current.doc) === identity);
    };
    const parsed = (fixture: KindFixture) =>
      CONFIG_KINDS[fixture.key].schema.parse(resolveEnv(fixture.docs[0], fixture.env ?? {}));

    beforeAll(async () => {
      harness = await start({
        env: {
          VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
          VIGIL_PAGE_DOMAINS: `${FIXTURE_RUNTIME_ENV.VIGIL_PAGE_DOMAINS},${SPARE_DOMAIN}`,
        },
        scheduler: false,
      });
      await withoutStarterSkill(harness, harness.adminKey);
      // The prerequisites of the fixture universe, through the API, entered in the index as the
      // engine would enter them from the entities' and checks' reads.
      const fields = [
        { name: 'tier', field_type: 'string', required: false, sort_order: 1 },
        { name: 'owner', field_type: 'string', required: false, sort_order: 2 },
      ];
      await call('POST', '/v1/blueprints', { slug: 'service', name: 'Service', fields });
      await call('POST', '/v1/blueprints', { slug: 'database', name: 'Database' });
      for (const ref of ['service/api', 'service/web', 'database/main']) {
        const [blueprint, slug] = ref.split('/');
        names.set(
          'entities',
          ref,
          (await call('POST', `/v1/blueprints/${blueprint}/entities`, { slug, name: slug })).id,
        );
      }
      const homepage = await call('POST', '/v1/checks', {
        entity_id: names.id('entities', 'service/api'),
        name: 'homepage',
        check_type: 'http',
        target_url: 'http://127.0.0.1:9/',
        interval_seconds: 86_400,
      });
      names.set('checks', 'service/api:homepage', homepage.id);
      const heartbeat = await call('POST', '/v1/checks', {
        entity_id: names.id('entities', 'service/web'),
        name: 'heartbeat',
        check_type: 'push',
        interval_seconds: 3600,
      });
      names.set('checks', 'service/web:heartbeat', heartbeat.id);
    });
    afterAll(async () => {
      await harness.close();
    });

    it('creates each fixture object and reads it back in exactly its parsed form', async () => {
      for (const fixture of FIXTURES) {
        const kind = CONFIG_KINDS[fixture.key];
        const doc = parsed(fixture);
        const id = await kind.create(api, doc, names);
        names.set(fixture.key, kind.identity(doc), id);
        const current = await find(fixture.key, kind.identity(doc));
        expect(current, fixture.key).toStrictEqual({ id, doc: asRead(fixture.key, doc) });
      }
    });

    it('reads references by name: the page’s entities, the action’s check, the runbook tool’s action', async () => {
      expect((await find('status_pages', 'public'))?.doc.entities).toEqual(['service/api', 'service/web']);
      expect((await find('actions', 'redeploy'))?.doc.check).toBe('service/api:homepage');
      const tools = (await find('skills', 'ops-tools'))?.doc.tools as { name: string; action?: string }[];
      expect(tools.map((tool) => [tool.name, tool.action])).toEqual([
        ['ops_redeploy_api', 'redeploy'],
        ['ops_oncall', undefined],
      ]);
    });

    it('never reads a secret header value back in clear, and stores it as given', async () => {
      const raw = await harness.request('GET', '/v1/actions', { key: harness.adminKey });
      const read = JSON.stringify(await readAll('actions'));
      for (const text of [raw.text, read]) expect(leakOf(text, SECRET)).toBeUndefined();
      const stored = await getAction(harness.table, harness.tenantId, names.id('actions', 'redeploy') ?? '');
      expect(stored?.headers.Authorization).toBe(SECRET);
    });

    it('applies each fixture’s mutation, and an update that sends ******** keeps the stored secret', async () => {
      for (const { key, mutation } of FIXTURES) {
        const kind = CONFIG_KINDS[key];
        const current = await find(key, mutation.identity);
        if (!current) throw new Error(`${key} ${mutation.identity} is not in the tenant`);
        // From the read form: the action's header values are ******** (an unset ${ENV} reference).
        const changed = kind.schema.parse(withField(current.doc, mutation.path, mutation.to));
        await kind.update(api, current, changed, names);
        expect(await find(key, mutation.identity), key).toStrictEqual({ id: current.id, doc: changed });
      }
      const stored = await getAction(harness.table, harness.tenantId, names.id('actions', 'redeploy') ?? '');
      expect(stored?.headers.Authorization).toBe(SECRET);
      expect(stored?.timeout_ms).toBe(actionsFixture.mutation.to);
    });

    it('plans and applies the page’s domain as its document says: moved, cleared when absent, refused off the list', async () => {
      const kind = CONFIG_KINDS.status_pages;
      const current = await find('status_pages', 'public');
      if (!current) throw new Error('the fixture page is not in the tenant');
      expect(current.doc.domain).toBe(FIXTURE_PAGE_DOMAIN);
      const page = async () => (await call('GET', '/v1/status-pages/public')).domain;
      const moved = kind.schema.parse({ ...current.doc, domain: SPARE_DOMAIN });
      const plan = await harness.request('POST', '/v1/config/plan', {
        key: harness.adminKey,
        body: { apiVersion: 'vigil/v1', kind: 'Config', status_pages: [moved] },
      });
      expect(plan.status, plan.text).toBe(200);
      expect(plan.body.changes).toEqual([
        {
          op: 'update',
          kind: 'status_pages',
          id: 'public',
          fields: [{ path: 'domain', from: FIXTURE_PAGE_DOMAIN, to: SPARE_DOMAIN }],
        },
      ]);
      await kind.update(api, current, moved, names);
      expect(await page()).toBe(SPARE_DOMAIN);
      expect(await find('status_pages', 'public')).toStrictEqual({ id: current.id, doc: moved });

      // A document without a domain: the page has none after the apply.
      const { domain: _, ...without } = current.doc;
      const cleared = kind.schema.parse(without);
      await kind.update(api, { ...current, doc: moved }, cleared, names);
      expect(await page()).toBeNull();
      expect(await find('status_pages', 'public')).toStrictEqual({ id: current.id, doc: cleared });

      // Off the deployment's list: the API's 400, the page unchanged.
      const off = kind.schema.parse({ ...current.doc, domain: 'status.elsewhere.test' });
      await expect(kind.update(api, { ...current, doc: cleared }, off, names)).rejects.toThrow(
        /VIGIL_PAGE_DOMAINS/,
      );
      expect(await page()).toBeNull();

      await kind.update(api, { ...current, doc: cleared }, current.doc, names);
      expect(await find('status_pages', 'public')).toStrictEqual(current);
    });

    it('reads minimal documents back equal to their parsed form, the API’s defaults filled in', async () => {
      const minimal: [DocKey, Record<string, unknown>][] = [
        ['status_pages', { slug: 'minimal-page', title: 'Minimal', description: '' }],
        ['actions', { name: 'ping', url: 'http://127.0.0.1:9/ping' }],
        [
          'actions',
          {
            name: 'nightly',
            url: 'http://127.0.0.1:9/nightly',
            trigger_type: 'schedule',
            interval_seconds: 86_400,
          },
        ],
        ['skills', { slug: 'minimal-skill', name: 'Minimal', version: '0.1.0', tools: [] }],
      ];
      for (const [key, raw] of minimal) {
        const kind = CONFIG_KINDS[key];
        const doc = kind.schema.parse(raw);
        const id = await kind.create(api, doc, names);
        expect(await find(key, kind.identity(doc)), key).toStrictEqual({ id, doc });
        await kind.remove(api, { id, doc });
        expect(await find(key, kind.identity(doc)), key).toBeUndefined();
      }
    });

    it('refuses to read actions that share a name, naming each of them', async () => {
      const first = await call('POST', '/v1/actions', { name: 'twin', url: 'http://127.0.0.1:9/a' });
      const second = await call('POST', '/v1/actions', { name: 'twin', url: 'http://127.0.0.1:9/b' });
      const refusal = await readAll('actions').catch((error: Error) => error);
      expect(refusal).toBeInstanceOf(Error);
      // Both ids, in the order the API lists them (oldest first: the same millisecond may swap them).
      expect(String(refusal)).toMatch(/"twin" \(act_\w+, act_\w+\)/);
      for (const id of [first.id, second.id]) expect(String(refusal)).toContain(id);
      await call('DELETE', `/v1/actions/${first.id}`);
      await call('DELETE', `/v1/actions/${second.id}`);
      expect((await readAll('actions')).map((current) => current.doc.name)).toEqual(['redeploy']);
    });

    it('refuses to read an action whose check was deleted, naming both', async () => {
      const check = await call('POST', '/v1/checks', {
        entity_id: names.id('entities', 'database/main'),
        name: 'replication',
        check_type: 'push',
        interval_seconds: 3600,
      });
      names.set('checks', 'database/main:replication', check.id);
      const orphan = await call('POST', '/v1/actions', {
        name: 'failover',
        url: 'http://127.0.0.1:9/failover',
        trigger_type: 'state_change',
        check_id: check.id,
      });
      await call('DELETE', `/v1/checks/${check.id}`);
      names.remove('checks', 'database/main:replication');
      await expect(readAll('actions')).rejects.toThrow(`"failover" (${orphan.id}) runs on check ${check.id}`);
      await call('DELETE', `/v1/actions/${orphan.id}`);
    });

    it('refuses to read a skill whose runbook tool runs a deleted action, naming the tool and the action', async () => {
      const action = await call('POST', '/v1/actions', {
        name: 'rollback',
        url: 'http://127.0.0.1:9/rollback',
      });
      await call('POST', '/v1/skills', {
        slug: 'rollbacks',
        name: 'Rollbacks',
        version: '1.0.0',
        tools: [
          {
            name: 'ops_rollback',
            description: 'Rolls back',
            inputSchema: { type: 'object' },
            action_id: action.id,
          },
        ],
      });
      await call('DELETE', `/v1/actions/${action.id}`);
      await expect(readAll('skills')).rejects.toThrow(
        `tool ops_rollback of skill rollbacks runs action ${action.id}`,
      );
      await call('DELETE', '/v1/skills/rollbacks');
      expect((await readAll('skills')).map((current) => current.id)).toEqual(['ops-tools']);
    });

    it('removes each fixture object, skills before the actions they run', async () => {
      for (const { key, mutation } of [...FIXTURES].reverse()) {
        const current = await find(key, mutation.identity);
        if (!current) throw new Error(`${key} ${mutation.identity} is not in the tenant`);
        await CONFIG_KINDS[key].remove(api, current);
        expect(await readAll(key), key).toEqual([]);
      }
    });
  },
);
