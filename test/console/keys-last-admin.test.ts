import { describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, expectText, screenshot, storedKey } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

const HINT = 'The last read-write key with admin rights: create another read-write key before revoking it.';

/** The console keeps the account's last admin key: it says why it cannot be revoked, and shows a refusal. */
describe('console: the last admin key', { timeout: 60_000 }, () => {
  const rig = useConsole();

  it('disables revoking the only admin key and says why, until another read-write key exists', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    const own = page.getByRole('row').filter({ hasText: 'this session' });

    await own.getByText(HINT).waitFor();
    expect(await own.getByRole('button', { name: /^Revoke/ }).isDisabled()).toBe(true);

    await page.getByLabel(/^Label/).fill('deploys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('row').filter({ hasText: 'deploys' }).waitFor();
    await own.getByText(HINT).waitFor({ state: 'detached' });
    expect(await own.getByRole('button', { name: /^Revoke/ }).isEnabled()).toBe(true);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows the refusal in words when the other admin key went meanwhile, and stays signed in', async () => {
    const other = await rig.api<{ id: string; key: string }>('POST', '/v1/auth/keys', { label: 'other tab' });
    expect(other.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    const own = page.getByRole('row').filter({ hasText: 'this session' });
    await page.getByRole('row').filter({ hasText: 'other tab' }).waitFor();
    // Another tab revokes every other admin key; this page still lists them.
    const listed = await rig.api<{ id: string; is_read_only: boolean }[]>('GET', '/v1/auth/keys');
    const me = await rig.api<{ key: { id: string } }>('GET', '/v1/me');
    for (const key of listed.body.filter((k) => !k.is_read_only && k.id !== me.body.key.id)) {
      expect((await rig.api('DELETE', `/v1/auth/keys/${key.id}`)).status).toBe(204);
    }

    await own.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();

    await expectText(
      page.getByRole('alert'),
      /^The key was not revoked\. .*last read-write key with admin rights; create another read-write key before revoking this one\.$/,
    );
    await own.getByText(HINT).waitFor();
    expect(await storedKey(page)).toBe(rig.key);
    expect((await rig.api('GET', '/v1/me')).status).toBe(200);
    await screenshot(page, 'keys-last-admin');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
