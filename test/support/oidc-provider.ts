import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Provider (panva's oidc-provider, certified) on 127.0.0.1 for the SSO tests: one
 * confidential client whose redirect URI is Vigil's callback, PKCE required, fixed accounts, and
 * the provider's own development login and consent pages, which `signInAt` drives with plain HTTP.
 */

export interface TestAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Follows the provider's pages from an authorization URL: signs in as `accountId`, consents, and
   * answers where the provider sends the browser back (Vigil's callback URL with code and state).
   */
  signInAt(authorizationUrl: string, accountId: string): Promise<URL>;
  close(): Promise<void>;
}

/** Starts the provider; `accounts` by account id (the `login` typed on its login page). */
export async function startTestProvider(options: {
  redirectUri: string;
  accounts: Record<string, TestAccount>;
}): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vigil-test';
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['vigil-test-cookie-key'] },
    findAccount: async (_ctx, id) => {
      const account = options.accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  // The provider's warnings about development keys and pages are for deployments, not tests.
  provider.on('server_error', () => undefined);
  server.on('request', provider.callback());

  async function signInAt(authorizationUrl: string, accountId: string): Promise<URL> {
    const jar = new Map<string, string>();
    const send = async (url: string, form?: Record<string, string>) => {
      const res = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return res;
    };
    let url = authorizationUrl;
    for (let hop = 0; hop < 12; hop++) {
      const res = await send(url);
      const location = res.headers.get('location');
      if (location !== null) {
        const next = new URL(location, url);
        if (!next.href.startsWith(issuer)) return next;
        url = next.href;
        continue;
      }
      const page = await res.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (res.status !== 200 || prompt === undefined)
        throw new Error(`provider page ${res.status}: ${page.slice(0, 300)}`);
      const submitted = await send(
        url,
        prompt === 'login' ? { prompt, login: accountId, password: 'x' } : { prompt },
      );
      const after = submitted.headers.get('location');
      if (after === null) throw new Error(`provider form answered ${submitted.status}`);
      url = new URL(after, url).href;
    }
    throw new Error('too many provider pages');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    signInAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
