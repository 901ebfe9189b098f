import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCount, expectNoConsoleErrors, openPage, screenshot, submitKey } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

describe('console OAuth consent and connected MCP clients', { timeout: 60_000 }, () => {
  let callbackServer: Server;
  let redirectUri: string;
  const callbacks: URL[] = [];

  beforeAll(async () => {
    // The MCP client's redirect URI: a loopback server that records what the browser brings back.
    callbackServer = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // The browser also asks for a favicon.
      if (url.pathname === '/callback') callbacks.push(url);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('back at the client');
    });
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  });
  const rig = useConsole();
  afterAll(async () => {
    await new Promise((resolve) => callbackServer?.close(resolve));
  });

  const authorizeUrl = async (state: string) => {
    const client = await rig.api<{ client_id: string }>('POST', '/oauth/register', {
      redirect_uris: [redirectUri],
      client_name: 'Claude connector',
    });
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.body.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'read write',
      state,
    });
    return `/oauth/authorize?${query}`;
  };

  it('signs in first, shows the client, its redirect host and scopes, and sends the browser back with a code', async () => {
    const p = await openPage(rig);
    const { page } = p;
    await page.goto(await authorizeUrl('console-state'));
    // Not signed in: the sign-in page, on the consent URL, then the consent page after it.
    await page.waitForURL(/\/consent\?request=oar_/);
    await submitKey(page, rig.key);
    await page.getByRole('heading', { name: 'Connect an MCP client' }).waitFor();
    await page.getByText('Claude connector wants to use Vigil on your behalf').waitFor();
    await expectCount(page.getByText(new URL(redirectUri).host, { exact: true }), 1);
    await expectCount(page.getByRole('list', { name: 'Scopes' }).getByRole('listitem'), 2);
    await screenshot(page, 'oauth-consent');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('back at the client').waitFor();
    const back = callbacks.at(-1);
    expect(back?.searchParams.get('code')).toMatch(/^vac_/);
    expect(back?.searchParams.get('state')).toBe('console-state');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('lists the connected client in Settings and revokes it', async () => {
    const p = await openSignedIn(rig, { path: '/settings' });
    const { page } = p;
    const section = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Connected MCP clients' }) });
    const row = section.getByRole('row').filter({ hasText: 'Claude connector' });
    await row.waitFor();
    await expectCount(row.getByText('read, write'), 1);
    await screenshot(page, 'oauth-connected-clients');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await section.getByText('No connected clients').waitFor();
    const grants = await rig.api<{ grants: unknown[] }>('GET', '/v1/oauth/grants');
    expect(grants.body.grants).toEqual([]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('denies: the browser goes back with access_denied and no client is connected', async () => {
    const p = await openSignedIn(rig, { path: await authorizeUrl('deny-state') });
    const { page } = p;
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('back at the client').waitFor();
    const back = callbacks.at(-1);
    expect(back?.searchParams.get('error')).toBe('access_denied');
    expect(back?.searchParams.get('state')).toBe('deny-state');
    await p.close();
  });
});
