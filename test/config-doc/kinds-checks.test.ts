import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  type AnyConfigKind,
  type Api,
  type Current,
  type DocKey,
  SECRET_PLACEHOLDER,
} from '../../lib/config-doc/kind.ts';
import { createNameIndex } from '../../lib/config-doc/names.ts';
import { exportedSecrets } from '../../lib/config-doc/secrets.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { getTenantChannels } from '../../lib/notify/items/channel-items.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { channelsFixture } from './fixtures/channels.ts';
import { checksFixture } from './fixtures/checks.ts';
import { FIXTURE_RESOLVE } from './fixtures/index.ts';
import { routesFixture } from './fixtures/routes.ts';
import type { KindFixture } from './fixtures/types.ts';
import { httpKindApi } from './kind-api.ts';

const { channels: channelsKind, checks: checksKind, routes: routesKind } = CONFIG_KINDS;

/**
 * The channels, checks and routes kinds of the configuration document against the real API of
 * both runtimes: each fixture object created through its kind reads back exactly in its parsed
 * form (secrets as `********`, never in clear), a mutation reads back, a removal is gone, and a
 * check whose policy is refused leaves no check behind.
 */

type Doc = Record<string, unknown>;

/** `${NAME}` references resolved from the fixture's env, as the CLI does before it sends a document. */
function resolved<T>(value: T, env: Record<string, string> = {}): T {
  return JSON.parse(
    JSON.stringify(value).replace(/"\$\{([A-Z][A-Z0-9_]*)\}"/g, (ref, name: string) =>
      env[name] === undefined ? ref : JSON.stringify(env[name]),
    ),
  ) as T;
}

/** The dotted paths (`config.secret`, `policy.channels[0].config.secret`) whose value is `********`. */
function secretPaths(value: unknown, path = ''): string[] {
  if (value === SECRET_PLACEHOLDER) return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => secretPaths(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    secretPaths(item, path === '' ? key : `${path}.${key}`),
  );
}

/** `doc` with each of `paths` set to `********`: what a read shows of a document's secrets. */
function masked(doc: Doc, paths: string[]): Doc {
  const copy = structuredClone(doc);
  for (const path of paths) setPath(copy, path, SECRET_PLACEHOLDER);
  return copy;
}

function setPath(target: Doc, path: string, to: unknown): void {
  const parts = path.split(/\.|\[(\d+)\]/).filter((part) => part !== undefined && part !== '');
  let at: Record<string, unknown> = target;
  for (const part of parts.slice(0, -1)) at = at[part] as Record<string, unknown>;
  at[parts.at(-1) ?? ''] = to;
}

/** Per kind, per fixture object: the paths of its secrets, which read back as `********`. */
const SECRETS: Partial<Record<DocKey, string[][]>> = {
  channels: [['config.secret'], [], ['config.routing_key']],
  checks: [
    ['headers.x-health-token', 'policy.channels[0].config.secret', 'policy.channels[1].config.bot_token'],
    [],
  ],
  routes: [[], []],
};

const KINDS: [AnyConfigKind, KindFixture][] = [
  [channelsKind, channelsFixture],
  [checksKind, checksFixture],
  [routesKind, routesFixture],
];

describe.each(bothRuntimes)(
  'config-doc kinds channels, checks and routes ($runtime runtime)',
  ({ runtime, start }) => {
    let harness: ApiHarness;
    let api: Api;
    const names = createNameIndex();
    const created = new Map<DocKey, Doc[]>();

    const readAll = async (kind: AnyConfigKind) => {
      const found = await kind.read(api, names);
      return new Map(found.map((current) => [kind.identity(current.doc), current]));
    };
    const parse = (kind: AnyConfigKind, fixture: KindFixture, doc: Doc) =>
      kind.schema.parse(resolved(doc, fixture.env)) as Doc;

    beforeAll(async () => {
      harness = await start({
        env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' },
        egress: { resolve: FIXTURE_RESOLVE },
        scheduler: false,
      });
      api = httpKindApi(() => harness);
      for (const [blueprint, slugs] of [
        ['service', ['api', 'web']],
        ['database', ['main']],
      ] as const) {
        const bp = await api({
          method: 'POST',
          path: '/v1/blueprints',
          body: { slug: blueprint, name: blueprint },
        });
        expect(bp.status).toBe(201);
        for (const slug of slugs) {
          const made = await api({
            method: 'POST',
            path: `/v1/blueprints/${blueprint}/entities`,
            body: { slug, name: slug },
          });
          expect(made.status).toBe(201);
          names.set('entities', `${blueprint}/${slug}`, (made.body as { id: string }).id);
        }
      }
      // The routes fixture's `page-core` names the policy `core-escalation` (its own kind's test is
      // kinds-policies.test.ts): here it pages the admin alone.
      const users = await api({ method: 'GET', path: '/v1/settings/users' });
      const [admin] = users.body as { id: string }[];
      const policy = await api({
        method: 'POST',
        path: '/v1/escalation-policies',
        body: {
          name: 'core-escalation',
          steps: [{ delay_seconds: 0, targets: [{ type: 'user', id: admin?.id }] }],
        },
      });
      expect(policy.status).toBe(201);
      names.set('escalation_policies', 'core-escalation', (policy.body as { id: string }).id);
    });
    afterAll(async () => {
      await harness?.close();
    });

    it('creates each fixture object and reads it back exactly in its parsed form, secrets as ********', async () => {
      for (const [kind, fixture] of KINDS) {
        const docs = fixture.docs.map((doc) => parse(kind, fixture, doc));
        for (const doc of docs) names.set(kind.key, kind.identity(doc), await kind.create(api, doc, names));
        created.set(kind.key, docs);

        const read = await readAll(kind);
        expect([...read.keys()].sort()).toEqual(docs.map((doc) => kind.identity(doc)).sort());
        docs.forEach((doc, i) => {
          const current = read.get(kind.identity(doc)) as Current<Doc>;
          const secrets = SECRETS[kind.key]?.[i] ?? [];
          expect(secretPaths(current.doc).sort(), `${kind.key} ${kind.identity(doc)}`).toEqual(
            [...secrets].sort(),
          );
          expect(current.doc, `${kind.key} ${kind.identity(doc)}`).toEqual(masked(doc, secrets));
          // As an export writes it (each `********` a reference), a read parses as a document.
          const exported = exportedSecrets(kind.key, kind.identity(doc), current.doc);
          expect(kind.schema.parse(exported), 'a read parses as a document').toEqual(exported);
        });
      }
    });

    it('never reads a secret back in clear', async () => {
      const clear = [
        'whsec-fixture-ops',
        'whsec-fixture-api',
        'tok-fixture-health',
        channelsFixture.env?.OPS_PAGERDUTY_KEY,
        checksFixture.env?.API_TELEGRAM_TOKEN,
      ].map(String);
      for (const [kind] of KINDS) {
        const text = JSON.stringify([...(await readAll(kind)).values()]);
        for (const secret of clear) expect(text).not.toContain(secret);
      }
    });

    it('applies each fixture mutation, and the read shows it', async () => {
      for (const [kind, fixture] of KINDS) {
        const current = (await readAll(kind)).get(fixture.mutation.identity) as Current<Doc>;
        const doc = structuredClone(
          created.get(kind.key)?.find((d) => kind.identity(d) === fixture.mutation.identity),
        ) as Doc;
        setPath(doc, fixture.mutation.path, fixture.mutation.to);
        await kind.update(api, current, kind.schema.parse(doc) as Doc, names);
        const after = (await readAll(kind)).get(fixture.mutation.identity) as Current<Doc>;
        expect(after.doc, kind.key).toEqual({ ...masked(doc, secretPaths(current.doc)) });
      }
    });

    it('keeps a check’s stored secrets when the document leaves them as ******** (an unset env reference)', async () => {
      const current = (await readAll(checksKind)).get('service/api:homepage') as Current<Doc>;
      const doc = { ...structuredClone(current.doc), failure_threshold: 4, timeout_ms: 7000 };
      await checksKind.update(api, current, doc, names);
      const after = (await readAll(checksKind)).get('service/api:homepage') as Current<Doc>;
      expect(after.doc).toEqual(doc);
      const stored = await harness.app.checkService.requireCheck(harness.tenantId, current.id);
      expect(stored.headers).toEqual({ 'x-health-token': 'tok-fixture-health' });
    });

    it('sends a check’s header values again when its target changes, and fails the object when one is left as ********', async () => {
      const current = (await readAll(checksKind)).get('service/api:homepage') as Current<Doc>;
      const moved = { ...structuredClone(current.doc), target_url: 'http://127.0.0.1:9/ready' };
      await expect(checksKind.update(api, current, moved, names)).rejects.toThrow(/headers\.x-health-token/);
      expect((await readAll(checksKind)).get('service/api:homepage')?.doc).toEqual(current.doc);

      await checksKind.update(
        api,
        current,
        { ...moved, headers: { 'x-health-token': 'tok-fixture-ready' } },
        names,
      );
      const stored = await harness.app.checkService.requireCheck(harness.tenantId, current.id);
      expect(stored).toMatchObject({
        target_url: 'http://127.0.0.1:9/ready',
        headers: { 'x-health-token': 'tok-fixture-ready' },
      });
    });

    it('keeps a channel’s stored secret when the document leaves it as ********, while the type stays', async () => {
      const current = (await readAll(channelsKind)).get('ops-webhook') as Current<Doc>;
      const moved = { url: 'http://127.0.0.1:9/moved', secret: SECRET_PLACEHOLDER };
      await channelsKind.update(api, current, { ...current.doc, config: moved }, names);
      const [stored] = await getTenantChannels(harness.table, harness.tenantId, [current.id]);
      expect(stored?.config).toEqual({ url: 'http://127.0.0.1:9/moved', secret: 'whsec-fixture-ops' });

      const retyped = {
        ...current.doc,
        channel_type: 'ntfy',
        config: { url: 'http://127.0.0.1:9/topic', token: SECRET_PLACEHOLDER },
      };
      await expect(channelsKind.update(api, current, retyped, names)).rejects.toThrow(/config\.token/);
      await channelsKind.update(
        api,
        { ...current, doc: { ...current.doc, config: moved } },
        current.doc,
        names,
      );
    });

    it('changes a check’s policy channels: a removed one goes, a new one comes, the others stay', async () => {
      const current = (await readAll(checksKind)).get('service/api:homepage') as Current<Doc>;
      const policy = current.doc.policy as { channels: Doc[] };
      const before = await api({ method: 'GET', path: `/v1/checks/${current.id}/policy` });
      const ownId = (before.body as { channels: { id: string; check_id: string | null }[] }).channels.find(
        (c) => c.check_id !== null,
      )?.id;
      const doc = {
        ...current.doc,
        policy: { ...policy, channels: [policy.channels[0], { channel: 'ops-slack' }] },
      };
      await checksKind.update(api, current, checksKind.schema.parse(doc) as Doc, names);
      const after = await api({ method: 'GET', path: `/v1/checks/${current.id}/policy` });
      const channels = (after.body as { channels: { id: string; name?: string }[] }).channels;
      expect(channels.map((c) => c.name ?? c.id)).toEqual([ownId, 'ops-slack']);
    });

    it('deletes the check again when its policy is refused, so the object fails whole', async () => {
      const doc = checksKind.schema.parse({
        entity: 'database/main',
        name: 'refused-policy',
        check_type: 'tcp',
        interval_seconds: 86_400,
        config: { host: '127.0.0.1', port: 9 },
        policy: { channels: [{ channel_type: 'webhook', config: { url: 'https://169.254.169.254/hook' } }] },
      }) as Doc;
      // The SSRF guard refuses the channel's address after the check was created.
      await expect(checksKind.create(api, doc, names)).rejects.toThrow(/config\.url/);
      expect((await readAll(checksKind)).has('database/main:refused-policy')).toBe(false);
      const listed = await api({ method: 'GET', path: '/v1/checks' });
      expect((listed.body as { name: string }[]).map((c) => c.name)).not.toContain('refused-policy');
    });

    it('fails an icmp check with the API’s sentence where the runtime cannot run it', async () => {
      const doc = checksKind.schema.parse({
        entity: 'database/main',
        name: 'ping',
        check_type: 'icmp',
        interval_seconds: 86_400,
        config: { host: '127.0.0.1' },
      }) as Doc;
      if (runtime === 'lambda') {
        await expect(checksKind.create(api, doc, names)).rejects.toThrow(/AWS Lambda does not give/);
        expect((await readAll(checksKind)).has('database/main:ping')).toBe(false);
        return;
      }
      const id = await checksKind.create(api, doc, names);
      const current = (await readAll(checksKind)).get('database/main:ping') as Current<Doc>;
      expect(current.doc).toEqual(doc);
      await checksKind.remove(api, { id, doc });
    });

    it('refuses a route with the name of another', async () => {
      const doc = routesKind.schema.parse({ name: 'critical-to-ops', channels: ['ops-webhook'] }) as Doc;
      await expect(routesKind.create(api, doc, names)).rejects.toThrow(/exists already/);
    });

    it('removes each object, and the read no longer has it', async () => {
      for (const [kind, fixture] of [...KINDS].reverse()) {
        const read = await readAll(kind);
        for (const doc of created.get(kind.key) ?? []) {
          const current = read.get(kind.identity(doc)) as Current<Doc>;
          await kind.remove(api, current);
          names.remove(kind.key, kind.identity(doc));
        }
        expect([...(await readAll(kind)).keys()], fixture.key).toEqual([]);
      }
    });
  },
);

describe('channels, checks and routes documents', () => {
  it('generate their JSON Schema from the same validators (io: input)', () => {
    for (const [kind] of KINDS) {
      const schema = z.toJSONSchema(kind.schema, { io: 'input' });
      expect(JSON.stringify(schema), kind.key).toContain('"required"');
    }
  });

  it('refuse a route whose escalation is half given, or that names no channel', () => {
    const refused = (doc: Doc) => routesKind.schema.safeParse(doc).success === false;
    expect(refused({ name: 'half', escalate_channels: ['ops-slack'] })).toBe(true);
    expect(refused({ name: 'half', channels: ['ops-webhook'], escalate_after_seconds: 600 })).toBe(true);
    expect(refused({ name: 'none' })).toBe(true);
    expect(refused({ name: 'pages', escalation_policy: 'core-escalation' })).toBe(false);
    expect(refused({ name: 'owner', page_owner_policy: true })).toBe(false);
    expect(refused({ name: 'whole', escalate_channels: ['ops-slack'], escalate_after_seconds: 600 })).toBe(
      false,
    );
  });

  it('apply the API’s defaults to a check and give it the default policy when it has none', () => {
    const doc = checksKind.schema.parse({
      entity: 'service/web',
      name: 'heartbeat',
      check_type: 'push',
    }) as Doc;
    expect(doc).toMatchObject({
      interval_seconds: 60,
      execution_mode: 'push',
      locations: ['default'],
      quorum: null,
    });
    expect(doc).not.toHaveProperty('timeout_ms');
    expect(doc.policy).toEqual({
      cooldown_seconds: 300,
      notify_on_recovery: true,
      silenced: false,
      repeat_interval_seconds: 0,
      suppress_when_upstream_down: true,
      flap_changes: 6,
      flap_window_seconds: 1800,
      flap_settle_seconds: 300,
      channels: [],
    });
  });
});
