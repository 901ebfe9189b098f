import { describe, expect, it } from 'vitest';
import { expectCount, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * A push check on a cron schedule through the form: the cron field shows the next five expected
 * times in the chosen zone (Asia/Tokyo keeps no DST, so every one reads 02:30 whatever today is)
 * or what is wrong with the expression; the check is created without an interval (the API derives
 * it), and its ping URL panel offers a crontab line on the check's own schedule.
 */
describe('console push check schedule', { timeout: 60_000 }, () => {
  let entityId: string;

  const rig = useConsole({
    seed: async (rig) => {
      entityId = await seedEntity(
        rig,
        { slug: 'jobs', name: 'Jobs' },
        { slug: 'dump', name: 'Nightly dump' },
      );
    },
  });

  it('shows the next five expected times of a cron in its zone, and a crontab line on that schedule', async () => {
    const p = await openSignedIn(rig, { path: `/checks/new?entity_id=${entityId}` });
    await p.page.getByLabel(/^Check type/).selectOption('push');
    await p.page.getByLabel(/^Expect runs/).selectOption('cron');
    await expectCount(p.page.getByLabel(/^Interval \(seconds\)/), 0);

    const cron = p.page.getByLabel(/^Cron schedule/);
    await cron.fill('30 2 * *');
    await p.page
      .getByRole('alert')
      .getByText(/5 fields/)
      .waitFor();
    await cron.fill('30 2 * * *');
    await p.page.getByLabel(/^Timezone/).fill('Asia/Tokyo');
    const times = p.page.getByRole('list', { name: 'Next expected runs' }).getByRole('listitem');
    await expectCount(times, 5);
    for (const text of await times.allTextContents()) expect(text).toMatch(/, 02:30$/);
    await p.page.getByText('Next expected runs (Asia/Tokyo):').waitFor();
    await p.page.getByLabel(/^Grace \(seconds\)/).fill('900');
    await screenshot(p.page, 'check-push-schedule');

    await p.page.getByRole('button', { name: 'Create check' }).click();
    await p.page.getByRole('heading', { level: 1, name: /: Push check for dump/ }).waitFor();
    const checkId = p.page.url().split('/checks/')[1] ?? '';
    const check = await rig.api<{ interval_seconds: number; config: Record<string, unknown> }>(
      'GET',
      `/v1/checks/${checkId}`,
    );
    // The failure threshold left blank: 1, as for a push check on an interval.
    expect(check.body).toMatchObject({
      interval_seconds: 86_400,
      failure_threshold: 1,
      config: { schedule: { cron: '30 2 * * *', timezone: 'Asia/Tokyo' }, grace_seconds: 900 },
    });
    await expectText(
      p.page.getByRole('figure', { name: 'Cron entry', exact: true }).locator('code'),
      '30 2 * * * /path/to/job.sh && curl -fsS -m 10 --retry 5 -o /dev/null <ping url>',
    );
    await p.page.getByText('30 2 * * * (Asia/Tokyo)').first().waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });
});
