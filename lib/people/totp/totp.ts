import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) as authenticator apps speak it: SHA-1, 6 digits, 30-second steps, a code of the
 * step before or after accepted too (clock drift). Which step was last accepted is the caller's to
 * keep (`totp_last_step`): a code is accepted once (RFC 6238 section 5.2).
 */

const PERIOD = 30;
const DIGITS = 6;
const ISSUER = 'Vigil';
const CODE = /^\d{6}$/;

function totpOf(secret: string, label = '') {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URL an authenticator app reads (as a QR code) to enrol `secret`. */
export function otpauthUrl(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** Whether the text has the shape of a TOTP code (six digits), as opposed to a recovery code. */
export const isTotpCode = (code: string): boolean => CODE.test(code);

/**
 * The time step `code` is valid for at `nowMs` (this step or one either side), or undefined when
 * it is valid for none.
 */
export function totpStep(secret: string, code: string, nowMs: number): number | undefined {
  if (!isTotpCode(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return undefined;
  return TOTP.counter({ period: PERIOD, timestamp: nowMs }) + delta;
}

/** The code of `secret` at `nowMs` (tests, and the console's own checks). */
export function totpCode(secret: string, nowMs: number): string {
  return totpOf(secret).generate({ timestamp: nowMs });
}
