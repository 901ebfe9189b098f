import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoginApi, PASSWORD, startLoginApi } from '../check-types/support/login-api.ts';
import { expectNoConsoleErrors, SHOWN_WITHIN_MS, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The new-check editor's "Run now": the draft (a multistep check here) is probed once before it is
 * saved, each step's outcome shown under the button, and nothing is stored.
 */
describe('console: run a draft check', { timeout: 90_000 }, () => {
  let server: LoginApi;
  let entityId: string;

  beforeAll(async () => {
    server = await startLoginApi();
  });
  const rig = useConsole({
    env: { VIGIL_FIRST_PROBE: 'false', VIGIL_ALLOW_PRIVATE_TARGETS: 'true' },
    seed: async (rig) => {
      entityId = await seedEntity(rig, { slug: 'web', name: 'Web' }, { slug: 'shop', name: 'Shop' });
    },
  });
  afterAll(async () => {
    await server?.close();
  });

  const steps = (password: string) =>
    JSON.stringify([
      {
        name: 'login',
        method: 'POST',
        url: `${server.origin}/login`,
        headers: { 'content-type': 'application/json' },
        body: `{"user": "ada", "password": "${password}"}`,
        extract: { token: { source: 'json_body', path: '$.token' } },
      },
      { name: 'me', url: `${server.origin}/me`, headers: { authorization: 'Bearer {{steps.login.token}}' } },
    ]);

  it("shows each step's outcome of a draft, passing then failing, and saves nothing", async () => {
    const p = await openSignedIn(rig, {
      path: `/checks/new?blueprint=web&entity_id=${entityId}&type=multistep`,
    });
    const { page } = p;
    const result = page.getByRole('status', { name: 'Run result' });
    await page.getByLabel(/^Steps \(JSON\)/).fill(steps(PASSWORD));

    await page.getByRole('button', { name: 'Run now' }).click();

    await result.getByText('up', { exact: true }).waitFor({ timeout: SHOWN_WITHIN_MS });
    const list = result.getByRole('list', { name: 'Steps' });
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^login passed 200/),
      expect.stringMatching(/^me passed 200/),
    ]);
    await screenshot(page, 'check-run-draft');

    await page.getByLabel(/^Steps \(JSON\)/).fill(steps('not-the-password'));
    await page.getByRole('button', { name: 'Run now' }).click();

    await result.getByText('down', { exact: true }).waitFor({ timeout: SHOWN_WITHIN_MS });
    await result.getByText('2 steps, failed at "login"').waitFor({ timeout: SHOWN_WITHIN_MS });
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^login failed 401/),
      expect.stringMatching(/^me skipped/),
    ]);
    expect((await rig.api<unknown[]>('GET', '/v1/checks')).body).toEqual([]);
    expect(server.requests.filter((r) => r.url === '/login')).toHaveLength(2);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
