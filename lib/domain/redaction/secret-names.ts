import { REDACTED } from './redacted.ts';
import { CUT_MARK } from './secret-redaction.ts';
import { isSecretParam } from './url-redaction.ts';

/**
 * Which values an assertion message may show (docs/api.md "Assertions and degraded"): a message
 * is stored in results that read-only keys, alerts and MCP clients read, so a value read from a
 * secret-looking header or json name, or one that looks like a credential, is shown as
 * `********` whatever its name.
 */

/** Parts of a name that make it secret-looking wherever they stand (`x-api-key`, `set-cookie`, `csrftoken`). */
const SECRET_FRAGMENTS = [
  'token',
  'secret',
  'passw',
  'pwd',
  'key',
  'cookie',
  'authoriz',
  'authentic',
  'credential',
  'signature',
  'session',
  'jwt',
  'bearer',
  'private',
  'csrf',
  'xsrf',
] as const;

/**
 * Whether a header or json name is secret-looking: it holds one of SECRET_FRAGMENTS (any case,
 * anywhere: `Set-Cookie`, `X-Api-Key`, `accessToken`, `db_password`), or is secret as a URL
 * parameter name is (words such as `auth`, `sig`, `pass`: lib/domain/redaction/url-redaction.ts).
 */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_FRAGMENTS.some((fragment) => lower.includes(fragment)) || isSecretParam(name);
}

/** Text shaped like a credential: an Authorization scheme and its value, a JWT, a Vigil key. */
const CREDENTIAL =
  /^\s*(?:bearer|basic|digest|token|negotiate|apikey)\s+\S{4,}|eyJ[\w-]{4,}\.eyJ[\w-]{4,}|\b(?:vgl|vlk|vcb)_\w{8,}/i;
/** Nesting shown at most: a message shows a short prefix of a value, and a deep one would cost a deep walk. */
const MAX_DEPTH = 16;

/**
 * The value with what it must not show replaced by `********`: the whole value for a credential-
 * shaped text; inside objects (at any depth), the value of every secret-looking name and every
 * credential-shaped text.
 */
export function maskSecretLooking(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return CREDENTIAL.test(value) ? REDACTED : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return CUT_MARK;
  if (Array.isArray(value)) return value.map((inner) => maskSecretLooking(inner, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      name,
      isSecretName(name) ? REDACTED : maskSecretLooking(inner, depth + 1),
    ]),
  );
}
