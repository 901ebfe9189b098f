import { describe, expect, it } from 'vitest';
import {
  expectCount,
  expectNoConsoleErrors,
  expectText,
  openPage,
  screenshot,
  storedKey,
} from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

const WRITE_BUTTONS =
  /^(New action|Create|Edit|Run|Delete|Revoke|Invite|Register|Enable|Disable|Remove|Cancel invitation|Add)/;

describe('console settings, skills and invitations', { timeout: 60_000 }, () => {
  const rig = useConsole();

  it('creates a key shown once with a copy button, then lists it without the raw key', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    await page.getByLabel(/^Label/).fill('ci pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('figure', { name: 'New API key' });
    await expectText(shown.locator('code'), /^vgl_[A-Za-z0-9]+$/);
    const raw = (await shown.locator('code').textContent()) ?? '';
    await expectCount(page.getByText('it will not be shown again'), 1);
    await expectCount(shown.getByRole('button', { name: 'Copy new api key' }), 1);
    // The list shows the new key once it has been read again.
    const row = page.getByRole('row').filter({ hasText: 'ci pipeline' });
    await expect.poll(() => row.textContent({ timeout: 500 })).toContain(raw.slice(0, 12));

    await page.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(raw);
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'ci pipeline' }).waitFor();
    expect(await page.content()).not.toContain(raw);
    const listed = await rig.api<{ label: string }[]>('GET', '/v1/auth/keys');
    expect(listed.body.map((k) => k.label)).toContain('ci pipeline');
    await screenshot(page, 'settings');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('creates the ping key shown once with its slug URL pattern, then shows only its prefix, and rotates it', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    const section = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Ping key' }) });
    await section.getByText('This account has no ping key yet.').waitFor();
    await section.getByRole('button', { name: 'Create ping key' }).click();
    const shown = section.getByRole('figure', { name: 'New ping key' });
    await expectText(shown.locator('code'), /^[A-Za-z0-9_-]{22}$/);
    const key = (await shown.locator('code').textContent()) ?? '';
    await expectText(
      section.getByRole('figure', { name: 'Slug ping URL pattern' }).locator('code'),
      `${rig.url}/ping/${key}/<slug>`,
    );
    await section.getByText(`Ping key ${key.slice(0, 4)}…`).waitFor();

    await section.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    await section.getByText(`Ping key ${key.slice(0, 4)}…`).waitFor();
    expect(await page.content()).not.toContain(key);

    await page.getByRole('button', { name: 'Rotate ping key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate ping key' }).click();
    const rotated = page.getByRole('figure', { name: 'New ping key' });
    await expectText(rotated.locator('code'), /^[A-Za-z0-9_-]{22}$/);
    expect(await rotated.locator('code').textContent()).not.toBe(key);
    const described = await rig.api<{ exists: boolean; prefix: string }>('GET', '/v1/settings/ping-key');
    expect(described.body.exists).toBe(true);
    expect(described.body.prefix).toBe(((await rotated.locator('code').textContent()) ?? '').slice(0, 4));
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('invites a member whose link takes their name and a password and signs them in', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    await page.getByLabel(/^E-mail/).fill('dana@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = page.getByRole('figure', { name: 'Invitation link' });
    await expectText(link.locator('code'), new RegExp(`^${rig.url}/accept\\?token=.+`));
    const url = (await link.locator('code').textContent()) ?? '';
    await page.getByRole('row').filter({ hasText: 'dana@example.com' }).getByText('invited').waitFor();

    const invitee = await openPage(rig);
    await invitee.page.goto(url);
    await invitee.page.getByRole('heading', { name: 'Join your team on Vigil' }).waitFor();
    await invitee.page.getByLabel(/^Your name/).fill('Dana');
    await invitee.page.getByLabel(/^Password/).fill('dana picks a long password');
    await invitee.page.getByLabel(/^Repeat the password/).fill('dana picks a long password');
    await screenshot(invitee.page, 'accept');
    await invitee.page.getByRole('button', { name: 'Accept invitation' }).click();
    // Signed in by the session cookie the acceptance set: no key kept in the tab.
    await invitee.page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await storedKey(invitee.page)).toBeNull();
    const session = (await invitee.page.context().cookies()).find((c) => c.name === 'vigil_session');
    expect(session?.httpOnly).toBe(true);
    // Who is signed in shows once the console has read /v1/me.
    await invitee.page.getByText('dana@example.com').first().waitFor();

    // The same link a second time is refused in words.
    const again = await openPage(rig);
    await again.page.goto(url);
    await again.page.getByLabel(/^Your name/).fill('Dana again');
    await again.page.getByLabel(/^Password/).fill('dana picks a long password');
    await again.page.getByLabel(/^Repeat the password/).fill('dana picks a long password');
    await again.page.getByRole('button', { name: 'Accept invitation' }).click();
    await expectText(
      again.page.getByRole('alert'),
      /^This invitation is no longer valid: it may have been used/,
    );

    // The admin removes the member after asking.
    await page.reload();
    const member = page.getByRole('row').filter({ hasText: 'dana@example.com' });
    await member.getByText('active', { exact: true }).waitFor();
    await member.getByRole('button', { name: 'Remove dana@example.com' }).click();
    await page.getByRole('button', { name: 'Remove member' }).click();
    await member.waitFor({ state: 'detached' });
    const gone = await fetch(`${rig.url}/v1/me`, { headers: { Cookie: `vigil_session=${session?.value}` } });
    expect(gone.status).toBe(401);

    for (const x of [p, invitee, again]) expectNoConsoleErrors(x);
    for (const x of [p, invitee, again]) await x.close();
  });

  it('registers a skill, shows its tools, disables it, and shows how to connect an MCP client', async () => {
    const p = await openSignedIn(rig, { path: '/skills' });
    const { page } = p;
    // A new tenant starts with the catalog-ops toolset registered and enabled.
    await expectCount(page.getByText('enabled', { exact: true }), 1);
    await page.getByRole('button', { name: 'Register a skill' }).click();
    const manifest = {
      slug: 'fleet-lookups',
      name: 'Fleet lookups',
      description: 'Read-only questions about the fleet',
      version: '1.0.0',
      tools: [
        {
          name: 'count_things',
          description: 'Counts things.',
          inputSchema: { type: 'object', properties: {} },
          annotations: { readOnlyHint: true },
        },
      ],
    };
    await page.getByLabel('Manifest (JSON)').fill(JSON.stringify(manifest, null, 2));
    await page.getByRole('button', { name: 'Register skill' }).click();
    await page.getByRole('cell', { name: 'count_things' }).waitFor();
    await expectCount(page.getByText('enabled', { exact: true }), 2);
    await page.getByRole('button', { name: 'Disable Fleet lookups' }).click();
    await page.getByText('disabled', { exact: true }).waitFor();

    const endpoint = page.getByRole('figure', { name: 'MCP endpoint URL' });
    await expectText(endpoint.locator('code'), `${rig.url}/v1/mcp`);
    const desktop = page.getByRole('figure', { name: 'Claude Desktop config' });
    await expectText(desktop, /mcp-remote/);
    expect(await desktop.textContent()).toContain(`${rig.url}/v1/mcp`);
    expect(await page.content()).not.toContain(rig.key);
    await screenshot(page, 'skills');

    // A manifest the API refuses is shown in words.
    await page.getByRole('button', { name: 'Register a skill' }).click();
    await page.getByLabel('Manifest (JSON)').fill('{"slug": "x"}');
    await page.getByRole('button', { name: 'Register skill' }).click();
    await expectText(
      page.getByRole('alert'),
      /^The skill was not registered\. .*name: This field is required\./,
    );
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('fits settings on a 390 px screen', async () => {
    const p = await openSignedIn(rig, { path: '/settings', width: 390 });
    await p.page.getByRole('heading', { name: 'Plan limits' }).waitFor();
    await p.page.getByRole('row').nth(1).waitFor();
    const overflow = await p.page.evaluate<number>('document.documentElement.scrollWidth');
    expect(overflow).toBeLessThanOrEqual(390);
    await screenshot(p.page, 'settings-mobile');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('gives a read-only key no write controls on actions, skills and settings', async () => {
    const action = await rig.api<{ id: string }>('POST', '/v1/actions', {
      name: 'read me',
      url: 'http://127.0.0.1:9/never',
    });
    expect(action.status).toBe(201);
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'wall',
      is_read_only: true,
    });
    const p = await openSignedIn(rig, { key: created.body.key });
    const { page } = p;
    for (const [path, ready] of [
      ['/actions', 'read me'],
      [`/actions/${action.body.id}`, 'No executions yet.'],
      ['/skills', 'Connect an MCP client'],
      ['/settings', 'Plan limits'],
    ] as const) {
      await page.goto(path);
      await page.getByText(ready).first().waitFor();
      await expectCount(page.getByRole('button', { name: WRITE_BUTTONS }), 0, path);
      await expectCount(page.locator('form'), 0, path);
    }
    await expectCount(page.getByText('signed in with a read-only key'), 2);
    await expectCount(page.getByRole('alert'), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
