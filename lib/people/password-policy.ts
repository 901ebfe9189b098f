import { dictionary } from '@zxcvbn-ts/language-common';

/** The bounds of a password's length, in characters (docs/auth.md "Signing in with a password"). */
const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_LENGTH = 128;

let common: Set<string> | undefined;

/** zxcvbn's list of common passwords, lower case: only those long enough to pass the length rule matter. */
function commonPasswords(): Set<string> {
  common ??= new Set(
    dictionary['passwords-common']
      .filter((word) => word.length >= PASSWORD_MIN_LENGTH)
      .map((word) => word.toLowerCase()),
  );
  return common;
}

/**
 * Why a new password is refused, in words, or undefined when it is acceptable (NIST SP 800-63B
 * 3.1.1.2): 10 to 128 characters, not a commonly used password (case ignored), not the account's
 * e-mail address or its local part. No composition rules: length and a blocklist do more.
 */
export function checkPasswordPolicy(password: string, context: { email: string }): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    return `the password must have at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `the password must have at most ${PASSWORD_MAX_LENGTH} characters`;
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'this password is too common: it is on a list of passwords in use';
  const email = context.email.toLowerCase();
  const local = email.split('@')[0] ?? '';
  if (lower === email || (local !== '' && lower === local))
    return 'the password must not be your e-mail address or its name part';
  return undefined;
}
