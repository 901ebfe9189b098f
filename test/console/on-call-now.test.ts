import { describe, expect, it } from 'vitest';
import { audit, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { inviteMember, openSignedIn, useConsole } from './use-console.ts';

/**
 * "On call now" on the entity page (issue 55 item 5): an entity a team owns shows the person on
 * call in the team's schedule now, the team and the schedule; an entity no team owns says so.
 */
describe('console entity on call now', { timeout: 60_000 }, () => {
  const people: string[] = [];
  const rig = useConsole({
    seed: async (rig) => {
      const me = await rig.api<{ user: { id: string; name: string | null; email: string } }>('GET', '/v1/me');
      const memberKey = await inviteMember(rig);
      const member = await rig.api<{ user: { id: string } }>('GET', '/v1/me', undefined, memberKey);
      people.push(me.body.user.name ?? me.body.user.email, 'Member');
      const shop = await seedEntity(
        rig,
        { slug: 'service', name: 'Services' },
        { slug: 'shop-api', name: 'Shop API' },
      );
      expect(
        (await rig.api('POST', '/v1/blueprints/service/entities', { slug: 'lonely', name: 'Lonely' })).status,
      ).toBe(201);
      const schedule = await rig.api<{ id: string }>('POST', '/v1/schedules', {
        name: 'Payments rota',
        time_zone: 'Europe/Berlin',
        layers: [
          {
            name: 'Everyone',
            members: [me.body.user.id, member.body.user.id],
            rotation: { type: 'weekly', handoff: '09:00', start: '2026-01-05' },
          },
        ],
      });
      expect(schedule.status).toBe(201);
      const team = await rig.api<{ id: string }>('POST', '/v1/teams', {
        name: 'Payments',
        members: [me.body.user.id],
        schedule_id: schedule.body.id,
      });
      expect(team.status).toBe(201);
      expect((await rig.api('POST', `/v1/teams/${team.body.id}/entities`, { entity_id: shop })).status).toBe(
        201,
      );
    },
  });

  it('shows who is on call for an owned entity, and says when no team owns one', async () => {
    const p = await openSignedIn(rig, { path: '/entities/service/shop-api' });
    const section = p.page
      .locator('section.card')
      .filter({ has: p.page.getByRole('heading', { name: 'On call now' }) });
    // A weekly rota of two: whichever of them has this week, until the next Monday 09:00 in Berlin.
    await expectText(section.locator('li strong'), new RegExp(`^(${people.join('|')})$`));
    await expectText(section.locator('li .muted'), /^Team Payments · schedule Payments rota · Everyone$/);
    await expectText(section.locator('li time'), /^in \d+ (s|min|h|day|days)$/);
    expect(await audit(p.page)).toEqual([]);
    await screenshot(p.page, 'entity-on-call-now');

    await p.page.goto('/entities/service/lonely');
    const lonely = p.page
      .locator('section.card')
      .filter({ has: p.page.getByRole('heading', { name: 'On call now' }) });
    await expectText(lonely.locator('.empty-title'), 'No team owns this entity.');
    await expectText(lonely.locator('.empty-body'), /"Lonely" has no owning team/);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
