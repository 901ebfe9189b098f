import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type ConsoleRig, onRequestHeaders } from './support.ts';

/** Helpers of the people console tests (test/console/people*.test.ts): people with passwords, cookie sessions. */

/** A password every policy accepts (long, not common, not the e-mail). */
export const PASSWORD = 'correct horse battery staple 41';

/** The e-mail of the rig's first admin (the user of the printed key). */
export async function adminEmail(rig: ConsoleRig): Promise<string> {
  const me = await rig.api<{ user: { email: string } | null }>('GET', '/v1/me');
  expect(me.status).toBe(200);
  const email = me.body.user?.email;
  if (!email) throw new Error('the printed key has no user');
  return email;
}

/** Sets the password of the user of `key` (none was set before) through the API. */
export async function setPassword(rig: ConsoleRig, password: string, key = rig.key): Promise<void> {
  const set = await rig.api('POST', '/v1/me/password', { password }, key);
  expect(set.status, JSON.stringify(set.body)).toBe(204);
}

/** Invites `email` with `role` and accepts through the API with a password; answers the member's key. */
export async function memberWithPassword(
  rig: ConsoleRig,
  email: string,
  role: 'admin' | 'member' | 'viewer',
  password = PASSWORD,
): Promise<string> {
  const invited = await rig.api<{ token: string }>('POST', '/v1/settings/users/invite', { email, role });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const accepted = await rig.api<{ key: string }>('POST', '/v1/settings/users/accept', {
    token: invited.body.token,
    name: email.split('@')[0],
    password,
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  return accepted.body.key;
}

/** Fills the sign-in page's e-mail and password form and sends it (the page must show it). */
export async function submitPassword(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs in with e-mail and password from `path` (default the console's root) and waits for the signed-in frame. */
export async function signInWithPassword(
  page: Page,
  email: string,
  password: string,
  path = '/',
): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
  await submitPassword(page, email, password);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** How many entries the page's localStorage and sessionStorage hold together. */
export function webStorageEntries(page: Page): Promise<number> {
  return page.evaluate<number>('localStorage.length + sessionStorage.length');
}

/** The value of the session cookie in the page's browser context (undefined when there is none). */
export async function sessionCookie(
  page: Page,
): Promise<{ value: string; httpOnly: boolean; sameSite: string; path: string } | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === 'vigil_session');
}

export interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
}

/** The requests the page sends from now on (method, path, query, all headers), filled in as they go (poll it). */
export function recordRequests(page: Page): Sent[] {
  const seen: Sent[] = [];
  onRequestHeaders(page, (request, headers) => {
    const url = new URL(request.url());
    seen.push({ method: request.method(), path: url.pathname, query: url.searchParams, headers });
  });
  return seen;
}
