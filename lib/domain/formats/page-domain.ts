/**
 * The custom domain of a status page (DECISIONS.md "Status-page communication (wave 5)"): a
 * lower-case DNS name of at least two labels, nothing else (no scheme, port, path, trailing dot or
 * IP address: the last label starts with a letter, so no dotted IPv4 matches, and IPv6 has colons).
 * The operator's list of them (VIGIL_PAGE_DOMAINS) and a page's `domain` follow the same rule.
 */

/** Labels of 1 to 63 letters, digits and inner hyphens; the last starts with a letter. */
export const PAGE_DOMAIN_PATTERN =
  '^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$';
const PAGE_DOMAIN = new RegExp(PAGE_DOMAIN_PATTERN);

/** The longest DNS name (RFC 1035: 255 octets on the wire, 253 characters written). */
export const MAX_PAGE_DOMAIN_LENGTH = 253;

/** Said of a refused domain, at its field. */
export const PAGE_DOMAIN_RULE =
  'Give a lower-case host name such as status.example.com: no scheme, port, path or IP address.';

/** Why `value` is no page domain, or undefined when it is one. */
export function pageDomainProblem(value: string): string | undefined {
  return value.length > MAX_PAGE_DOMAIN_LENGTH || !PAGE_DOMAIN.test(value) ? PAGE_DOMAIN_RULE : undefined;
}
