import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type Api, ConfigApplyError, type DocKey } from '../../lib/config-doc/kind.ts';
import { createNameIndex } from '../../lib/config-doc/names.ts';
import type { Principal } from '../../lib/domain/principal.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { blueprintsFixture } from './fixtures/blueprints.ts';
import { entitiesFixture } from './fixtures/entities.ts';
import { maintenanceFixture } from './fixtures/maintenance.ts';
import { relationsFixture } from './fixtures/relations.ts';
import type { KindFixture } from './fixtures/types.ts';
import { httpKindApi } from './kind-api.ts';

/**
 * The catalog's kinds of the configuration document (blueprints, entities, relations,
 * maintenance): each object of the fixture universe is created through the tenant's API, read
 * back in exactly its parsed document form (what makes a second apply plan nothing), updated and
 * removed, in both runtimes.
 */

const FIXTURES = [blueprintsFixture, entitiesFixture, relationsFixture, maintenanceFixture];

/** A copy of `doc` with the value at the dotted `path` set to `to`. */
function withChange(doc: Record<string, unknown>, path: string, to: unknown): Record<string, unknown> {
  const copy = structuredClone(doc);
  const parts = path.split('.');
  let at: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) at = at[part] as Record<string, unknown>;
  at[parts.at(-1) ?? ''] = to;
  return copy;
}

describe('catalog kinds: document schemas', () => {
  it('generates a JSON Schema of the input for each kind', () => {
    for (const { key } of FIXTURES) {
      const schema = z.toJSONSchema(CONFIG_KINDS[key].schema, { io: 'input' });
      expect(schema.type, key).toBe('object');
      expect(schema.additionalProperties, key).toBe(false);
    }
  });

  it('parses each fixture object and refuses an unknown key', () => {
    for (const { key, docs } of FIXTURES) {
      const kind = CONFIG_KINDS[key];
      for (const doc of docs) {
        expect(kind.schema.safeParse(doc).success, `${key} ${JSON.stringify(doc)}`).toBe(true);
        expect(kind.schema.safeParse({ ...doc, colour: 'red' }).success, key).toBe(false);
      }
    }
  });

  it('names what each object refers to by identity: a blueprint, entities, never a window’s blueprints', () => {
    const refs = (key: DocKey, doc: unknown) => {
      const kind = CONFIG_KINDS[key];
      return kind.references(kind.schema.parse(doc));
    };
    expect(refs('blueprints', blueprintsFixture.docs[0])).toEqual([]);
    expect(refs('entities', entitiesFixture.docs[0])).toEqual([{ key: 'blueprints', identity: 'service' }]);
    expect(refs('relations', relationsFixture.docs[0])).toEqual([
      { key: 'entities', identity: 'service/api' },
      { key: 'entities', identity: 'database/main' },
    ]);
    const window = {
      name: 'w',
      entities: ['service/api'],
      blueprint_slugs: ['gone'],
      cron: '0 2 * * *',
      duration_seconds: 600,
    };
    expect(refs('maintenance', window)).toEqual([{ key: 'entities', identity: 'service/api' }]);
  });

  it('puts blueprint fields in display order and fills the API defaults', () => {
    const parsed = CONFIG_KINDS.blueprints.schema.parse(blueprintsFixture.docs[0]);
    expect(parsed.fields).toEqual([
      { name: 'owner', field_type: 'string', required: false, sort_order: 0 },
      { name: 'tier', field_type: 'string', required: false, sort_order: 1 },
    ]);
    expect(parsed).toMatchObject({ is_default: false, state_rule: 'worst' });
  });

  it('judges a window by the API rules, naming the entities list', () => {
    const schema = CONFIG_KINDS.maintenance.schema;
    const empty = schema.safeParse({ name: 'w', cron: '0 2 * * *', duration_seconds: 600 });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.map((i) => i.path.join('.'))).toContain('entities');
    const both = schema.safeParse({
      name: 'w',
      entities: ['service/api'],
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-02T00:00:00Z',
      cron: '0 2 * * *',
    });
    expect(both.success).toBe(false);
    expect(
      schema.safeParse({ name: 'w', entities: ['api'], cron: '0 2 * * *', duration_seconds: 600 }).success,
    ).toBe(false);
  });

  it('stores a window as the API does: one spaced cron, UTC by default, times to the millisecond, no repeats', () => {
    const schema = CONFIG_KINDS.maintenance.schema;
    expect(
      schema.parse({
        name: 'r',
        blueprint_slugs: ['service', 'service'],
        cron: ' 0  2 * * 1-5 ',
        duration_seconds: 600,
      }),
    ).toStrictEqual({
      name: 'r',
      entities: [],
      blueprint_slugs: ['service'],
      include_dependents: false,
      announce: false,
      cron: '0 2 * * 1-5',
      duration_seconds: 600,
      timezone: 'UTC',
      announce_lead_seconds: 86_400,
    });
    expect(
      schema.parse({
        name: 'o',
        entities: ['service/api', 'service/api'],
        starts_at: '2030-01-01T00:00:00Z',
        ends_at: '2030-01-01T01:00:00Z',
      }),
    ).toStrictEqual({
      name: 'o',
      entities: ['service/api'],
      blueprint_slugs: [],
      include_dependents: false,
      announce: false,
      starts_at: '2030-01-01T00:00:00.000Z',
      ends_at: '2030-01-01T01:00:00.000Z',
    });
  });

  it('carries a window’s status-page notice as the API stores it, and refuses what the API refuses', () => {
    const schema = CONFIG_KINDS.maintenance.schema;
    expect(
      schema.parse({
        name: 'n',
        entities: ['service/api'],
        starts_at: '2030-01-02T00:00:00Z',
        ends_at: '2030-01-02T01:00:00Z',
        announce: true,
        announce_from: '2030-01-01T00:00:00Z',
        public_note: '  We *upgrade* the database.  ',
      }),
    ).toMatchObject({
      announce: true,
      announce_from: '2030-01-01T00:00:00.000Z',
      public_note: 'We *upgrade* the database.',
    });
    expect(
      schema.parse({
        name: 'r',
        entities: ['service/api'],
        cron: '0 2 * * *',
        duration_seconds: 600,
        announce: true,
        announce_lead_seconds: 3600,
      }),
    ).toMatchObject({ announce: true, announce_lead_seconds: 3600 });
    const late = schema.safeParse({
      name: 'n',
      entities: ['service/api'],
      starts_at: '2030-01-02T00:00:00Z',
      ends_at: '2030-01-02T01:00:00Z',
      announce_from: '2030-01-03T00:00:00Z',
    });
    expect(late.error?.issues.map((i) => i.path.join('.'))).toEqual(['announce_from']);
    const lead = schema.safeParse({
      name: 'n',
      entities: ['service/api'],
      starts_at: '2030-01-02T00:00:00Z',
      ends_at: '2030-01-02T01:00:00Z',
      announce_lead_seconds: 60,
    });
    expect(lead.error?.issues.map((i) => i.path.join('.'))).toEqual(['announce_lead_seconds']);
  });
});

describe.each(runtimes)('catalog kinds ($runtime runtime)', ({ start }) => {
  let harness: ApiHarness;
  const names = createNameIndex();
  const api = httpKindApi(() => harness);

  const readAll = async (key: DocKey) => {
    const kind = CONFIG_KINDS[key];
    return new Map((await kind.read(api, names)).map((current) => [kind.identity(current.doc), current]));
  };
  const parsedOf = (fixture: KindFixture) =>
    fixture.docs.map((doc) => CONFIG_KINDS[fixture.key].schema.parse(doc));

  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('creates every fixture object and reads each back exactly in its parsed document form', async () => {
    for (const fixture of FIXTURES) {
      const kind = CONFIG_KINDS[fixture.key];
      for (const doc of parsedOf(fixture)) {
        const id = await kind.create(api, doc, names);
        names.set(fixture.key, kind.identity(doc), id);
      }
      const read = await readAll(fixture.key);
      expect(read.size, fixture.key).toBe(fixture.docs.length);
      for (const doc of parsedOf(fixture)) {
        const identity = kind.identity(doc);
        expect(read.get(identity)?.doc, `${fixture.key} ${identity}`).toStrictEqual(doc);
        expect(read.get(identity)?.id).toBe(names.id(fixture.key, identity));
      }
    }
  });

  it.each([blueprintsFixture, entitiesFixture, maintenanceFixture])(
    'updates the mutated field of $key and reads it back',
    async (fixture) => {
      const kind = CONFIG_KINDS[fixture.key];
      const { identity, path, to } = fixture.mutation;
      const current = (await readAll(fixture.key)).get(identity);
      if (!current) throw new Error(`${identity} is not there`);
      const wanted = kind.schema.parse(withChange(current.doc, path, to));
      expect(wanted).not.toStrictEqual(current.doc);
      await kind.update(api, current, wanted, names);
      expect((await readAll(fixture.key)).get(identity)).toStrictEqual({ id: current.id, doc: wanted });
    },
  );

  it('removes an entity field left out of the document and changes its own state rule', async () => {
    const kind = CONFIG_KINDS.entities;
    const current = (await readAll('entities')).get('service/web');
    if (!current) throw new Error('service/web is not there');
    const wanted = kind.schema.parse({
      ...current.doc,
      fields: { owner: 'team-web' },
      state_rule: 'all_down',
    });
    await kind.update(api, current, wanted, names);
    expect((await readAll('entities')).get('service/web')?.doc).toStrictEqual(wanted);
    expect(wanted.fields).toStrictEqual({ owner: 'team-web' });
  });

  it('adds a blueprint field, and refuses to change or remove one, changing nothing', async () => {
    const kind = CONFIG_KINDS.blueprints;
    const current = (await readAll('blueprints')).get('service');
    if (!current) throw new Error('service is not there');
    const fields = current.doc.fields as Record<string, unknown>[];
    const added = kind.schema.parse({
      ...current.doc,
      fields: [...fields, { name: 'runbook', field_type: 'url', sort_order: 5 }],
    });
    await kind.update(api, current, added, names);
    const after = (await readAll('blueprints')).get('service');
    expect(after?.doc).toStrictEqual(added);
    if (!after) return;

    const changed = kind.schema.parse({
      ...after.doc,
      name: 'Services',
      fields: (after.doc.fields as Record<string, unknown>[]).map((f) =>
        f.name === 'tier' ? { ...f, required: true, default_value: 'bronze' } : f,
      ),
    });
    const refusal = await kind.update(api, after, changed, names).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(ConfigApplyError);
    expect(String((refusal as Error).message)).toMatch(
      /^blueprint service: field tier would change\. The API only adds fields/,
    );

    const removed = kind.schema.parse({ ...after.doc, fields: [] });
    await expect(kind.update(api, after, removed, names)).rejects.toThrow(
      /field owner would be removed; field tier would be removed; field runbook would be removed\./,
    );
    // Neither refusal wrote anything: not the name the first one carried either.
    expect((await readAll('blueprints')).get('service')?.doc).toStrictEqual(after.doc);
  });

  it('changes a relation as another relation: the new one is created, the old one removed', async () => {
    const kind = CONFIG_KINDS.relations;
    const { identity, path, to } = relationsFixture.mutation;
    const current = (await readAll('relations')).get(identity);
    if (!current) throw new Error(`${identity} is not there`);
    const wanted = kind.schema.parse(withChange(current.doc, path, to));
    expect(kind.identity(wanted)).toBe('service/api connects_to database/main');
    await expect(kind.update(api, current, wanted, names)).rejects.toThrow(/cannot be changed/);

    const id = await kind.create(api, wanted, names);
    await kind.remove(api, current);
    const read = await readAll('relations');
    expect([...read.keys()]).toEqual(['service/api connects_to database/main']);
    expect(read.get('service/api connects_to database/main')?.id).toBe(id);
    // Back as the fixture has it, for the removals below.
    await kind.remove(api, { id, doc: wanted });
    names.set('relations', identity, await kind.create(api, current.doc, names));
  });

  it('creates a one-off window with unspaced times and repeats, and reads it back in its parsed form', async () => {
    const kind = CONFIG_KINDS.maintenance;
    const doc = kind.schema.parse({
      name: 'migration',
      entities: ['service/api', 'service/web', 'service/api'],
      blueprint_slugs: ['database'],
      include_dependents: true,
      starts_at: '2030-03-01T22:00:00Z',
      ends_at: '2030-03-02T02:30:00Z',
    });
    const id = await kind.create(api, doc, names);
    expect((await readAll('maintenance')).get('migration')).toStrictEqual({ id, doc });
    await kind.remove(api, { id, doc });
    expect((await readAll('maintenance')).has('migration')).toBe(false);
  });

  it('reads every page of a tenant’s entities, and only that tenant’s', async () => {
    const other = await harness.createTenant('Paging');
    const otherApi = httpKindApi(
      () => harness,
      () => other.key,
    );
    const blueprints = CONFIG_KINDS.blueprints;
    const entities = CONFIG_KINDS.entities;
    const otherNames = createNameIndex();
    await blueprints.create(otherApi, blueprints.schema.parse({ slug: 'node', name: 'Node' }), otherNames);
    // More than one page of GET /v1/entities (at most 200 an answer).
    const slugs = Array.from({ length: 205 }, (_, i) => `n-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < slugs.length; i += 10) {
      await Promise.all(
        slugs
          .slice(i, i + 10)
          .map((slug) =>
            entities.create(
              otherApi,
              entities.schema.parse({ blueprint: 'node', slug, name: slug }),
              otherNames,
            ),
          ),
      );
    }
    const read = await entities.read(otherApi, otherNames);
    expect(read.map((current) => entities.identity(current.doc)).sort()).toEqual(
      slugs.map((slug) => `node/${slug}`),
    );
  });

  it('creates, reads and removes the fixture universe through the in-process invoker too', async () => {
    // The engine's way in: app.invoke as the caller, no HTTP; the caller is another tenant's admin key.
    const other = await harness.createTenant('Invoker');
    const me = await harness.request('GET', '/v1/me', { key: other.key });
    const principal: Principal = {
      tenantId: other.tenantId,
      userId: me.body.user.id,
      keyId: me.body.key.id,
      role: 'admin',
      readOnly: false,
    };
    const request = {
      headers: {},
      requestId: 'kinds-catalog',
      sourceIp: '127.0.0.1',
      logger: createLogger({ write: () => {} }),
    };
    const invoked: Api = (call) => harness.app.invoke({ principal, request }, call);
    const otherNames = createNameIndex();
    for (const fixture of FIXTURES) {
      const kind = CONFIG_KINDS[fixture.key];
      for (const doc of parsedOf(fixture))
        otherNames.set(fixture.key, kind.identity(doc), await kind.create(invoked, doc, otherNames));
      const byIdentity = (docs: Record<string, unknown>[]) =>
        docs.map((doc) => [kind.identity(doc), doc] as const).sort(([a], [b]) => (a < b ? -1 : 1));
      const read = (await kind.read(invoked, otherNames)).map((current) => current.doc);
      expect(byIdentity(read), fixture.key).toStrictEqual(byIdentity(parsedOf(fixture)));
    }
    for (const fixture of [...FIXTURES].reverse()) {
      const kind = CONFIG_KINDS[fixture.key];
      for (const current of await kind.read(invoked, otherNames)) await kind.remove(invoked, current);
      expect(await kind.read(invoked, otherNames), fixture.key).toEqual([]);
    }
  });

  it('removes every fixture object, the kinds in reverse order', async () => {
    for (const fixture of [...FIXTURES].reverse()) {
      const kind = CONFIG_KINDS[fixture.key];
      for (const current of (await readAll(fixture.key)).values()) await kind.remove(api, current);
      expect((await readAll(fixture.key)).size, fixture.key).toBe(0);
    }
  });
});
