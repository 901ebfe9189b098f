import * as z from 'zod';

/** Loopback hosts an http redirect URI may name (RFC 8252 7.3: native apps on this machine). */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Whether a redirect URI may be registered: https anywhere, or http to a loopback host only (OAuth
 * 2.1 2.3.1), absolute, without a fragment, without user info, at most 2000 characters.
 */
function isAcceptableRedirectUri(value: string): boolean {
  if (value.length > 2000 || !URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.hash !== '' || value.includes('#') || url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

const redirectUriSchema = z
  .string()
  .max(2000)
  .regex(
    /^(?:https:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}))?(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?(?:\?[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$/,
  )
  .refine(isAcceptableRedirectUri, 'a redirect URI is https, or http on a loopback host, without a fragment')
  .meta({ description: 'https, or http on a loopback host (127.0.0.1, [::1], localhost); no fragment' });

/** A client's redirect URIs: 1 to 10 of them. */
export const redirectUrisSchema = z.array(redirectUriSchema).min(1).max(10);

/** The host a redirect URI sends the person to, as the consent page shows it. */
export const redirectHost = (uri: string) => (URL.canParse(uri) ? new URL(uri).host : uri);
