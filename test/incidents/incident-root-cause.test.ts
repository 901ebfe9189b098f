import { describe, expect, it } from 'vitest';
import { bothRuntimes } from '../support/api-harness.ts';
import { useIncidentApi } from './use-incident-api.ts';

/**
 * One incident per root cause (issue 77 point 4, DECISIONS.md "One incident per root cause (wave
 * 6)") with a probed root cause: Shop API depends on Orders DB; Orders DB's push check fails (its
 * incident opens), then Shop API's: Shop API joins Orders DB's incident as an affected entity
 * instead of opening its own. Its recovery is marked there; Orders DB recovering while Shop API is
 * still down gives Shop API its own incident then. An entity whose own incident was open before its
 * upstream went down keeps it; a transitive dependent joins the root's. Both runtimes, results
 * through the API and the change feed (the DynamoDB stream's consumer in the cloud).
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
type Json = any;

describe.each(bothRuntimes)('one incident per root cause ($runtime)', ({ start }) => {
  const { api, call, fx, incidentsOf } = useIncidentApi(start);
  const dependsOn = (from: string, to: string) =>
    call(
      'POST',
      '/v1/relations',
      { from_entity_id: from, to_entity_id: to, relation_type: 'depends_on' },
      201,
    );
  const unresolved = async (entityId: string): Promise<Json[]> =>
    (await incidentsOf(entityId)).filter((i: Json) => i.state !== 'resolved');
  const detail = (id: string) => call('GET', `/v1/incidents/${id}`, undefined, 200);
  const affectedTexts = async (id: string) =>
    (await detail(id)).timeline.filter((e: Json) => e.type === 'affected').map((e: Json) => e.text);

  it('a dependent going down joins its upstream’s incident, and opens its own when the upstream recovers first', async () => {
    const db = await fx.entityWithCheck('Orders DB');
    const shop = await fx.entityWithCheck('Shop API');
    const cart = await fx.entityWithCheck('Cart');
    await dependsOn(shop.entityId, db.entityId);
    await dependsOn(cart.entityId, shop.entityId);
    for (const e of [db, shop, cart]) await fx.result(e.checkId, true);

    await fx.result(db.checkId, false);
    const [root] = await unresolved(db.entityId);
    expect(root).toMatchObject({ entity_id: db.entityId, state: 'open' });

    // Shop API down: no incident of its own, the root's lists it, and its list finds the root's.
    await fx.result(shop.checkId, false);
    expect((await unresolved(shop.entityId)).map((i: Json) => i.id)).toEqual([root.id]);
    const joined = await detail(root.id);
    expect(joined.affected).toEqual([
      {
        entity_id: shop.entityId,
        name: 'Shop API',
        state: 'down',
        at: expect.any(String),
        own_incident_id: null,
      },
    ]);
    expect(await affectedTexts(root.id)).toEqual(['affected: Shop API (down)']);
    // Cart depends on Shop API, which depends on Orders DB: the same root cause.
    await fx.result(cart.checkId, false);
    expect((await unresolved(cart.entityId)).map((i: Json) => i.id)).toEqual([root.id]);

    // Cart recovers inside the incident: marked up there, no incident of its own.
    await fx.result(cart.checkId, true);
    expect((await detail(root.id)).affected.map((a: Json) => `${a.name}:${a.state}`)).toEqual([
      'Shop API:down',
      'Cart:up',
    ]);
    expect((await incidentsOf(cart.entityId)).filter((i: Json) => i.entity_id === cart.entityId)).toEqual([]);

    // Orders DB recovers while Shop API is still down: Shop API is its own root cause now.
    await fx.result(db.checkId, true);
    expect((await detail(root.id)).state).toBe('resolved');
    const own = await unresolved(shop.entityId);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ entity_id: shop.entityId, entity_name: 'Shop API', state: 'open' });
    const after = await detail(root.id);
    expect(after.affected[0]).toMatchObject({
      entity_id: shop.entityId,
      state: 'down',
      own_incident_id: own[0].id,
    });
    expect(await affectedTexts(root.id)).toEqual([
      'affected: Shop API (down)',
      'affected: Cart (down)',
      'affected: Cart (up)',
      'affected: Shop API (down), its own incident now',
    ]);
    // Its own incident's timeline starts at the transition that took it down.
    expect((await detail(own[0].id)).timeline[0]).toMatchObject({ type: 'transition', to_state: 'down' });

    // Shop API up: its own incident resolves as any does.
    await fx.result(shop.checkId, true);
    expect(await unresolved(shop.entityId)).toEqual([]);
    expect((await detail(own[0].id)).state).toBe('resolved');
  });

  it('an entity with its own incident open when its upstream goes down keeps it', async () => {
    const db = await fx.entityWithCheck('Billing DB');
    const api = await fx.entityWithCheck('Billing API');
    await dependsOn(api.entityId, db.entityId);
    for (const e of [db, api]) await fx.result(e.checkId, true);

    await fx.result(api.checkId, false);
    const [own] = await unresolved(api.entityId);
    expect(own).toMatchObject({ entity_id: api.entityId });
    await fx.result(db.checkId, false);
    const [root] = await unresolved(db.entityId);
    expect(root.id).not.toBe(own.id);
    expect((await detail(root.id)).affected).toEqual([]);
    expect((await unresolved(api.entityId)).map((i: Json) => i.id)).toEqual([own.id]);

    // A dependent that recovered inside the root's incident and goes down again joins it again.
    const web = await fx.entityWithCheck('Billing Web');
    await dependsOn(web.entityId, db.entityId);
    await fx.result(web.checkId, false);
    await fx.result(web.checkId, true);
    await fx.result(web.checkId, false);
    expect((await unresolved(web.entityId)).map((i: Json) => i.id)).toEqual([root.id]);
    expect((await detail(root.id)).affected).toMatchObject([{ entity_id: web.entityId, state: 'down' }]);

    // Resolved by hand while Billing Web is still down: it opens its own then.
    await call('POST', `/v1/incidents/${root.id}/resolve`, {}, 200);
    const [webOwn] = await unresolved(web.entityId);
    expect(webOwn).toMatchObject({ entity_id: web.entityId, state: 'open' });
  });

  it('keeps the previous release’s incident of a dependent as it is and closes it as before, beside a dependent that joins (upgrade)', async () => {
    // No migration: the release before stored no affected entries, and an entity with none is
    // exactly one that is not affected. Its state is made here as it made it: the dependent opened
    // its own incident while its upstream was down (the relation is added after, so this release
    // opens it the same way), then a second dependent goes down under this release's rule.
    const db = await fx.entityWithCheck('Ledger DB');
    const old = await fx.entityWithCheck('Ledger API');
    const fresh = await fx.entityWithCheck('Ledger Web');
    for (const e of [db, old, fresh]) await fx.result(e.checkId, true);
    await fx.result(db.checkId, false);
    await fx.result(old.checkId, false);
    await dependsOn(old.entityId, db.entityId);
    await dependsOn(fresh.entityId, db.entityId);
    const [root] = await unresolved(db.entityId);
    const [own] = await unresolved(old.entityId);
    expect(own).toMatchObject({ entity_id: old.entityId, state: 'open' });

    await fx.result(fresh.checkId, false);
    expect((await unresolved(fresh.entityId)).map((i: Json) => i.id)).toEqual([root.id]);
    expect((await detail(root.id)).affected.map((a: Json) => a.entity_id)).toEqual([fresh.entityId]);

    // The root recovers: the old incident stays as it is; the joined dependent opens its own.
    await fx.result(db.checkId, true);
    expect((await unresolved(old.entityId)).map((i: Json) => i.id)).toEqual([own.id]);
    expect(await unresolved(fresh.entityId)).toMatchObject([{ entity_id: fresh.entityId, state: 'open' }]);
    // And closes as before: with its entity's recovery.
    await fx.result(old.checkId, true);
    expect(await unresolved(old.entityId)).toEqual([]);
    expect((await detail(own.id)).timeline.find((e: Json) => e.type === 'resolution')).toMatchObject({
      reason: 'the entity is up again',
    });
  });

  it('a deleted root cause hands its still-down dependents their own incidents; a deleted dependent is left out', async () => {
    const db = await fx.entityWithCheck('Search DB');
    const search = await fx.entityWithCheck('Search API');
    const gone = await fx.entityWithCheck('Search Admin');
    for (const e of [search, gone]) await dependsOn(e.entityId, db.entityId);
    for (const e of [db, search, gone]) await fx.result(e.checkId, true);
    await fx.result(db.checkId, false);
    for (const e of [search, gone]) await fx.result(e.checkId, false);
    const [root] = await unresolved(db.entityId);
    expect((await detail(root.id)).affected).toHaveLength(2);

    const slugOf = async (id: string) =>
      (await call('GET', '/v1/blueprints/svc/entities', undefined, 200)).find((e: Json) => e.id === id).slug;
    await call('DELETE', `/v1/blueprints/svc/entities/${await slugOf(gone.entityId)}`, undefined, 204);
    await call('DELETE', `/v1/blueprints/svc/entities/${await slugOf(db.entityId)}`, undefined, 204);
    await api().drainChanges();

    expect((await detail(root.id)).state).toBe('resolved');
    expect(await unresolved(search.entityId)).toMatchObject([{ entity_id: search.entityId, state: 'open' }]);
    const after = (await detail(root.id)).affected;
    expect(after.find((a: Json) => a.entity_id === gone.entityId)).toMatchObject({ own_incident_id: null });
  });

  it('a status page showing only the dependent lists its outage under the root cause’s open incident', async () => {
    const db = await fx.entityWithCheck('Catalog DB');
    const shop = await fx.entityWithCheck('Catalog');
    await dependsOn(shop.entityId, db.entityId);
    for (const e of [db, shop]) await fx.result(e.checkId, true);
    await fx.result(db.checkId, false);
    await fx.result(shop.checkId, false);
    const [root] = await unresolved(shop.entityId);
    expect(root.entity_id).toBe(db.entityId);
    await call(
      'POST',
      '/v1/status-pages',
      { slug: 'catalog', title: 'Catalog', entity_ids: [shop.entityId] },
      201,
    );
    const json = (await api().request('GET', '/p/catalog/status.json')).body;
    expect(json.incidents.open).toEqual([
      { entity_name: 'Catalog', state: 'open', opened_at: root.opened_at },
    ]);
  });
});
