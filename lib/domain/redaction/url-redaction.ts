import { REDACTED } from './redacted.ts';

/**
 * URLs as read-only keys see them (docs/api.md "Redaction"): credentials in the userinfo
 * (`https://user:pass@host`) and the values of secret-looking query and fragment parameters read
 * `********`. A parameter is secret-looking when its name, split into words at non-letters and
 * camelCase, holds one of SECRET_WORDS, or is one of SECRET_NAMES written as one word. Everything
 * else is kept as written (no re-encoding), so templates with `{{placeholders}}` stay readable.
 */

/** Words that make a parameter secret: `token`, `api_key`, `X-Amz-Signature`, `accessToken`, ... */
const SECRET_WORDS = [
  'token',
  'key',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'sig',
  'signature',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'jwt',
  'session',
  'sessionid',
  'jsessionid',
] as const;
/** Names written as one word that are secret too (`apikey`, `accesstoken`, ...). */
const SECRET_NAMES = [
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'accesstoken',
  'authtoken',
  'refreshtoken',
  'idtoken',
  'clientsecret',
  'sessiontoken',
] as const;

const secretWords = new Set<string>(SECRET_WORDS);
const secretNames = new Set<string>(SECRET_NAMES);

/** `scheme://`, the authority (up to `/ ? # \`), and the rest. */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#\\]*)(.*)$/is;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/** Whether a query parameter's name says its value is a secret. */
export function isSecretParam(name: string): boolean {
  const words = decoded(name)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  return words.some((w) => secretWords.has(w)) || secretNames.has(words.join(''));
}

/** `a=1&token=x` with each secret-looking value `********`. */
function redactParams(params: string): string {
  return params
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0 || eq === pair.length - 1) return pair;
      const name = pair.slice(0, eq);
      return isSecretParam(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The URL with its userinfo and secret-looking parameter values as `********`; anything unparsed as given. */
export function redactUrl(url: string): string {
  const match = URL_PARTS.exec(url);
  if (!match) return url;
  const [, scheme = '', authority = '', rest = ''] = match;
  const at = authority.lastIndexOf('@');
  const shownAuthority = at < 0 ? authority : `${REDACTED}@${authority.slice(at + 1)}`;
  const hash = rest.indexOf('#');
  const beforeHash = hash < 0 ? rest : rest.slice(0, hash);
  const fragment = hash < 0 ? undefined : rest.slice(hash + 1);
  const question = beforeHash.indexOf('?');
  const path = question < 0 ? beforeHash : beforeHash.slice(0, question);
  const query = question < 0 ? undefined : beforeHash.slice(question + 1);
  return (
    scheme +
    shownAuthority +
    path +
    (query === undefined ? '' : `?${redactParams(query)}`) +
    (fragment === undefined ? '' : `#${redactParams(fragment)}`)
  );
}

/**
 * The URL a write means: the stored URL when `given` is exactly what a read-only key is shown of
 * it (an echo must never overwrite the real value), `given` otherwise; undefined when `given`
 * still holds a `********` (a hidden part cannot be restored into a changed URL).
 */
export function unredactedUrl(given: string, stored: string | null): string | undefined {
  if (stored !== null && given === redactUrl(stored)) return stored;
  return given.includes(REDACTED) ? undefined : given;
}
