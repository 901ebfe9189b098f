import { describe, expect, it } from 'vitest';
import { audit, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { inviteMember, openSignedIn, useConsole } from './use-console.ts';

/**
 * The On-call pages (issue 55 item 1): a seeded two-layer Berlin schedule shows, for two weeks,
 * each layer's shifts, the overrides and the final schedule, as text a screen reader reads; "Take
 * this shift" puts the signed-in admin on call over a member's shift and the final schedule says
 * so; a member putting someone else on call sees the API's refusal, and nothing is added; the
 * schedule form creates a layer bounded by wall-clock times of the schedule's zone, and its
 * editor shows them back and clears one.
 */

const HOUR = 3_600_000;

describe('console on-call schedules', { timeout: 90_000 }, () => {
  let scheduleId = '';
  let memberKey = '';
  let adminName = '';
  /** The seeded override: the member, tomorrow from the next full hour for six hours. */
  const overrideStart = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 24 * HOUR).toISOString();
  const overrideEnd = new Date(Date.parse(overrideStart) + 6 * HOUR).toISOString();

  const rig = useConsole({
    seed: async (rig) => {
      const me = await rig.api<{ user: { id: string; name: string | null; email: string } }>('GET', '/v1/me');
      adminName = me.body.user.name ?? me.body.user.email;
      memberKey = await inviteMember(rig);
      const member = await rig.api<{ user: { id: string } }>('GET', '/v1/me', undefined, memberKey);
      const made = await rig.api<{ id: string }>('POST', '/v1/schedules', {
        name: 'Payments rota',
        time_zone: 'Europe/Berlin',
        layers: [
          {
            name: 'Everyone',
            members: [me.body.user.id, member.body.user.id],
            rotation: { type: 'weekly', handoff: '09:00', start: '2026-01-05' },
          },
          {
            name: 'Office hours',
            members: [me.body.user.id],
            rotation: { type: 'daily', handoff: '09:00', start: '2026-01-05' },
            restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
          },
        ],
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      scheduleId = made.body.id;
      const override = await rig.api('POST', `/v1/schedules/${scheduleId}/overrides`, {
        user_id: member.body.user.id,
        starts_at: overrideStart,
        ends_at: overrideEnd,
      });
      expect(override.status, JSON.stringify(override.body)).toBe(201);
    },
  });

  it('shows two weeks of the layers, the override and the final schedule', async () => {
    const p = await openSignedIn(rig, { path: '/on-call' });
    await p.page.getByRole('link', { name: 'Payments rota' }).click();
    await expectText(p.page.locator('h1'), 'Payments rota');
    const track = (title: string) => p.page.getByRole('list', { name: title });
    // Both layers have shifts in any fortnight: the weekly pair alternates, office hours are weekdays.
    await track('Layer 1: Everyone').locator('li').first().waitFor();
    expect(await track('Layer 1: Everyone').locator('li', { hasText: 'Member' }).count()).toBeGreaterThan(0);
    expect(
      await track('Layer 2: Office hours').locator('li', { hasText: adminName }).count(),
    ).toBeGreaterThan(0);
    await expectText(track('Overrides').locator('li'), /^Override: Member, \w{3} \d+ \w{3}, \d\d:\d\d to /);
    // The final schedule carries the override as the member's shift, said as one.
    const finalOverride = track('Final schedule').locator('li', { hasText: '(override)' });
    await expectText(finalOverride, /^Member \(override\), \w{3} \d+ \w{3}, \d\d:\d\d to /);
    // The same, shift by shift, in the table under the timeline.
    const rows = p.page.locator('table', { hasText: 'From where' }).locator('tbody tr');
    expect(await rows.filter({ hasText: 'Override' }).count()).toBe(1);
    expect(await audit(p.page)).toEqual([]);
    await screenshot(p.page, 'on-call-schedule');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('takes a member’s shift: the final schedule shows the admin on call over it, from an override', async () => {
    const p = await openSignedIn(rig, { path: `/on-call/${scheduleId}` });
    const rows = p.page.locator('table', { hasText: 'From where' }).locator('tbody tr');
    const theirs = rows.filter({ hasText: 'Member' }).filter({ hasText: 'Layer Everyone' }).first();
    await theirs.waitFor();
    const [, from, to] = await theirs.locator('td').allTextContents();
    await theirs.getByRole('button', { name: /^Take this shift/ }).click();
    await expectText(
      p.page.getByRole('status').filter({ hasText: 'on call' }),
      'You are on call for that shift now.',
    );
    const taken = rows.filter({ hasText: `${from}` }).filter({ hasText: `${to}` });
    await expectText(taken.locator('td').first(), `${adminName} (you)`);
    await expectText(taken.locator('td').nth(3), 'Override');
    const schedule = await rig.api<{ overrides: { user: { name: string | null; email: string | null } }[] }>(
      'GET',
      `/v1/schedules/${scheduleId}`,
    );
    expect(schedule.body.overrides).toHaveLength(2);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a member the API’s refusal to put someone else on call, and adds nothing', async () => {
    const p = await openSignedIn(rig, { path: `/on-call/${scheduleId}`, key: memberKey });
    const form = p.page.getByRole('form', { name: 'Put someone on call' });
    await form.getByLabel('Who').selectOption({ label: adminName });
    await form.getByLabel('From').fill('2030-01-07T09:00');
    await form.getByLabel('To').fill('2030-01-07T18:00');
    await form.getByRole('button', { name: 'Add override' }).click();
    await expectText(
      form.getByRole('alert'),
      'The override was not added. Only an admin can put someone else on call: override yourself, or ask an admin.',
    );
    const schedule = await rig.api<{ overrides: unknown[] }>('GET', `/v1/schedules/${scheduleId}`);
    expect(schedule.body.overrides).toHaveLength(2);
    // The member's own override goes through.
    await form.getByLabel('Who').selectOption({ label: 'Member (you)' });
    await form.getByRole('button', { name: 'Add override' }).click();
    await expect
      .poll(
        async () =>
          (await rig.api<{ overrides: unknown[] }>('GET', `/v1/schedules/${scheduleId}`)).body.overrides
            .length,
        {
          timeout: 10_000,
        },
      )
      .toBe(3);
    expect(await audit(p.page)).toEqual([]);
    await p.close();
  });

  it('creates a schedule in the form with a layer that starts and ends at wall-clock times of its zone, and clears the end in the editor', async () => {
    const p = await openSignedIn(rig, { path: '/on-call' });
    const form = p.page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel(/^Name/).fill('Night rota');
    await form.getByLabel('Time zone').selectOption('America/New_York');
    await form.getByLabel(/^Layer name/).fill('Nights');
    await form.getByLabel('Rotation').selectOption('daily');
    await form.getByLabel('Handoff time').fill('21:00');
    await form.getByLabel('First handoff (date)').fill('2030-01-07');
    await form.getByLabel('Layer starts (optional)').fill('2030-01-07T21:00');
    await form.getByLabel('Layer ends (optional)').fill('2030-07-01T09:00');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await expectText(p.page.locator('h1'), 'Night rota');

    type Layer = { name: string; starts_at?: string; ends_at?: string };
    const layerOf = async () => {
      const list = await rig.api<{ schedules: { name: string; layers: Layer[] }[] }>('GET', '/v1/schedules');
      return list.body.schedules.find((s) => s.name === 'Night rota')?.layers[0];
    };
    // New York's winter (UTC−5) and summer (UTC−4) offsets, each at its own date.
    const made = await layerOf();
    expect(made?.name).toBe('Nights');
    expect(Date.parse(made?.starts_at ?? '')).toBe(Date.parse('2030-01-08T02:00:00Z'));
    expect(Date.parse(made?.ends_at ?? '')).toBe(Date.parse('2030-07-01T13:00:00Z'));

    await p.page.getByRole('button', { name: 'Edit schedule' }).click();
    const editor = p.page.getByRole('form', { name: 'Edit Night rota' });
    // The editor shows the stored instants as the zone's wall-clock times.
    expect(await editor.getByLabel('Layer starts (optional)').inputValue()).toBe('2030-01-07T21:00');
    await editor.getByLabel('Layer ends (optional)').fill('');
    await editor.getByRole('button', { name: 'Save schedule' }).click();
    // Saved: the editor closes.
    await editor.waitFor({ state: 'detached' });
    expect((await layerOf())?.ends_at).toBeUndefined();
    expect(Date.parse((await layerOf())?.starts_at ?? '')).toBe(Date.parse('2030-01-08T02:00:00Z'));
    expect(await audit(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
