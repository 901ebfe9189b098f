import { REDACTED } from './responses.ts';

/**
 * What an execution stores of a receiver's answer never shows the action's own secrets: a receiver
 * that echoes the request (its headers, the callback token in the body) would otherwise hand them
 * to every member who reads the execution, over the API and MCP alike. Each header value is
 * replaced wherever it appears, as written, JSON-escaped and URL-encoded, and so are its long
 * parts (the token of `Bearer <token>`) and the credentials inside a `Basic` value.
 */

/** A whole header value shorter than this is not looked for (`true`, `1`: no secret, and everywhere). */
const MIN_VALUE_CHARS = 6;
/** A part of a value (split at spaces, `:` and `,`) is looked for from this length on. */
const MIN_PART_CHARS = 8;
/** The end of a cut snippet is redacted when it is the start of a secret at least this long. */
const MIN_TAIL_CHARS = 4;

/** The texts to hide for these header values and callback token, longest first. */
export function secretTexts(headerValues: readonly string[], token?: string): string[] {
  const secrets = new Set<string>();
  const add = (text: string, min: number) => {
    if (text.length >= min) secrets.add(text);
  };
  for (const raw of headerValues) {
    const value = raw.trim();
    add(value, MIN_VALUE_CHARS);
    for (const part of value.split(/[\s:,]+/)) add(part, MIN_PART_CHARS);
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value)?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      add(decoded, MIN_VALUE_CHARS);
      for (const part of decoded.split(':')) add(part, MIN_VALUE_CHARS);
    }
  }
  if (token) secrets.add(token);
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    const encoded = urlEncoded(secret);
    if (encoded !== undefined) forms.add(encoded);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The URL-encoded form; undefined for text that has none (a lone surrogate). */
function urlEncoded(text: string): string | undefined {
  try {
    return encodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The text with every secret replaced by `********`, and a trailing start of one (a cut snippet) too. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return redactCutTail(out, secrets);
}

/** A snippet cut at 4 KB may end inside a secret: that start is hidden as well. */
function redactCutTail(text: string, secrets: readonly string[]): string {
  let cut = text.length;
  for (const secret of secrets) {
    // The earliest position whose rest of the text starts the secret: the longest such tail.
    const from = Math.max(0, text.length - secret.length + 1);
    for (let at = from; at <= text.length - MIN_TAIL_CHARS && at < cut; at += 1) {
      if (text.charCodeAt(at) === secret.charCodeAt(0) && secret.startsWith(text.slice(at))) {
        cut = at;
        break;
      }
    }
  }
  return cut === text.length ? text : `${text.slice(0, cut)}${REDACTED}`;
}
