import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createConfigEngine } from '../../lib/config-doc/engine.ts';
import {
  type AppliedChange,
  ConfigApplyError,
  type Current,
  type DocKey,
  defineKind,
  SECRET_PLACEHOLDER,
} from '../../lib/config-doc/kind.ts';
import { silentLogger } from '../../lib/platform/logger.ts';

/**
 * The engine over small kinds of the test's own, kept in memory: `parents` (`name`, `value`, a
 * write-only `token`) and `children` referring to a parent. A value of 13 makes the API refuse
 * the object. Every call is recorded, and how many objects of a kind were in flight at once.
 */
interface Doc extends Record<string, unknown> {
  name: string;
  value: number;
  token?: string | undefined;
  parent?: string | undefined;
}

function world() {
  const stores = new Map<DocKey, Map<string, Record<string, unknown>>>();
  const log: string[] = [];
  const inFlight = { now: 0, most: 0 };
  let nextId = 0;
  const storeOf = (key: DocKey) => {
    const store = stores.get(key) ?? new Map<string, Record<string, unknown>>();
    stores.set(key, store);
    return store;
  };
  const refuse = () => new ConfigApplyError({ status: 400, body: { error: 'value 13 is not allowed' } });
  const kind = (key: DocKey, refersTo?: DocKey) =>
    defineKind<Doc>({
      key,
      noun: key === 'entities' ? 'entity' : 'blueprint',
      schema: z.strictObject({
        name: z.string(),
        value: z.number().default(0),
        token: z.string().optional(),
        parent: z.string().optional(),
      }),
      identity: (doc) => doc.name,
      references: (doc) => (refersTo && doc.parent ? [{ key: refersTo, identity: doc.parent }] : []),
      read: async () =>
        [...storeOf(key)].map(([id, doc]) => ({
          id,
          doc: { ...doc, ...(doc.token === undefined ? {} : { token: SECRET_PLACEHOLDER }) },
        })) as Current<Doc>[],
      async create(_api, doc) {
        inFlight.most = Math.max(inFlight.most, ++inFlight.now);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight.now--;
        log.push(`create ${key} ${doc.name}`);
        if (doc.value === 13) throw refuse();
        const id = `id${nextId++}`;
        storeOf(key).set(id, { ...doc });
        return id;
      },
      async update(_api, current, doc) {
        log.push(`update ${key} ${doc.name}`);
        if (doc.value === 13) throw refuse();
        const stored = storeOf(key).get(current.id) ?? {};
        // `********` keeps the stored secret, as the API does.
        storeOf(key).set(current.id, {
          ...doc,
          token: doc.token === SECRET_PLACEHOLDER ? stored.token : doc.token,
        });
      },
      async remove(_api, current) {
        log.push(`delete ${key} ${current.doc.name}`);
        storeOf(key).delete(current.id);
      },
    });
  const charged: number[] = [];
  const engine = createConfigEngine({
    kinds: { blueprints: kind('blueprints'), entities: kind('entities', 'blueprints') },
    invoke: async () => ({ status: 500, body: undefined }),
    charge: async (_caller, count) => {
      charged.push(count);
    },
    batch: 4,
  });
  return { engine, stores, storeOf, log, inFlight, charged };
}

const caller = {
  principal: { tenantId: 'ten_1', userId: 'usr_1', keyId: 'key_1', role: 'admin' as const, readOnly: false },
  request: { headers: {}, requestId: 'req_1', logger: silentLogger },
};
const doc = (lists: Record<string, unknown[]>) => ({ apiVersion: 'vigil/v1', kind: 'Config', ...lists });

describe('configuration engine', () => {
  it('plans creates, then only the updates that differ, field by field, and deletes only with prune', async () => {
    const w = world();
    const first = doc({
      blueprints: [{ name: 'a' }, { name: 'b', value: 2 }],
      entities: [{ name: 'e', parent: 'a' }],
    });
    expect((await w.engine.plan(caller, first)).changes).toEqual([
      { op: 'create', kind: 'blueprints', id: 'a' },
      { op: 'create', kind: 'blueprints', id: 'b' },
      { op: 'create', kind: 'entities', id: 'e' },
    ]);
    expect(w.log).toEqual([]);
    const applied = await w.engine.apply(caller, first);
    expect(applied.summary).toEqual({ created: 3, updated: 0, deleted: 0, failed: 0, unchanged: 0 });
    expect(applied.applied).toBe(true);
    expect(w.charged).toEqual([3]);
    expect((await w.engine.plan(caller, first)).changes).toEqual([]);

    const second = doc({ blueprints: [{ name: 'a', value: 5 }], entities: [{ name: 'e', parent: 'a' }] });
    expect((await w.engine.plan(caller, second)).changes).toEqual([
      { op: 'update', kind: 'blueprints', id: 'a', fields: [{ path: 'value', from: 0, to: 5 }] },
    ]);
    expect((await w.engine.plan(caller, second, { prune: true })).changes).toEqual([
      { op: 'update', kind: 'blueprints', id: 'a', fields: [{ path: 'value', from: 0, to: 5 }] },
      { op: 'delete', kind: 'blueprints', id: 'b' },
    ]);
    const pruned = await w.engine.apply(caller, doc({ blueprints: [{ name: 'a' }] }), { prune: true });
    expect(pruned.changes.map((c) => `${c.op} ${c.kind} ${c.id}`)).toEqual([
      'delete entities e',
      'delete blueprints b',
    ]);
    expect(pruned.summary).toMatchObject({ deleted: 2, unchanged: 1 });
  });

  it('refuses a reference to an object neither in the document nor in the tenant, naming both', async () => {
    const w = world();
    await expect(
      w.engine.plan(caller, doc({ entities: [{ name: 'e', parent: 'nope' }] })),
    ).rejects.toMatchObject({
      status: 400,
      details: [
        {
          path: 'entities[0]',
          message: 'entity e refers to blueprints nope, which is not in the document or the tenant.',
        },
      ],
    });
    await w.engine.apply(caller, doc({ blueprints: [{ name: 'a' }] }));
    // In the tenant, it resolves; with prune the tenant's other objects are going, so it must be in the document.
    await expect(
      w.engine.plan(caller, doc({ entities: [{ name: 'e', parent: 'a' }] })),
    ).resolves.toBeDefined();
    await expect(
      w.engine.plan(caller, doc({ entities: [{ name: 'e', parent: 'a' }] }), { prune: true }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('reports a failed object, fails the objects referring to it, and applies the rest', async () => {
    const w = world();
    const progress: AppliedChange[] = [];
    const result = await w.engine.apply(
      caller,
      doc({
        blueprints: [{ name: 'bad', value: 13 }, { name: 'good' }],
        entities: [
          { name: 'orphan', parent: 'bad' },
          { name: 'kept', parent: 'good' },
        ],
      }),
      { onProgress: (change) => progress.push(change) },
    );
    expect(result.applied).toBe(false);
    expect(result.summary).toEqual({ created: 2, updated: 0, deleted: 0, failed: 2, unchanged: 0 });
    const outcome = Object.fromEntries(result.changes.map((c) => [c.id, [c.status, c.error]]));
    expect(outcome).toEqual({
      bad: ['failed', 'value 13 is not allowed'],
      good: ['applied', undefined],
      orphan: ['failed', 'depends on blueprints bad, which failed'],
      kept: ['applied', undefined],
    });
    expect(progress).toEqual(result.changes);
    expect(w.log).not.toContain('create entities orphan');
  });

  it('applies one kind in bounded batches and finishes it before the next kind starts', async () => {
    const w = world();
    const blueprints = Array.from({ length: 20 }, (_, i) => ({ name: `b${i}` }));
    const entities = Array.from({ length: 10 }, (_, i) => ({ name: `e${i}`, parent: `b${i}` }));
    await w.engine.apply(caller, doc({ blueprints, entities }));
    expect(w.inFlight.most).toBe(4);
    const lastBlueprint = w.log.findLastIndex((line) => line.startsWith('create blueprints'));
    const firstEntity = w.log.findIndex((line) => line.startsWith('create entities'));
    expect(lastBlueprint).toBe(19);
    expect(firstEntity).toBe(20);
  });

  it('starts objects of different parents together: four in flight never share an entity-like parent while others wait', async () => {
    const w = world();
    const blueprints = [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }];
    // In document order, grouped by parent: four of a, four of b, and so on.
    const entities = blueprints.flatMap((b) =>
      Array.from({ length: 4 }, (_, i) => ({ name: `${b.name}${i}`, parent: b.name })),
    );
    await w.engine.apply(caller, doc({ blueprints, entities }));
    const started = w.log.filter((line) => line.startsWith('create entities')).map((line) => line.at(-2));
    expect(started).toHaveLength(16);
    for (let i = 0; i < 16; i += 4) expect(new Set(started.slice(i, i + 4)).size, started.join()).toBe(4);
  });

  it('fails a create holding an unset ${NAME}; an update keeps the stored secret; a plan sees no change', async () => {
    const w = world();
    const unset = await w.engine.apply(caller, doc({ blueprints: [{ name: 'a', token: '${A_TOKEN}' }] }));
    expect(unset.changes).toEqual([
      {
        op: 'create',
        kind: 'blueprints',
        id: 'a',
        status: 'failed',
        error: 'token refers to ${A_TOKEN}, which is not set',
      },
    ]);
    await w.engine.apply(caller, doc({ blueprints: [{ name: 'a', token: 'real-secret' }] }));
    expect(
      (await w.engine.plan(caller, doc({ blueprints: [{ name: 'a', token: '${A_TOKEN}' }] }))).changes,
    ).toEqual([]);
    await w.engine.apply(caller, doc({ blueprints: [{ name: 'a', token: '${A_TOKEN}', value: 1 }] }));
    expect([...w.storeOf('blueprints').values()]).toEqual([{ name: 'a', value: 1, token: 'real-secret' }]);
  });

  it('exports every list sorted by identity, with each stored secret as a reference, and charges nothing for no change', async () => {
    const w = world();
    await w.engine.apply(caller, doc({ blueprints: [{ name: 'z' }, { name: 'm', token: 'real-secret' }] }));
    const exported = await w.engine.exportDocument(caller);
    expect(exported).toEqual({
      apiVersion: 'vigil/v1',
      kind: 'Config',
      blueprints: [
        { name: 'm', value: 0, token: '${VIGIL_BLUEPRINTS_M_TOKEN}' },
        { name: 'z', value: 0 },
      ],
      entities: [],
    });
    expect(JSON.stringify(exported)).not.toContain('real-secret');
    await w.engine.apply(caller, exported);
    expect(w.charged).toEqual([2]);
  });
});
