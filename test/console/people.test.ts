import { describe, expect, it } from 'vitest';
import {
  adminEmail,
  memberWithPassword,
  PASSWORD,
  recordRequests,
  sessionCookie,
  setPassword,
  signInWithPassword,
  submitPassword,
  webStorageEntries,
} from './people-support.ts';
import {
  expectCount,
  expectNoConsoleErrors,
  expectText,
  openPage,
  SHOWN_WITHIN_MS,
  screenshot,
  seedEntity,
} from './support.ts';
import { useConsole } from './use-console.ts';

/**
 * People in the console (local runtime, Chromium): sign-in with e-mail and password, the cookie
 * session (nothing in web storage, restored on reload, writes with the CSRF token, the status
 * stream), sign-out, the page after sign-in, the Sessions section, changing the password, and a
 * viewer's read-only console.
 */

describe('console sign-in for people', { timeout: 90_000 }, () => {
  let email: string;
  const rig = useConsole({
    seed: async (rig) => {
      email = await adminEmail(rig);
      await setPassword(rig, PASSWORD);
    },
  });

  it('signs in with a password, keeps nothing in web storage, survives a reload, writes with the CSRF token and signs out', async () => {
    const p = await openPage(rig);
    const { page } = p;
    const sent = recordRequests(page);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await submitPassword(page, email, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByText(email).first().waitFor();

    const cookie = await sessionCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await webStorageEntries(page)).toBe(0);

    // The status stream follows with the cookie alone.
    await expectText(page.locator('.live-indicator'), 'live');

    // A reload asks GET /v1/me with the cookie and stays signed in.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByText(email).first().waitFor();
    expect(await webStorageEntries(page)).toBe(0);

    // A write: an invitation from the Team section, sent with the session's CSRF token.
    const csrf = await page.evaluate<string>(
      "fetch('/v1/me').then((r) => r.json()).then((me) => me.csrf_token)",
    );
    expect(csrf).toMatch(/\S{16,}/);
    await page.goto('/settings');
    await page.getByLabel(/^E-mail/).fill('casey@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('figure', { name: 'Invitation link' }).waitFor();
    const invite = sent.find((r) => r.method === 'POST' && r.path === '/v1/settings/users/invite');
    expect(invite?.headers['x-csrf-token']).toBe(csrf);

    // Nothing this browser sent carried an Authorization header: the cookie is the credential.
    await expect
      .poll(() => sent.filter((r) => r.path.startsWith('/v1/')).length, { timeout: SHOWN_WITHIN_MS })
      .toBeGreaterThan(3);
    expect(sent.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
    const stream = sent.find((r) => r.path === '/v1/status/stream');
    expect(stream, 'the status stream was opened').toBeDefined();
    expect(await webStorageEntries(page)).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    expect(sent.some((r) => r.method === 'DELETE' && r.path === '/v1/session')).toBe(true);
    // The session is over on the server, not only forgotten here.
    const after = await fetch(`${rig.url}/v1/me`, { headers: { Cookie: `vigil_session=${cookie?.value}` } });
    expect(after.status).toBe(401);
    expect(await webStorageEntries(page)).toBe(0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('turns a wrong password away in words', async () => {
    const p = await openPage(rig);
    await p.page.goto('/');
    await submitPassword(p.page, email, 'not the password at all');
    await expectText(
      p.page.getByRole('alert'),
      'That e-mail and password do not match an account. Check both, or reset your password.',
    );
    expect(await sessionCookie(p.page)).toBeUndefined();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('starts SSO for the team typed, and says an SSO failure in words (never the text of the link)', async () => {
    const p = await openPage(rig);
    const { page } = p;
    const sent = recordRequests(page);
    await page.goto('/entities/shop/checkout');
    await page.getByLabel(/^Team/).fill('no-such-team');
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    // The server answers with its sign-in page and a short code: this team has no SSO.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: SHOWN_WITHIN_MS }).toBe('/sign-in');
    await expectText(page.getByRole('alert'), /^That team has no single sign-on set up/);
    // The team as typed, and the page to come back to (the one the person had opened).
    const start = sent.find((r) => r.path === '/v1/sso/start');
    expect(start?.query.get('tenant')).toBe('no-such-team');
    expect(start?.query.get('next')).toBe('/entities/shop/checkout');

    // An unknown code gets the general sentence, not its own text.
    await page.goto('/sign-in?error=%3Cb%3Eyou%20were%20hacked%3C%2Fb%3E');
    await expectText(page.getByRole('alert'), /^Single sign-on did not complete\./);
    expect(await page.locator('main').textContent()).not.toContain('hacked');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it("lands on the page an alert e-mail's link opened, and only ever on a page of the console", async () => {
    await seedEntity(rig, { slug: 'shop', name: 'Shop' }, { slug: 'checkout', name: 'Checkout' });
    const p = await openPage(rig);
    // Signed out, the entity page's link shows the sign-in page at that address …
    await signInWithPassword(p.page, email, PASSWORD, '/entities/shop/checkout');
    // … and signing in shows the page.
    await p.page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    expect(new URL(p.page.url()).pathname).toBe('/entities/shop/checkout');
    await p.page.getByRole('button', { name: 'Sign out' }).click();

    // `next` naming another origin is ignored: the status page.
    await signInWithPassword(p.page, email, PASSWORD, '/sign-in?next=//evil.example/steal');
    await expect.poll(() => new URL(p.page.url()).pathname, { timeout: SHOWN_WITHIN_MS }).toBe('/status');
    expect(new URL(p.page.url()).host).toBe(new URL(rig.url).host);
    await p.page.getByRole('button', { name: 'Sign out' }).click();

    // A `next` of the console is followed.
    await signInWithPassword(p.page, email, PASSWORD, '/sign-in?next=%2Fchecks');
    await expect.poll(() => new URL(p.page.url()).pathname, { timeout: SHOWN_WITHIN_MS }).toBe('/checks');
    await p.page.getByRole('button', { name: 'Sign out' }).click();
    await p.page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('lists your sessions with this browser marked, and a revoked one is back at sign-in with a notice', async () => {
    const mine = await openPage(rig);
    const other = await openPage(rig);
    // The other browser first: this one's list then shows both.
    await signInWithPassword(other.page, email, PASSWORD, '/status');
    await signInWithPassword(mine.page, email, PASSWORD, '/settings');

    const sessions = mine.page.getByRole('region', { name: 'Sessions' }).getByRole('table');
    await sessions.getByText('this browser').waitFor();
    const rows = sessions.getByRole('row');
    // The header, this browser and the other (the earlier tests' sessions were signed out).
    await expectCount(rows, 3);
    await expectCount(rows.filter({ hasText: 'this browser' }), 1);
    await screenshot(mine.page, 'people-sessions');

    const otherRow = rows.filter({ hasNotText: 'this browser' }).nth(1);
    await otherRow.getByRole('button', { name: /^Revoke / }).click();
    await mine.page.getByRole('button', { name: 'Revoke session' }).click();
    await expectCount(rows, 2);

    // The other browser's next request is refused: it is back at sign-in, told why.
    await other.page.getByRole('link', { name: 'Checks' }).click();
    await other.page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await other.page.getByText(/^Your session ended/).waitFor();
    for (const x of [mine, other]) expectNoConsoleErrors(x);
    for (const x of [mine, other]) await x.close();
  });

  it('changes the password: the other sessions end, the old password stops working', async () => {
    const mine = await openPage(rig);
    const other = await openPage(rig);
    await signInWithPassword(mine.page, email, PASSWORD, '/settings');
    await signInWithPassword(other.page, email, PASSWORD, '/status');
    const { page } = mine;
    const newPassword = 'a different horse, 2026!';

    // The policy's refusal shows at the field.
    await page.getByLabel(/^Current password/).fill(PASSWORD);
    await page.getByLabel(/^New password/).fill('short');
    await page.getByLabel(/^Repeat the password/).fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => page.getByLabel(/^New password/).getAttribute('aria-invalid'), { timeout: SHOWN_WITHIN_MS })
      .toBe('true');

    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Repeat the password/).fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/^Your password is changed/).waitFor();
    await screenshot(page, 'people-security');

    // This browser stays signed in; the other one is signed out.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await other.page.getByRole('link', { name: 'Checks' }).click();
    await other.page.getByText(/^Your session ended/).waitFor();

    await submitPassword(other.page, email, PASSWORD);
    await other.page
      .getByText('That e-mail and password do not match an account.', { exact: false })
      .waitFor();
    await submitPassword(other.page, email, newPassword);
    await other.page.getByRole('navigation', { name: 'Main' }).waitFor();

    // Back to the password the other tests use.
    const back = await rig.api('POST', '/v1/me/password', {
      current_password: newPassword,
      password: PASSWORD,
    });
    expect(back.status, JSON.stringify(back.body)).toBe(204);
    for (const x of [mine, other]) expectNoConsoleErrors(x);
    for (const x of [mine, other]) await x.close();
  });

  it('gives a viewer no write controls', async () => {
    await memberWithPassword(rig, 'vera@example.com', 'viewer');
    const p = await openPage(rig);
    const { page } = p;
    await signInWithPassword(page, 'vera@example.com', PASSWORD);
    await page.getByText('viewer', { exact: true }).waitFor();
    const writes =
      /^(New check|Create|Edit|Delete|Disable|Enable|Invite|Add|Save|Remove|Revoke|Run|Acknowledge|Resolve)/;
    const found: Record<string, string[]> = {};
    for (const path of [
      '/status',
      '/catalog',
      '/entities/shop/checkout',
      '/checks',
      '/incidents',
      '/channels',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectCount(page.getByText(/^Loading/), 0, path);
      const names = (await page.getByRole('button').allTextContents()).map((t) => t.trim());
      const shown = [
        ...names.filter((n) => writes.test(n)),
        ...((await page.getByRole('link', { name: 'New check' }).count()) > 0 ? ['New check link'] : []),
        ...((await page.locator('main form').count()) > 0 ? ['a form'] : []),
      ];
      if (shown.length > 0) found[path] = shown;
    }
    expect(found).toEqual({});
    // Settings: their own password and sessions, no team or key administration.
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    await expectCount(page.getByRole('button', { name: /^(Invite|Create key)$/ }), 0);
    expect(await webStorageEntries(page)).toBe(0);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
