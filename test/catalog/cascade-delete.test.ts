import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/platform/ids.ts';
import { queryAll } from '../../lib/store/items.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import type { NewItem, QueryInput } from '../../lib/store/table.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

const RESULTS = 1000;

/**
 * Both runtimes (a contract: the cascade runs on the change feed, which the cloud delivers later
 * than the local pump): the entity's relations are hidden from the moment of the delete, before
 * the cascade has removed them.
 */
describe.each(bothRuntimes)('deleting an entity ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const all = (input: Omit<QueryInput, 'cursor'>) =>
    queryAll((cursor) => api.table.query({ ...input, cursor }));

  beforeAll(async () => {
    api = await start();
    await call('POST', '/v1/blueprints', { slug: 'app', name: 'App' });
  });
  afterAll(async () => {
    await api.close();
  });

  /** A check of `entityId` as the checks engine stores it, with `results` results, a policy and a channel. */
  async function seedCheck(entityId: string, results: number): Promise<string> {
    const checkId = newId('chk');
    const partition = `CHECK#${checkId}`;
    await api.table.transact([
      {
        type: 'put',
        item: {
          pk: tenantPk(api.tenantId),
          sk: `CHECK#${checkId}`,
          entity: 'check',
          schema_version: 1,
          gsi1pk: `ENT#${entityId}#CHECKS`,
          gsi1sk: checkId,
          id: checkId,
          entity_id: entityId,
        },
      },
      {
        type: 'put',
        item: { pk: partition, sk: 'POLICY', entity: 'policy', schema_version: 1, check_id: checkId },
      },
      {
        type: 'put',
        item: {
          pk: partition,
          sk: `CHN#${newId('chn')}`,
          entity: 'channel',
          schema_version: 1,
          check_id: checkId,
        },
      },
    ]);
    for (let i = 0; i < results; i += 100) {
      const items: NewItem[] = Array.from({ length: Math.min(100, results - i) }, (_, j) => ({
        pk: partition,
        sk: `RES#${String(i + j).padStart(6, '0')}`,
        entity: 'check_result',
        schema_version: 1,
        success: true,
        latency_ms: 5,
      }));
      await api.table.transact(items.map((item) => ({ type: 'put', item })));
    }
    return checkId;
  }

  it('answers 204, hides the entity and its relations at once, and purges checks, results and relations', async () => {
    const victim = (await call('POST', '/v1/blueprints/app/entities', { slug: 'victim', name: 'Victim' }))
      .body.id;
    const peer = (await call('POST', '/v1/blueprints/app/entities', { slug: 'peer', name: 'Peer' })).body.id;
    const checkId = await seedCheck(victim, RESULTS);
    const otherCheck = await seedCheck(peer, 3);
    const out = await call('POST', '/v1/relations', {
      from_entity_id: victim,
      to_entity_id: peer,
      relation_type: 'depends_on',
    });
    const into = await call('POST', '/v1/relations', {
      from_entity_id: peer,
      to_entity_id: victim,
      relation_type: 'part_of',
    });
    expect([out.status, into.status]).toEqual([201, 201]);
    expect(await all({ pk: `CHECK#${checkId}` })).toHaveLength(RESULTS + 2);

    const del = await call('DELETE', '/v1/blueprints/app/entities/victim');
    expect(del.status).toBe(204);
    expect((await call('GET', '/v1/blueprints/app/entities/victim')).status).toBe(404);
    expect((await call('GET', '/v1/relations')).body).toEqual([]);

    await api.drainChanges();

    expect(await all({ pk: `CHECK#${checkId}` })).toEqual([]);
    expect(await all({ index: 'gsi1', pk: `ENT#${victim}#CHECKS` })).toEqual([]);
    expect(await all({ index: 'gsi1', pk: `ENTREL#${victim}` })).toEqual([]);
    expect(await all({ index: 'gsi2', pk: `ENTREL#${victim}` })).toEqual([]);
    expect(await all({ pk: `PURGE#${api.tenantId}` })).toEqual([]);
    const tenantItems = await all({ pk: tenantPk(api.tenantId) });
    const leftovers = tenantItems.filter(
      (item) => /^(REL|RELKEY|DEP|CHECK|ENTID)#/.test(item.sk) && item.sk.includes(victim),
    );
    expect(leftovers).toEqual([]);
    expect(tenantItems.some((item) => item.sk === `CHECK#${checkId}`)).toBe(false);
    // The rest of the catalog is untouched.
    expect(tenantItems.some((item) => item.sk === `CHECK#${otherCheck}`)).toBe(true);
    expect(await all({ pk: `CHECK#${otherCheck}` })).toHaveLength(5);
    expect((await call('GET', '/v1/blueprints/app/entities/peer')).status).toBe(200);
    // The work went in bounded rounds, the job re-triggering itself.
    const rounds = api.logs.filter(
      (line) => line.includes('"purge round"') && line.includes(`CHECK#${checkId}`),
    );
    expect(rounds.length).toBeGreaterThanOrEqual(2);
  });

  it('frees the plan slot of a deleted entity', async () => {
    const other = await api.createTenant('Cyberdyne');
    await api.operator(['tenant', 'limits', other.tenantId, '--entity-limit-per-bp', '1']);
    const post = (path: string, body: unknown) => api.request('POST', path, { key: other.key, body });
    await post('/v1/blueprints', { slug: 'one', name: 'One' });
    expect((await post('/v1/blueprints/one/entities', { slug: 'a', name: 'A' })).status).toBe(201);
    expect((await post('/v1/blueprints/one/entities', { slug: 'b', name: 'B' })).status).toBe(403);
    await api.request('DELETE', '/v1/blueprints/one/entities/a', { key: other.key });
    expect((await post('/v1/blueprints/one/entities', { slug: 'b', name: 'B' })).status).toBe(201);
  });
});
