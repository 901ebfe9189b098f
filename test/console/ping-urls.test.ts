import { describe, expect, it } from 'vitest';
import { expectCount, expectNoConsoleErrors, expectText, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * A push check made through the form (its failure threshold left blank: 1, as the hint says) and
 * its ping URL: created in the console, shown once with curl and crontab lines that carry no API
 * key, pinged without a key, listed by prefix with its last use, revoked; a read-only key sees the
 * list and no control that writes.
 */
describe('console ping URLs', { timeout: 60_000 }, () => {
  let entityId: string;

  const rig = useConsole({
    seed: async (rig) => {
      entityId = await seedEntity(
        rig,
        { slug: 'jobs', name: 'Jobs' },
        { slug: 'backup', name: 'Nightly backup' },
      );
    },
  });

  it('creates a push check with threshold 1 and a ping URL that reports without an API key', async () => {
    const p = await openSignedIn(rig, { path: `/checks/new?entity_id=${entityId}` });
    await p.page.getByLabel(/^Check type/).selectOption('push');
    await p.page.getByLabel('Interval (seconds)').fill('86400');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await p.page.getByRole('heading', { level: 1, name: /: Push check for backup/ }).waitFor();
    const checkId = p.page.url().split('/checks/')[1] ?? '';
    const check = await rig.api<{ failure_threshold: number }>('GET', `/v1/checks/${checkId}`);
    expect(check.body.failure_threshold).toBe(1);

    await p.page.getByText('No ping URLs yet.').waitFor();
    await p.page.getByRole('button', { name: 'Create ping URL' }).click();
    const code = (name: string) => p.page.getByRole('figure', { name }).locator('code');
    await code('Ping URL').waitFor();
    const pingUrl = (await code('Ping URL').textContent()) ?? '';
    expect(pingUrl).toMatch(
      new RegExp(`^${rig.url}/ping/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
    );
    await expectText(code('Failure URL'), `${pingUrl}/fail`);
    await expectText(code('Ping curl'), `curl -fsS -m 10 --retry 5 -o /dev/null ${pingUrl}`);
    await expectText(
      code('Ping crontab line'),
      `0 0 * * * /path/to/your-job.sh && curl -fsS -m 10 --retry 5 -o /dev/null ${pingUrl}`,
    );
    for (const name of ['Ping URL', 'Failure URL', 'Ping curl', 'Failure curl', 'Ping crontab line'])
      expect(await code(name).textContent(), name).not.toMatch(/Authorization|VIGIL_KEY|vgl_/);
    expect(await p.page.content()).not.toContain(rig.key);
    await screenshot(p.page, 'check-ping-url');

    // A cron job's curl: a plain GET, no key.
    expect((await fetch(pingUrl)).status).toBe(200);
    await p.page.getByRole('button', { name: 'I have copied it' }).click();
    await p.page.reload();
    const table = p.page.getByRole('region', { name: 'Ping URLs' });
    await table.getByText(`${pingUrl.split('/ping/')[1]?.slice(0, 8)}…`, { exact: true }).waitFor();
    await expectCount(table.getByText('never'), 0);
    await p.page.getByRole('table', { name: 'Recent results' }).getByText('success').waitFor();
    expect(await p.page.content()).not.toContain(pingUrl);

    await table.getByRole('button', { name: /^Revoke [0-9a-f]{8}/ }).click();
    await p.page.getByRole('button', { name: 'Revoke ping URL' }).click();
    await p.page.getByText('No ping URLs yet.').waitFor();
    expect((await fetch(pingUrl, { method: 'POST' })).status).toBe(404);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a read-only key the ping URLs and no control that writes', async () => {
    const check = await rig.api<{ id: string }>('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 3600,
    });
    expect((await rig.api('POST', `/v1/checks/${check.body.id}/push-tokens`)).status).toBe(201);
    const readOnly = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });

    const p = await openSignedIn(rig, { path: `/checks/${check.body.id}`, key: readOnly.body.key });
    const table = p.page.getByRole('region', { name: 'Ping URLs' });
    await table.locator('code', { hasText: /^[0-9a-f]{8}…$/ }).waitFor();
    await expectCount(p.page.getByRole('button', { name: 'Create ping URL' }), 0);
    await expectCount(p.page.getByRole('button', { name: /^Revoke/ }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
