import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh secret: `prefix` + 32 random bytes, base64url. Shown once; only its hash is stored. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** SHA-256, base64url: how codes and tokens are looked up at rest (they carry 256 bits: no slow hash needed). */
export const secretHash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('base64url');

/** PKCE S256 (RFC 7636 4.6): BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  // RFC 7636 4.1: 43 to 128 unreserved characters.
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** The prefixes of what the token endpoint issues. Access tokens' is ACCESS_TOKEN_PREFIX (lib/auth/authenticate.ts). */
export const REFRESH_TOKEN_PREFIX = 'vrt_';
export const CODE_PREFIX = 'vac_';
