import { REDACTED } from './redacted.ts';
import { isSecretParam } from './url-redaction.ts';

/**
 * What Vigil stores of a target's or a receiver's answer never shows the secrets Vigil sent it: a
 * same-origin endpoint that echoes the request (its headers in a JSON body, a header value in an
 * assertion message, the callback token in a snippet) would otherwise hand them to everyone who
 * reads the result or execution, read-only keys and MCP clients included. One redactor per
 * request, made from the secrets it carried, is applied to every text the probe or the action
 * produces before it is stored (docs/api.md "Secrets in results").
 *
 * Each secret is hidden as written and in the encodings an echo uses: JSON-escaped (also with
 * `\uXXXX` for non-ASCII), URL-encoded (`%20` or `+`, upper- or lower-case escapes), URL-decoded
 * (a value written raw into a query or form body, read back with `+` as a space), HTML-escaped,
 * hex (both cases) and base64 (standard and URL-safe, at any alignment inside a longer encoded
 * text); so are its long parts (the token of `Bearer <token>`, a cookie's value) and the
 * credentials inside a `Basic` value.
 */

/** Hides secrets in one text; the identity when there is nothing to hide. */
export type Redact = (text: string) => string;

/** A whole value shorter than this is not looked for (`true`, `1`: no secret, and everywhere). */
const MIN_VALUE_CHARS = 6;
/** A part of a value (split at spaces, `:`, `,`, `;` and `=`) is looked for from this length on. */
const MIN_PART_CHARS = 8;
/** A cut text's end (or the text before a `…`) is redacted when it starts a secret this long. */
const MIN_TAIL_CHARS = 4;
/** Encoded forms shorter than this (a base64 core of a short value) would hide innocent text. */
const MIN_ENCODED_CHARS = 8;
/** Any run of this many characters of a secret is hidden, wherever it stands (a value split in two). */
const PIECE_CHARS = 12;
/** Where a shortened text was cut (lib/probes/assertion-text.ts cuts long values with it). */
export const CUT_MARK = '…';

/** The secrets themselves: each value, its long parts (at separators, at a query's), and the credentials of a Basic value. */
function secretsOf(values: readonly string[]): Set<string> {
  const secrets = new Set<string>();
  const add = (text: string, min: number) => {
    if (text.length >= min) secrets.add(text);
  };
  for (const raw of values) {
    const value = raw.trim();
    add(value, MIN_VALUE_CHARS);
    // The credentials of `<scheme> <credentials>` (Bearer, Token, Digest...), whatever they hold.
    add(value.replace(/^\S+\s+/, ''), MIN_VALUE_CHARS);
    for (const part of value.split(/[\s:,;=]+/)) add(part, MIN_PART_CHARS);
    // A value written into a URL's query unencoded is split there into parameters at `&`, `?`, `#`.
    for (const part of value.split(/[&?#]+/)) add(part, MIN_PART_CHARS);
    // A value written raw into a URL's query or a form body, as a reader decodes it there: `+` as a
    // space, `%XX` as its byte (a trace's network log lists `tok+en` of `?t=tok+en` as `tok en`).
    add(formDecoded(value), MIN_VALUE_CHARS);
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value)?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      add(decoded, MIN_VALUE_CHARS);
      for (const part of decoded.split(':')) add(part, MIN_VALUE_CHARS);
    }
  }
  return secrets;
}

/** `text` as a form or query reader decodes it (URLSearchParams: `+` as a space, a stray `%` kept). */
function formDecoded(text: string): string {
  return new URLSearchParams(`v=${text.replaceAll('&', '%26').replaceAll('#', '%23')}`).get('v') ?? text;
}

/** The URL-encoded forms (encodeURIComponent's, RFC 3986's, HTML forms', encodeURI's); none for text that has none (a lone surrogate). */
function urlEncoded(text: string): string[] {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    return [];
  }
  const strict = encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const form = new URLSearchParams({ v: text }).toString().slice(2);
  // encodeURI's: a value a URL carries as written (a browser's address, `@` and `&` left as they are).
  const inUrl = encodeURI(text);
  const forms = [encoded, strict, encoded.replaceAll('%20', '+'), strict.replaceAll('%20', '+'), form, inUrl];
  return [...forms, ...forms.map((f) => f.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()))];
}

/**
 * JSON string content as encoders write it: JSON.stringify's, with every non-ASCII character as
 * `\uXXXX` (Python's default), with `/` as `\/` (PHP's), with `<`, `>`, `&` as `\u003c`... (Go's).
 */
function jsonEscaped(text: string): string[] {
  const json = JSON.stringify(text).slice(1, -1);
  const unicode = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return [
    json,
    json.replace(/[^\x20-\x7e]/g, unicode),
    json.replaceAll('/', '\\/'),
    json.replace(/[<>&]/g, unicode),
  ];
}

/** HTML text and attribute escaping, with and without quotes, `'` as `&#39;` or `&#x27;`; an attribute's (`&` and `"` only). */
function htmlEscaped(text: string): string[] {
  const base = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const quoted = base.replaceAll('"', '&quot;');
  const attribute = text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return [base, quoted, quoted.replaceAll("'", '&#39;'), quoted.replaceAll("'", '&#x27;'), attribute];
}

/**
 * The base64 characters that depend on the secret alone, for each of the three byte alignments it
 * can have inside a longer encoded text: character i covers bits [6i, 6i + 6) of the stream, so
 * with `r` bytes before the secret the characters from ceil(8r/6) to floor(8(r+n)/6) - 1 are
 * fixed by its n bytes, whatever surrounds it.
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (let r = 0; r < 3; r += 1) {
    const padded = Buffer.concat([Buffer.alloc(r), bytes, Buffer.alloc(2)]);
    const encoded = padded.toString('base64');
    const first = Math.ceil((8 * r) / 6);
    const end = Math.floor((8 * (r + bytes.length)) / 6);
    const core = encoded.slice(first, end);
    if (core.length >= MIN_ENCODED_CHARS) cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

function hexForms(text: string): string[] {
  const hex = Buffer.from(text, 'utf8').toString('hex');
  return [hex, hex.toUpperCase()];
}

/** Every text to hide for these secret values, longest first (a browser run's trace is masked with them too). */
export function secretForms(values: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secretsOf(values)) {
    forms.add(secret);
    for (const form of [
      ...jsonEscaped(secret),
      ...urlEncoded(secret),
      ...htmlEscaped(secret),
      ...hexForms(secret),
      ...base64Cores(secret),
    ]) {
      if (form.length >= MIN_ENCODED_CHARS) forms.add(form);
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The forms in one text (searched once per window of the text), and where each starts in it. */
interface FormIndex {
  haystack: string;
  starts: number[];
  forms: string[];
}

function formIndex(forms: readonly string[]): FormIndex {
  const long = forms.filter((form) => form.length >= PIECE_CHARS);
  const starts: number[] = [];
  let at = 0;
  for (const form of long) {
    starts.push(at);
    at += form.length + 1;
  }
  // NUL cannot stand in a header value; a window across two forms would only hide more.
  return { haystack: long.join('\0'), starts, forms: long };
}

/** The form holding haystack position `at` and where it starts (the last start at or before it). */
function formAt(index: FormIndex, at: number): { form: string; start: number } {
  let lo = 0;
  let hi = index.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((index.starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return { form: index.forms[lo] ?? '', start: index.starts[lo] ?? 0 };
}

/**
 * The text with every run of PIECE_CHARS or more characters of a secret, as written or in one of
 * its forms (a secret split across fields, or quoted in part), hidden: each piece found is grown
 * while the text goes on agreeing with that form, and each hidden run becomes one `********`.
 */
function redactPieces(text: string, index: FormIndex): string {
  if (index.forms.length === 0) return text;
  const hidden = new Uint8Array(text.length);
  let found = false;
  for (let at = 0; at + PIECE_CHARS <= text.length; at += 1) {
    const piece = text.slice(at, at + PIECE_CHARS);
    for (let hit = index.haystack.indexOf(piece); hit >= 0; hit = index.haystack.indexOf(piece, hit + 1)) {
      const { form, start: formStart } = formAt(index, hit);
      const from = hit - formStart;
      let start = at;
      let end = at + PIECE_CHARS;
      for (let i = from; start > 0 && i > 0 && text[start - 1] === form[i - 1]; i -= 1) start -= 1;
      for (let j = from + PIECE_CHARS; end < text.length && j < form.length && text[end] === form[j]; j += 1)
        end += 1;
      hidden.fill(1, start, end);
      found = true;
    }
  }
  if (!found) return text;
  let out = '';
  for (let at = 0; at < text.length; at += 1) {
    if (!hidden[at]) out += text[at];
    else if (at === 0 || !hidden[at - 1]) out += REDACTED;
  }
  return out;
}

/**
 * A redactor for the secrets a request carried (header values, a callback token, URL credentials):
 * every form of each replaced by `********`, then every run of PIECE_CHARS of one, then the start
 * of one where the text was cut (its end, or just before a `…`).
 */
export function secretRedactor(values: readonly string[]): Redact {
  const forms = secretForms(values);
  if (forms.length === 0) return (text) => text;
  const index = formIndex(forms);
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.replaceAll(form, REDACTED);
    return redactCutSecrets(redactPieces(out, index), forms);
  };
}

/** Where a text was cut: its end, and each `…`. */
function cutPoints(text: string): number[] {
  const points: number[] = [];
  for (let at = text.indexOf(CUT_MARK); at >= 0; at = text.indexOf(CUT_MARK, at + 1)) points.push(at);
  points.push(text.length);
  return points;
}

/** A text cut short (a 4 KB snippet, a long value shortened) may stop inside a secret: that start is hidden too. */
function redactCutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  // Right to left, so the earlier cut points keep their positions.
  for (const point of cutPoints(text).reverse()) {
    let cut = point;
    for (const secret of secrets) {
      // The earliest position whose text up to the cut starts the secret: the longest such tail.
      const from = Math.max(0, point - secret.length + 1);
      for (let at = from; at <= point - MIN_TAIL_CHARS && at < cut; at += 1) {
        if (out.charCodeAt(at) === secret.charCodeAt(0) && secret.startsWith(out.slice(at, point))) {
          cut = at;
          break;
        }
      }
    }
    if (cut < point) out = `${out.slice(0, cut)}${REDACTED}${out.slice(point)}`;
  }
  return out;
}

/**
 * The secrets written into a URL: its userinfo and the values of secret-looking query and fragment
 * parameters (the parts read-only keys see as `********`, lib/domain/redaction/url-redaction.ts), as
 * written and decoded. None for text that is not a URL (a template's placeholders stay literal).
 */
export function urlSecrets(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const parsed = new URL(url);
  const found = [parsed.username, parsed.password];
  for (const params of [parsed.searchParams, new URLSearchParams(parsed.hash.slice(1))]) {
    for (const [name, value] of params) if (isSecretParam(name)) found.push(value);
  }
  return found.flatMap((text) => {
    if (text === '') return [];
    try {
      return [text, decodeURIComponent(text)];
    } catch {
      return [text];
    }
  });
}
