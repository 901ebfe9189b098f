import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { layeredLayout } from '../../web/src/catalog/graph-layout.ts';
import { dependsOnEdges } from '../../web/src/catalog/graph-model.ts';
import { chooseEntity } from './entity-picker.ts';
import { expectCount, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/** The error shown at the field labelled `label` inside `scope`. */
function errorAt(scope: Locator, label: string): Locator {
  return scope.locator('.field', { has: scope.page().getByLabel(label) }).locator('.field-error');
}

async function addField(page: Page, name: string, type: string, required = false) {
  const form = page.getByRole('form', { name: 'Add a field' });
  await form.getByLabel('Field name').fill(name);
  await form.getByLabel('Field type').selectOption(type);
  if (required) await form.getByLabel('Required').check();
  await form.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('cell', { name: name, exact: true }).waitFor();
}

const WRITE_BUTTONS = /create|add|save|delete|edit|remove/i;

describe('console catalog', { timeout: 90_000 }, () => {
  const rig = useConsole();

  /** A blueprint with two related entities made through the API (for the tests that only look). */
  async function seedStore() {
    const bp = await rig.api('POST', '/v1/blueprints', {
      slug: 'store',
      name: 'Store',
      fields: [{ name: 'engine', field_type: 'string', required: true }],
    });
    if (bp.status === 409) return;
    expect(bp.status).toBe(201);
    const made: string[] = [];
    for (const [slug, name] of [
      ['cache', 'Cache'],
      ['queue', 'Queue'],
    ]) {
      const e = await rig.api<{ id: string }>('POST', '/v1/blueprints/store/entities', {
        slug,
        name,
        fields: { engine: slug === 'cache' ? 'redis' : 'sqs' },
      });
      expect(e.status).toBe(201);
      made.push(e.body.id);
    }
    const rel = await rig.api('POST', '/v1/relations', {
      from_entity_id: made[1],
      to_entity_id: made[0],
      relation_type: 'depends_on',
    });
    expect(rel.status).toBe(201);
  }

  it('builds a blueprint, entities from its typed fields and a relation, and shows the blast radius', async () => {
    const p = await openSignedIn(rig);
    const { page } = p;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entities' }).click();

    const newBlueprint = page.getByRole('form', { name: 'New blueprint' });
    await newBlueprint.getByLabel('Slug').fill('service');
    await newBlueprint.getByLabel('Name').fill('Service');
    await newBlueprint.getByLabel('Description').fill('Things we run');
    await newBlueprint.getByRole('button', { name: 'Create blueprint' }).click();
    await page.getByRole('link', { name: 'Add its fields' }).click();
    await page.getByRole('heading', { name: 'Blueprint: Service' }).waitFor();

    // A default that does not parse as its type: the API's error shows at the default's input.
    const addForm = page.getByRole('form', { name: 'Add a field' });
    await addForm.getByLabel('Field name').fill('port');
    await addForm.getByLabel('Field type').selectOption('number');
    await addForm.getByLabel('Default value').fill('eighty');
    await addForm.getByRole('button', { name: 'Add field' }).click();
    await expectText(errorAt(addForm, 'Default value'), /number/);
    await addForm.getByLabel('Default value').fill('');
    await addField(page, 'port', 'number', true);
    await addField(page, 'homepage', 'url');
    await addField(page, 'tier', 'string');
    await addField(page, 'tags', 'array');
    await addField(page, 'public', 'boolean');
    const stored = await rig.api<{ fields: { name: string; field_type: string; required: boolean }[] }>(
      'GET',
      '/v1/blueprints/service',
    );
    expect(stored.body.fields.map((f) => [f.name, f.field_type, f.required])).toEqual([
      ['port', 'number', true],
      ['homepage', 'url', false],
      ['tier', 'string', false],
      ['tags', 'array', false],
      ['public', 'boolean', false],
    ]);
    await screenshot(page, 'blueprint');

    await page.getByRole('link', { name: 'Entities of Service' }).click();
    const entityForm = page.getByRole('form', { name: 'New Service entity' });
    await entityForm.getByLabel('Slug').fill('db');
    await entityForm.getByLabel('Name').fill('Database');
    await entityForm.getByLabel('port').fill('5432');
    await entityForm.getByLabel('homepage').fill('not a url');
    await entityForm.getByLabel('tags').fill('sql\nprimary');
    await entityForm.getByRole('button', { name: 'Create entity' }).click();
    await expectText(errorAt(entityForm, 'homepage'), /http/);
    await expect.poll(() => entityForm.getByLabel('homepage').getAttribute('aria-invalid')).toBe('true');
    await expectCount(errorAt(entityForm, 'port'), 0);

    await entityForm.getByLabel('homepage').fill('https://db.example.test/');
    await entityForm.getByRole('button', { name: 'Create entity' }).click();
    await page.getByRole('link', { name: 'Database', exact: true }).waitFor();
    const db = await rig.api<{ id: string; fields: Record<string, unknown> }>(
      'GET',
      '/v1/blueprints/service/entities/db',
    );
    expect(db.body.fields).toMatchObject({
      port: 5432,
      homepage: 'https://db.example.test/',
      tags: ['sql', 'primary'],
    });
    expect(await page.getByRole('link', { name: 'Database', exact: true }).getAttribute('href')).toBe(
      '/entities/service/db',
    );

    await entityForm.getByLabel('Slug').fill('api');
    await entityForm.getByLabel('Name').fill('API');
    await entityForm.getByLabel('port').fill('8080');
    await entityForm.getByRole('button', { name: 'Create entity' }).click();
    await page.getByRole('link', { name: 'API', exact: true }).waitFor();

    const relationForm = page.getByRole('form', { name: 'New relation' });
    // The pickers search on the server: type the start of a name, choose a match.
    await chooseEntity(relationForm, 'From entity', 'ap', 'API');
    await relationForm.getByLabel('Relation type').selectOption('depends_on');
    await chooseEntity(relationForm, 'To entity', 'data', 'Database');
    await relationForm.getByRole('button', { name: 'Create relation' }).click();
    await page.getByRole('button', { name: 'Delete relation' }).waitFor();
    await screenshot(page, 'catalog');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Graph' }).click();
    await page.getByRole('heading', { name: 'Catalog graph' }).waitFor();
    // React Flow draws the nodes first and each edge once both its nodes are measured.
    await expectCount(page.locator('.graph-node'), 2);
    await expectCount(page.locator('.react-flow__edge'), 1);
    await chooseEntity(page, 'Focus on an entity', 'data', 'Database');
    await expectCount(page.locator('[data-blast="true"]'), 1);
    await expectText(page.locator('[data-blast="true"]'), /API.*affected/);
    await expectText(page.locator('[data-selected-entity="true"]'), /Database/);
    await expectText(page.getByTestId('blast-count'), '1 entity depends on it, directly or transitively.');
    await screenshot(page, 'graph');
    // Clicking a node selects it: nothing depends on the API.
    await page.locator('.graph-node', { hasText: 'API' }).click();
    await expectText(page.getByTestId('blast-count'), 'nothing depends on it.');
    await expectCount(page.locator('[data-blast="true"]'), 0);

    // The blueprint still holds entities: the API refuses to delete it, in words.
    await page.goto('/catalog/blueprints/service');
    await page.getByRole('button', { name: 'Delete blueprint' }).click();
    await page
      .getByRole('dialog', { name: 'Delete blueprint' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expectText(
      page.getByRole('alert'),
      /Blueprint 'service' still holds \d+ entit(y|ies); delete them first\.$/,
    );
    expect(await page.getByRole('alert').textContent()).not.toMatch(/CONFLICT/);

    expectNoConsoleErrors(p);
    await p.close();
  });

  it('fits the catalog into a 390 px wide screen', async () => {
    await seedStore();
    const p = await openSignedIn(rig, { path: '/catalog?blueprint=store', width: 390 });
    await p.page.getByRole('link', { name: 'Cache', exact: true }).waitFor();
    const overflow = await p.page.evaluate<boolean>(
      'document.documentElement.scrollWidth > document.documentElement.clientWidth',
    );
    expect(overflow).toBe(false);
    await screenshot(p.page, 'catalog-mobile');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows how many entities each blueprint has, linked to them', async () => {
    await seedStore();
    const empty = await rig.api('POST', '/v1/blueprints', { slug: 'queue-kind', name: 'Queue kind' });
    expect(empty.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/catalog' });
    const { page } = p;
    const store = page.getByRole('link', { name: '2 entities of Store' });
    await expectText(store, '2');
    await expectText(page.getByRole('link', { name: '0 entities of Queue kind' }), '0');
    await store.click();
    await page.getByRole('link', { name: 'Cache', exact: true }).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a read-only key the catalog, a blueprint and the graph without write controls', async () => {
    await seedStore();
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'catalog viewer',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const p = await openSignedIn(rig, { key: created.body.key });
    const { page } = p;

    await page.goto('/catalog?blueprint=store');
    await page.getByRole('link', { name: 'Cache', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Cache (store/cache)' }).waitFor();
    await expectCount(page.getByRole('button', { name: WRITE_BUTTONS }), 0);
    await expectCount(page.getByRole('form'), 0);

    await page.goto('/catalog/blueprints/store');
    await page.getByRole('cell', { name: 'engine', exact: true }).waitFor();
    await expectCount(page.getByRole('button', { name: WRITE_BUTTONS }), 0);
    await expectCount(page.getByRole('form'), 0);

    await page.goto('/catalog/graph');
    await page.locator('.graph-node').first().waitFor();
    await expectCount(page.getByRole('button', { name: WRITE_BUTTONS }), 0);

    expectNoConsoleErrors(p);
    await p.close();
  });
});

describe('catalog graph model', () => {
  const edges = [
    { id: 'r1', from: 'api', to: 'db' },
    { id: 'r2', from: 'web', to: 'api' },
    { id: 'r3', from: 'worker', to: 'db' },
  ];

  it('lays entities out in layers with dagre: what is depended on above its dependents', () => {
    const at = layeredLayout(['api', 'db', 'web', 'worker'], edges);
    const y = (id: string) => at.get(id)?.y ?? Number.NaN;
    expect(y('db')).toBeLessThan(y('api'));
    expect(y('api')).toBeLessThan(y('web'));
    expect(y('db')).toBeLessThan(y('worker'));
    expect(y('api')).toBe(y('worker'));
    // Nodes of one layer do not overlap.
    expect(Math.abs((at.get('api')?.x ?? 0) - (at.get('worker')?.x ?? 0))).toBeGreaterThanOrEqual(200);
    const cycle = [
      { id: 'c1', from: 'a', to: 'b' },
      { id: 'c2', from: 'b', to: 'a' },
    ];
    expect([...layeredLayout(['a', 'b', 'c'], cycle).keys()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('draws only depends_on relations', () => {
    expect(
      dependsOnEdges([
        { id: 'rel_1', from_entity_id: 'a', to_entity_id: 'b', relation_type: 'depends_on' },
        { id: 'rel_2', from_entity_id: 'a', to_entity_id: 'c', relation_type: 'owned_by' },
      ]),
    ).toEqual([{ id: 'rel_1', from: 'a', to: 'b' }]);
  });
});
