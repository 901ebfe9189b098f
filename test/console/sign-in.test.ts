import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import {
  expectNoConsoleErrors,
  expectText,
  openPage,
  screenshot,
  signIn,
  storedKey,
  submitKey,
} from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

describe('console sign-in', { timeout: 60_000 }, () => {
  const rig = useConsole();

  it('signs in with the printed key, keeps it for the tab and signs out', async () => {
    const p = await openPage(rig);
    await p.page.goto('/');
    await p.page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await screenshot(p.page, 'sign-in');
    await signIn(p.page, rig.key);
    expect(await storedKey(p.page)).toBe(rig.key);
    await p.page.reload();
    await p.page.getByRole('navigation', { name: 'Main' }).waitFor();
    await p.page.getByRole('button', { name: 'Sign out' }).click();
    await p.page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    expect(await storedKey(p.page)).toBeNull();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('turns a wrong key away in words and stays signed out', async () => {
    const p = await openPage(rig);
    await p.page.goto('/status');
    await p.page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await submitKey(p.page, 'vgl_not_a_key');
    await expectText(
      p.page.getByRole('alert'),
      'That key was not recognised. Check that you pasted the whole key: it starts with vgl_ and is 42 ' +
        'characters long. The text you pasted has 13 characters. A revoked key is not recognised either.',
    );
    // A key that never worked did not stop working: no "not accepted any more" notice.
    expect(await p.page.locator('main').textContent()).not.toMatch(/any more|UNAUTHORIZED/);
    expect(await storedKey(p.page)).toBeNull();

    // A whole key of the right shape that this Vigil does not know: only the first sentences.
    const unknown = generateApiKey();
    await submitKey(p.page, unknown);
    await expectText(
      p.page.getByRole('alert'),
      'That key was not recognised. Check that you pasted the whole key: it starts with vgl_ and is 42 ' +
        'characters long. A revoked key is not recognised either.',
    );
    expect(await p.page.locator('main').textContent()).not.toMatch(/any more/);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('marks a read-only key in the header', async () => {
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const p = await openSignedIn(rig, { key: created.body.key });
    await p.page.getByText('read-only key').waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });
});
