import { createHash, randomInt } from 'node:crypto';

/**
 * Recovery codes: ten single-use codes shown once when TOTP is confirmed (or regenerated), for
 * signing in without the authenticator app. Only their SHA-256 hashes are stored; a code is
 * compared in its canonical form (lower case, no dashes or spaces), so `ABCD-EFGH-JK` works too.
 */

const RECOVERY_CODE_COUNT = 10;

/** No 0/o, 1/l/i: codes are read off paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

function newCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i += 1) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

const canonical = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** SHA-256 hex of the code's canonical form: the only form stored. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(canonical(code), 'utf8').digest('hex');
}

/** Ten new codes (shown once) and their hashes (stored). */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** Whether `code` could be a recovery code at all (before hashing what a caller sent). */
export const looksLikeRecoveryCode = (code: string): boolean =>
  canonical(code).length === GROUPS * GROUP_LENGTH;
