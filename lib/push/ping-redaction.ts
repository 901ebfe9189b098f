/**
 * Redaction of ping bodies for read-only principals (issue 39). A ping body is a job's output, and
 * jobs print credentials: `curl -v` echoes its request headers, scripts echo their environment.
 * Read-only keys (people who look, not people who run the jobs) see such values as `********`;
 * read/write keys see the body as stored. The rules are a short, documented list (docs/api.md
 * "Ping log"), not a secret scanner: a line is redacted from the separator after one of these
 * names to its end, so `Authorization: Bearer abc` reads `Authorization: ********`.
 *
 * - Secret headers, anywhere in a line (curl's `> ` prefix, a quoted `-H "…"` argument):
 *   Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key, Api-Key, X-Auth-Token,
 *   X-Access-Token, followed by `:`.
 * - Assignments: a name that is, or ends in, password, passwd, pwd, secret, token, api_key
 *   (apikey, api-key), access_key, private_key, client_secret or credentials (any case, e.g.
 *   `DB_PASSWORD`, `github_token`, `"password"`), followed by `=` or `:`.
 */

export const REDACTED = '********';

const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
];

const SECRET_NAMES = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'api_key',
  'apikey',
  'api-key',
  'access_key',
  'private_key',
  'client_secret',
  'credentials',
];

const escapeDash = (s: string) => s.replace(/[-]/g, '\\-');

/** `<header>:` where the header name is not part of a longer name (`X-Authorization-Hint` is not it). */
const HEADER = new RegExp(`(^|[^A-Za-z0-9_-])(${SECRET_HEADERS.map(escapeDash).join('|')})(\\s*:)(.*)$`, 'i');

/** `<name>=` or `<name>:` where the name is one of SECRET_NAMES or ends in one, optionally quoted. */
const ASSIGNMENT = new RegExp(
  `(^|[^A-Za-z0-9_-])([A-Za-z0-9_.-]*(?:${SECRET_NAMES.map(escapeDash).join('|')})["']?)(\\s*[=:])(.*)$`,
  'i',
);

/** One line with the value of its first secret-looking header or assignment replaced. */
function redactLine(line: string): string {
  for (const rule of [HEADER, ASSIGNMENT]) {
    const match = rule.exec(line);
    // A separator with nothing after it (`token=`) hides nothing.
    if (match && (match[4] ?? '').trim() !== '') {
      const kept = line.slice(0, match.index + (match[1] ?? '').length + (match[2] ?? '').length);
      const separator = match[3] ?? '';
      return `${kept}${separator}${separator.endsWith(':') ? ' ' : ''}${REDACTED}`;
    }
  }
  return line;
}

/** The body with every secret-looking line's value replaced by `********` (line ends kept). */
export function redactPingBody(body: string): string {
  return body
    .split(/(\r?\n)/)
    .map((part, i) => (i % 2 === 1 ? part : redactLine(part)))
    .join('');
}
