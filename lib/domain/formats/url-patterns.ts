/**
 * Regular expressions for URLs in request bodies, written so that every string one matches is a
 * URL the server's own checks accept (WHATWG parsing, scheme, host present): the OpenAPI document
 * shows them as `pattern`, so a client that follows the document is never refused for the URL's
 * form. They are stricter than the parser (no IPv6 literals, no user info, no punycode labels,
 * which a generated client seldom needs); test/domain/url-patterns.test.ts holds the promise.
 */

/** A DNS label without `--` (so never an `xn--` label whose punycode could be invalid). */
const LABEL = '[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*';
/** The last label starts with a letter: a name that ends in digits would be parsed as IPv4. */
const LAST_LABEL = '[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `(?:${OCTET}\\.){3}${OCTET}`;
const HOST = `(?:(?:${LABEL}\\.)*${LAST_LABEL}|${IPV4})`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';
/** Path, query and fragment: printable ASCII without spaces (the parser never refuses those). */
const REST = '(?:[/?#][\\x21-\\x7e]*)?';

/** An absolute http or https URL (an http check's target; a channel's, http:// only where VIGIL_EGRESS_ALLOW allows). */
export const HTTP_URL_PATTERN = `^https?://${HOST}${PORT}${REST}$`;
/**
 * An http or https topic URL: a host and one path segment naming the topic (ntfy's
 * `https://ntfy.sh/alerts`), which never starts with a dot, so it cannot be a `.` or `..` segment
 * the parser would remove. http:// passes the server only where VIGIL_EGRESS_ALLOW allows it.
 */
export const HTTP_TOPIC_URL_PATTERN = `^https?://${HOST}${PORT}/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*/?(?:\\?[\\x21-\\x7e]*)?$`;
/**
 * An action's http or https URL with `{{variable}}` placeholders: a host as above, or an authority
 * holding a placeholder (checked when the action runs); the rest may hold placeholders anywhere.
 */
export const TEMPLATED_URL_PATTERN = `^https?://(?:${HOST}${PORT}|[^\\s/?#]*\\{\\{[^\\s/?#]*)(?:[/?#]\\S*)?$`;
