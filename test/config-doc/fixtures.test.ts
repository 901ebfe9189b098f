import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEnvReferences } from '../../lib/config-doc/secrets.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { withoutStarterSkill } from '../support/toolsets.ts';
import { envForExport, identityOf } from './export-env.ts';
import {
  FIXTURE_ENV,
  FIXTURE_RESOLVE,
  FIXTURE_RUNTIME_ENV,
  FIXTURES,
  fixtureDocument,
} from './fixtures/index.ts';

/**
 * The generic tests over every kind's fixture (test/config-doc/fixtures): a tenant applied from
 * the fixture universe exports a document that rebuilds it in another tenant exactly; a second
 * apply plans nothing; one field changed plans exactly that field; prune plans exactly the
 * deletes of what a document leaves out.
 */

type Doc = Record<string, unknown>;

/** The fixture document with every `${ENV}` resolved, as the CLI sends it. */
function resolvedDocument(): Doc {
  const { value, missing } = resolveEnvReferences(fixtureDocument(), FIXTURE_ENV);
  expect(missing).toEqual([]);
  return value;
}

function setPath(object: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let target = object;
  for (const part of parts.slice(0, -1)) {
    target[part] ??= {};
    target = target[part] as Doc;
  }
  target[parts.at(-1) as string] = value;
}

/**
 * The fixture channels' hosts resolve to 127.0.0.1, which egress allows (nothing is ever sent); the
 * fixture page's custom domain is on the list.
 */
const RUNTIME = {
  env: { ...FIXTURE_RUNTIME_ENV, VIGIL_EGRESS_ALLOW: '127.0.0.1/32' },
  egress: { resolve: FIXTURE_RESOLVE },
};

describe.each(runtimes)('the configuration document over every kind ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let first: { tenantId: string; key: string };
  const post = (path: string, key: string, body: unknown) => api.request('POST', path, { key, body });
  const exportOf = async (key: string) => {
    const res = await api.request('GET', '/v1/config/export', {
      key,
      headers: { accept: 'application/json' },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as Doc;
  };

  beforeAll(async () => {
    // The fixture channels point at 127.0.0.1:9 (never called: the scheduler and the notifier do not run).
    api = await start(RUNTIME);
    first = await api.createTenant('config fixtures');
    await withoutStarterSkill(api, first.key);
    const applied = await post('/v1/config/apply', first.key, resolvedDocument());
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.changes.filter((c: { status: string }) => c.status !== 'applied')).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('covers every list of the document', () => {
    expect(FIXTURES.map((f) => f.key).sort()).toEqual(Object.keys(CONFIG_KINDS).sort());
  });

  it('rebuilds the tenant from its export in an empty tenant: the two exports are equal', {
    timeout: 120_000,
  }, async () => {
    const exported = await exportOf(first.key);
    expect(JSON.stringify(exported)).not.toMatch(/\*{8}/);
    // Another deployment of the same runtime: status page slugs are unique across a deployment's
    // tenants (the public address /p/<slug>), so the same export cannot rebuild next to itself.
    const other = await start(RUNTIME);
    try {
      const second = await other.createTenant('config rebuilt');
      await withoutStarterSkill(other, second.key);
      const env = envForExport(exported, resolvedDocument());
      const { value, missing } = resolveEnvReferences(exported, env);
      expect(missing).toEqual([]);
      const applied = await other.request('POST', '/v1/config/apply', { key: second.key, body: value });
      expect(applied.status, applied.text).toBe(200);
      expect(applied.body.summary.failed, applied.text).toBe(0);
      const rebuilt = await other.request('GET', '/v1/config/export', {
        key: second.key,
        headers: { accept: 'application/json' },
      });
      expect(rebuilt.body).toEqual(exported);
    } finally {
      await other.close();
    }
  });

  it("plans nothing for its own export with none of the export's ${ENV} set, and applies it changing nothing", async () => {
    // `vigil export > vigil.yaml && vigil plan -f vigil.yaml`: each stored secret is a reference
    // the CLI leaves as it is, the PagerDuty key and the Telegram token among them.
    const exported = await exportOf(first.key);
    const names = [...JSON.stringify(exported).matchAll(/"\$\{([A-Z0-9_]+)\}"/g)].map((m) => m[1]);
    expect(names).toEqual(
      expect.arrayContaining([expect.stringMatching(/PAGER/), expect.stringMatching(/BOT_TOKEN/)]),
    );
    const plan = await post('/v1/config/plan', first.key, exported);
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes).toEqual([]);
    const applied = await post('/v1/config/apply', first.key, exported);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.summary).toMatchObject({ created: 0, updated: 0, deleted: 0, failed: 0 });
    expect(await exportOf(first.key)).toEqual(exported);
  });

  it('refuses to create a channel whose secret is an unset ${ENV}, naming it, and creates the rest', async () => {
    const document = resolvedDocument();
    const pager = (document.channels as Doc[]).find((doc) => doc.name === 'ops-pager') as Doc;
    (document.channels as Doc[]).push({
      ...pager,
      name: 'ops-pager-2',
      config: { routing_key: '${UNSET_PD_KEY}' },
    });
    const plan = await post('/v1/config/plan', first.key, document);
    expect(plan.body.changes).toEqual([{ op: 'create', kind: 'channels', id: 'ops-pager-2' }]);
    const applied = await post('/v1/config/apply', first.key, document);
    expect(applied.body.changes).toEqual([
      {
        op: 'create',
        kind: 'channels',
        id: 'ops-pager-2',
        status: 'failed',
        error: 'config.routing_key refers to ${UNSET_PD_KEY}, which is not set',
      },
    ]);
    // A value that is neither a reference nor a key is the type's own refusal, as in the API.
    pager.config = { routing_key: 'not-a-key' };
    const bad = await post('/v1/config/plan', first.key, document);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('channels[2].config.routing_key: Enter the 32-character integration key');
  });

  it('plans nothing for the document it applied', async () => {
    const plan = await post('/v1/config/plan', first.key, resolvedDocument());
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes).toEqual([]);
  });

  it.each(FIXTURES.map((f) => [f.key, f] as const))(
    'plans exactly the one field changed in %s',
    async (_, fixture) => {
      const document = resolvedDocument();
      const target = (document[fixture.key] as Doc[]).find(
        (doc) => identityOf(fixture.key, doc) === fixture.mutation.identity,
      );
      expect(target, `the mutation's object ${fixture.mutation.identity}`).toBeDefined();
      setPath(target as Doc, fixture.mutation.path, fixture.mutation.to);
      const plan = await post('/v1/config/plan', first.key, document);
      expect(plan.status, plan.text).toBe(200);
      const { becomes } = fixture.mutation;
      if (becomes !== undefined) {
        // The field is part of the identity: another object, and the old one goes only with prune.
        expect(plan.body.changes).toEqual([{ op: 'create', kind: fixture.key, id: becomes }]);
        const pruned = await post('/v1/config/plan?prune=true', first.key, document);
        expect(pruned.body.changes).toEqual([
          { op: 'create', kind: fixture.key, id: becomes },
          { op: 'delete', kind: fixture.key, id: fixture.mutation.identity },
        ]);
        return;
      }
      expect(plan.body.changes).toEqual([
        {
          op: 'update',
          kind: fixture.key,
          id: fixture.mutation.identity,
          fields: [{ path: fixture.mutation.path, from: expect.anything(), to: fixture.mutation.to }],
        },
      ]);
    },
  );

  it('prunes exactly the objects a document leaves out', async () => {
    const document = resolvedDocument();
    // Leave out every object nothing else refers to, so the document stays whole.
    const referred = new Set<string>();
    for (const { key } of FIXTURES)
      for (const doc of document[key] as Doc[])
        for (const ref of CONFIG_KINDS[key].references(CONFIG_KINDS[key].schema.parse(doc)))
          referred.add(`${ref.key} ${ref.identity}`);
    const left: string[] = [];
    for (const { key } of FIXTURES) {
      const kept = (document[key] as Doc[]).filter((doc) => referred.has(`${key} ${identityOf(key, doc)}`));
      for (const doc of document[key] as Doc[])
        if (!kept.includes(doc)) left.push(`${key} ${identityOf(key, doc)}`);
      document[key] = kept;
    }
    expect(left.length).toBeGreaterThan(0);
    const withoutPrune = await post('/v1/config/plan', first.key, document);
    expect(withoutPrune.body.changes).toEqual([]);
    const plan = await post('/v1/config/plan?prune=true', first.key, document);
    expect(plan.status, plan.text).toBe(200);
    const deletes = plan.body.changes.map(
      (c: { op: string; kind: string; id: string }) => `${c.op} ${c.kind} ${c.id}`,
    );
    expect(deletes.sort()).toEqual(left.map((id) => `delete ${id}`).sort());
  });
});
