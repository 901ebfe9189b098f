import { describe, expect, it } from 'vitest';
import { audit, expectCount, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { inviteMember, openSignedIn, useConsole } from './use-console.ts';

/**
 * The Audit page against a real local runtime: an admin reads who changed what, newest first,
 * filters by target and pages through older entries; a member is told the log is for admins (and
 * the API refuses them); no axe violation.
 */

describe('console audit log', { timeout: 120_000 }, () => {
  let checkId = '';

  const rig = useConsole({
    seed: async (rig) => {
      await rig.api('POST', '/v1/blueprints', { slug: 'web', name: 'Web service' });
      const entity = await rig.api<{ id: string }>('POST', '/v1/blueprints/web/entities', {
        slug: 'shop',
        name: 'Shop',
      });
      // 55 writes and more: the first page (50) does not hold them all.
      for (let i = 0; i < 55; i += 1)
        await rig.api('POST', '/v1/blueprints', { slug: `bp-${i}`, name: `Blueprint ${i}` });
      const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
        entity_id: entity.body.id,
        check_type: 'push',
        name: 'nightly backup',
      });
      checkId = check.body.id;
      await rig.api('PUT', `/v1/checks/${checkId}`, { interval_seconds: 600 });
    },
  });

  it('lists writes newest first, filters by target and pages to older entries', async () => {
    const p = await openSignedIn(rig);
    await p.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await p.page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const table = p.page.getByRole('table', { name: 'Audit entries' });
    await expectCount(table.getByRole('row'), 51);
    const newest = table.getByRole('row').nth(1).getByRole('cell');
    await expectText(newest.nth(2), 'API');
    await expectText(newest.nth(3), 'check.update');
    await expectText(newest.nth(4), `check ${checkId}`);
    await expectText(newest.nth(5), 'fields: interval_seconds');
    await screenshot(p.page, 'audit');

    await p.page.getByRole('button', { name: 'Older entries' }).click();
    await expectText(table.getByRole('row').nth(1).getByRole('cell').nth(3), 'blueprint.create');
    const older = await table.getByRole('row').count();
    expect(older).toBeGreaterThan(1);
    expect(older).toBeLessThan(51);

    const form = p.page.getByRole('form', { name: 'Filter the audit log' });
    await form.getByLabel(/^Target/).fill(`check:${checkId}`);
    await form.getByRole('button', { name: 'Filter' }).click();
    await expectCount(table.getByRole('row'), 3);
    await expectText(table.getByRole('row').nth(2).getByRole('cell').nth(3), 'check.create');
    await expectText(
      table.getByRole('row').nth(2).getByRole('cell').nth(5),
      'fields: check_type, entity_id, name; name: "nightly backup"',
    );
    expect(p.page.url()).toContain('target=check');
    await expectCount(p.page.getByRole('button', { name: 'Older entries' }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('tells a member the log is for admins', async () => {
    const member = await inviteMember(rig);
    expect((await rig.api('GET', '/v1/audit', undefined, member)).status).toBe(403);
    const p = await openSignedIn(rig, { path: '/audit', key: member });
    await p.page.getByText('The audit log is for admins').waitFor();
    await expectCount(p.page.getByRole('table', { name: 'Audit entries' }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  for (const width of [1280, 390]) {
    it(`has no axe violations at ${width} px`, async () => {
      const p = await openSignedIn(rig, { path: '/audit', width });
      await p.page.getByRole('table', { name: 'Audit entries' }).waitFor();
      await expectCount(p.page.getByText(/^Loading/), 0);
      expect(await audit(p.page)).toEqual([]);
      expectNoConsoleErrors(p);
      await p.close();
    });
  }
});
