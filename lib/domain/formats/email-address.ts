/**
 * Email addresses Vigil sends to or from: a conservative subset of RFC 5321 (no quoted local
 * parts, no address literals, no comments, ASCII only), so an address can never carry a CR, an LF, a comma,
 * a semicolon, a space or angle brackets: nothing that could end a header or add a recipient.
 */

/** RFC 5321: an address is at most 254 characters. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * Dot-separated atoms of letters, digits and `_ ' + -` (never ending in `'`), `@`, then host
 * labels and a final label of letters: a subset of what zod's email check accepts, so both agree,
 * and the pattern the OpenAPI document states is exact.
 */
const LOCAL = "(?:[A-Za-z0-9_'+-]+\\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** `local@domain.tld`: at least two labels. */
export const EMAIL_ADDRESS_PATTERN = `^${LOCAL}@(?:${LABEL}\\.)+[A-Za-z]{2,63}$`;
const EMAIL_ADDRESS = new RegExp(EMAIL_ADDRESS_PATTERN);

/** Whether `value` is one plain address Vigil accepts (length bound included). */
export function isSafeEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(value);
}

/** A sender: its address and an optional display name (printable ASCII, nothing a header would need quoted). */
export interface EmailSender {
  address: string;
  name?: string;
}

const DISPLAY_NAME = /^[A-Za-z0-9 !#$%&'*+\-/=?^_`{|}~.()]{1,64}$/;
const NAMED = /^(.+?)\s*<([^<>]+)>$/;

/**
 * Parses VIGIL_EMAIL_FROM: `alerts@example.com` or `Vigil <alerts@example.com>`; undefined when
 * it is neither (the config names the variable).
 */
export function parseEmailSender(value: string): EmailSender | undefined {
  const trimmed = value.trim();
  if (isSafeEmailAddress(trimmed)) return { address: trimmed };
  const named = NAMED.exec(trimmed);
  if (!named) return undefined;
  const [, name = '', address = ''] = named;
  const display = name.trim();
  if (!DISPLAY_NAME.test(display) || !isSafeEmailAddress(address)) return undefined;
  return { address, name: display };
}

/** The sender as a From header value: `"Vigil" <alerts@example.com>` (the name has no `"` or `\`). */
export function formatEmailSender(sender: EmailSender): string {
  return sender.name ? `"${sender.name}" <${sender.address}>` : sender.address;
}
