import { describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/** Settings → Report e-mail: a person turns their weekly report on in their zone, and off again. */
describe('console: the report e-mail setting', { timeout: 60_000 }, () => {
  const rig = useConsole();

  it('saves weekly reports in the chosen time zone, shows it after a reload, and turns them off', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    const frequency = page.getByLabel('Send me a report');
    await frequency.waitFor();
    expect(await frequency.inputValue()).toBe('off');

    await frequency.selectOption('weekly');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Save report setting' }).click();
    await page.getByText('Your report setting is saved.').waitFor();
    expect((await rig.api('GET', '/v1/me/report')).body).toEqual({
      report: 'weekly',
      time_zone: 'Europe/Berlin',
    });

    await page.reload();
    await page.getByLabel('Send me a report').waitFor();
    await expect.poll(() => page.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');
    expect(await page.getByLabel('Send me a report').inputValue()).toBe('weekly');
    await screenshot(page, 'settings-report');

    await page.getByLabel('Send me a report').selectOption('off');
    await page.getByRole('button', { name: 'Save report setting' }).click();
    await page.getByText('Your report setting is saved.').waitFor();
    expect((await rig.api('GET', '/v1/me/report')).body).toEqual({
      report: 'off',
      time_zone: 'Europe/Berlin',
    });
    expectNoConsoleErrors(p);
    await p.close();
  });
});
