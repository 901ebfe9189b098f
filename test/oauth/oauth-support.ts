import { createHash, randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { harnessFetch } from '../mcp/sdk-client.ts';
import { withCookie } from '../people/session-helpers.ts';
import type { ApiHarness, ApiResponse } from '../support/api-harness.ts';

/**
 * The public URL the OAuth tests run the server under (VIGIL_PUBLIC_URL): every URL of it goes to
 * the harness. A *.localhost name: the SDK v2 client refuses a token endpoint over plain http
 * anywhere else (OAuth 2.1 requires TLS; loopback names are exempt).
 */
export const PUBLIC_URL = 'http://vigil.localhost';
export const MCP_URL = new URL('/v1/mcp', PUBLIC_URL);
export const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

/** A request to the harness that never follows a redirect (the local harness's fetch would). */
export async function requestNoFollow(api: ApiHarness, method: string, path: string): Promise<ApiResponse> {
  if (api.runtime === 'lambda') return api.request(method, path);
  const local = api as ApiHarness & { local: { url: string } };
  const res = await fetch(new URL(path, local.local.url), { method, redirect: 'manual' });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body, text };
}

export interface Approval {
  /** The API key (Bearer) the "person" approves with, unless `session` is given. */
  key: string;
  /** A console session (its cookie value and CSRF token): the person signed in, as a browser approves. */
  session?: { id: string; csrf: string };
  approve?: boolean;
  scopes?: string[];
}

/**
 * An OAuthClientProvider whose "browser" is the test: redirectToAuthorization GETs the authorize
 * URL, follows it to the consent request, decides it as the signed-in person and keeps the code
 * (or the error) the redirect carried, with the state.
 */
export class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  readonly stateValue = randomBytes(12).toString('base64url');
  /** What came back on the redirect URI. */
  callback: URLSearchParams | undefined;
  authorizeUrl: URL | undefined;
  /** The decision's status (a refused one throws, which the SDK reports as its own failure). */
  decisionStatus: number | undefined;
  approval: Approval;
  private readonly api: ApiHarness;
  readonly clientMetadataUrl: string | undefined;

  constructor(api: ApiHarness, approval: Approval, clientMetadataUrl?: string) {
    this.api = api;
    this.approval = approval;
    this.clientMetadataUrl = clientMetadataUrl;
  }

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test MCP client',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizeUrl = url;
    const started = await requestNoFollow(this.api, 'GET', `${url.pathname}${url.search}`);
    if (started.status !== 302) throw new Error(`authorize answered ${started.status}: ${started.text}`);
    const consent = new URL(started.headers.location ?? '');
    const requestId = consent.searchParams.get('request') ?? '';
    const body = {
      approve: this.approval.approve ?? true,
      ...(this.approval.scopes ? { scopes: this.approval.scopes } : {}),
    };
    const path = `/v1/oauth/requests/${requestId}/decision`;
    const { session } = this.approval;
    const decided = session
      ? await withCookie(this.api, 'POST', path, session.id, { body, csrf: session.csrf })
      : await this.api.request('POST', path, { key: this.approval.key, body });
    this.decisionStatus = decided.status;
    if (decided.status !== 200) throw new Error(`decision answered ${decided.status}: ${decided.text}`);
    this.callback = new URL(decided.body.redirect_to).searchParams;
  }
}

/** An SDK client over Streamable HTTP with `provider`, authorized through its "browser" on the first 401. */
export async function connectWithOauth(api: ApiHarness, provider: TestProvider) {
  const options = { authProvider: provider, fetch: harnessFetch(api) };
  const first = new StreamableHTTPClientTransport(MCP_URL, options);
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  try {
    await client.connect(first);
  } catch {
    // The SDK answers the first 401 by authorizing: our provider did the browser's part.
    const code = provider.callback?.get('code');
    if (!code) throw new Error(`no code came back: ${provider.callback}`);
    await first.finishAuth(code);
    const again = new Client({ name: 'oauth-test', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(MCP_URL, options));
    return again;
  }
  return client;
}

/** A PKCE pair (RFC 7636 S256). */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A form-encoded POST to the harness. */
export function postForm(api: ApiHarness, path: string, fields: Record<string, string>) {
  return api.request('POST', path, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}
