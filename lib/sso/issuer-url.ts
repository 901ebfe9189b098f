import { isIP } from 'node:net';
import { EgressError } from '../egress/egress-errors.ts';
import { bareHost, checkUrl, type Resolve } from '../egress/egress-guard.ts';
import { ValidationError } from '../platform/errors.ts';

/** Whether a URL's host is this machine (a loopback literal or `localhost`). */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname).toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * An issuer URL as SSO settings accept it: https (plain http only to a loopback host, and only
 * where private targets are allowed: tests, a provider on the same machine), no query or
 * fragment, and a host the SSRF guard lets Vigil reach. Answers it as given: discovery compares
 * it with the provider's own `issuer`.
 */
export async function checkIssuer(
  issuer: string,
  guard: { allowPrivate: boolean; allow: readonly string[]; resolve?: Resolve | undefined },
): Promise<string> {
  const refuse = (message: string) => ValidationError.field('issuer', message);
  if (!URL.canParse(issuer)) throw refuse('Enter the provider’s issuer URL (https://…).');
  const url = new URL(issuer);
  const loopbackHttp = url.protocol === 'http:' && guard.allowPrivate && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) throw refuse('The issuer must be an https:// URL.');
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw refuse('The issuer URL has no query, fragment or credentials.');
  try {
    await checkUrl(url.toString(), {
      allowPrivate: guard.allowPrivate,
      allow: guard.allow,
      ...(guard.resolve ? { resolve: guard.resolve } : {}),
    });
  } catch (err) {
    if (err instanceof EgressError) throw refuse(`Vigil may not reach this issuer: ${err.message}`);
    throw err;
  }
  return issuer;
}
