/**
 * Redaction of ping bodies for read-only principals (issue 39). A ping body is a job's output, and
 * jobs print credentials: `curl -v` echoes its request headers, scripts echo their environment.
 * Read-only keys (people who look, not people who run the jobs) see such values as `********`;
 * read/write keys see the body as stored. The rules are a short, documented list (docs/api.md
 * "Ping log"), not a secret scanner: a line is redacted from the separator after one of these
 * names to its end, so `Authorization: Bearer abc` reads `Authorization: ********`.
 *
 * - Secret headers, anywhere in a line (curl's `> ` prefix, a quoted `-H "…"`, a JSON key):
 *   Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key, Api-Key, X-Auth-Token,
 *   X-Access-Token, followed by `:`.
 * - Assignments: a name that contains password, passwd, pwd, secret, token, api_key (apikey,
 *   api-key), access_key, private_key or credentials (any case, e.g. `DB_PASSWORD`,
 *   `github_token`, `SECRET_KEY`, `"password"`), followed by `=` or `:`.
 */

const REDACTED = '********';

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
  'credentials',
];

/** The longest name looked at before a separator (a scan stays linear in the body's length). */
const NAME_MAX = 100;
const NAME_CHAR = /[A-Za-z0-9_.-]/;

/** The name just before `at` (a separator): spaces, an optional closing quote, then name characters. */
function nameBefore(line: string, at: number): string {
  let i = at - 1;
  while (i >= 0 && at - i <= 8 && (line[i] === ' ' || line[i] === '\t')) i -= 1;
  if (line[i] === '"' || line[i] === "'") i -= 1;
  const end = i + 1;
  while (i >= 0 && end - i <= NAME_MAX && NAME_CHAR.test(line[i] ?? '')) i -= 1;
  return line.slice(i + 1, end).toLowerCase();
}

/** Whether the name before a separator makes what follows it a secret. */
function isSecretName(name: string, separator: string): boolean {
  if (name === '') return false;
  if (separator === ':' && SECRET_HEADERS.includes(name)) return true;
  return SECRET_NAMES.some((word) => name.includes(word));
}

/**
 * One line with the value after its first secret-looking name replaced. A scan of the separators
 * (no regular expression: a body is untrusted, and backtracking over a long line could stall a read).
 */
function redactLine(line: string): string {
  for (let at = 0; at < line.length; at += 1) {
    const separator = line[at];
    if (separator !== ':' && separator !== '=') continue;
    if (!isSecretName(nameBefore(line, at), separator)) continue;
    // A separator with nothing after it (`token=`) hides nothing.
    if (line.slice(at + 1).trim() === '') return line;
    return `${line.slice(0, at + 1)}${separator === ':' ? ' ' : ''}${REDACTED}`;
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
