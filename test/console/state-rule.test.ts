import { describe, expect, it } from 'vitest';
import { audit, expectCount, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The entity page's state rule (issue 35): it shows the rule in force and where it comes from, and
 * a writer changes it there; the change re-aggregates the entity (one check down, one up: degraded
 * under all_down, down under worst). A read-only key sees the rule and no control.
 */
describe('console entity state rule', { timeout: 60_000 }, () => {
  const rig = useConsole({
    seed: async (rig) => {
      const entityId = await seedEntity(
        rig,
        { slug: 'db', name: 'Databases' },
        { slug: 'pg', name: 'Postgres' },
      );
      for (const success of [true, false]) {
        const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
          entity_id: entityId,
          check_type: 'push',
          interval_seconds: 86_400,
          failure_threshold: 1,
        });
        expect(check.status).toBe(201);
        const pushed = await rig.api('POST', `/v1/checks/${check.body.id}/results`, {
          success,
          latency_ms: 1,
        });
        expect(pushed.status).toBe(201);
      }
    },
  });

  it('shows the rule in force and changes it: the entity is re-aggregated', async () => {
    const p = await openSignedIn(rig, { path: '/entities/db/pg' });
    const section = p.page
      .locator('section.card')
      .filter({ has: p.page.getByRole('heading', { name: 'State rule' }) });
    await expectText(section.locator('p').first(), /^worst \(from its blueprint\): the worst check wins/);
    expect((await rig.api<{ state: string }>('GET', '/v1/blueprints/db/entities/pg')).body.state).toBe(
      'down',
    );

    await section.getByRole('combobox').selectOption('all_down');
    await p.page.getByRole('button', { name: 'Save state rule' }).click();
    await expectText(
      section.locator('p').first(),
      /^all_down \(its own\): down only when every check is down/,
    );
    expect((await rig.api<{ state: string }>('GET', '/v1/blueprints/db/entities/pg')).body.state).toBe(
      'degraded',
    );
    expect(await audit(p.page)).toEqual([]);
    await screenshot(p.page, 'entity-state-rule');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('gives a read-only key the rule and no control', async () => {
    const ro = await rig.api<{ key: string }>('POST', '/v1/auth/keys', { label: 'ro', is_read_only: true });
    expect(ro.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/entities/db/pg', key: ro.body.key });
    const section = p.page
      .locator('section.card')
      .filter({ has: p.page.getByRole('heading', { name: 'State rule' }) });
    await expectText(section.locator('p').first(), /^(worst|all_down) \(/);
    await expectCount(p.page.getByRole('button', { name: 'Save state rule' }), 0, 'the entity page');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
