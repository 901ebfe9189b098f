import type { RequestListener } from 'node:http';
import fc from 'fast-check';
import type { HttpAssertion } from '../../lib/domain/http-assertions.ts';

/**
 * An oracle for secret leaks, written apart from lib/domain/redaction/secret-redaction.ts so the property
 * tests do not grade the redactor by its own rules: the ways a secret can be read back out of a
 * text, each found by decoding the text rather than by encoding the secret the redactor's way.
 */

/** Runs of this many characters of a secret count as a leak (the redactor's promise: docs/api.md "Secrets in results"). */
export const LEAK_RUN = 12;

/** Every base64 (either alphabet) run of the text decoded at each of its four character alignments. */
function base64Decodings(text: string): string[] {
  const runs = text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? [];
  return runs.flatMap((run) =>
    [0, 1, 2, 3].map((shift) =>
      Buffer.from(run.slice(shift).replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1'),
    ),
  );
}

/** Every hex run decoded at both nibble alignments. */
function hexDecodings(text: string): string[] {
  const runs = text.match(/[0-9a-fA-F]{8,}/g) ?? [];
  return runs.flatMap((run) =>
    [0, 1].map((shift) => Buffer.from(run.slice(shift), 'hex').toString('latin1')),
  );
}

/** Percent-escapes, `+`, JSON and HTML escapes undone, where they parse. */
function unescaped(text: string): string[] {
  // Each run of escapes decoded alone, so a stray `%` elsewhere does not stop the rest.
  const percent = (t: string) =>
    t.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  const out = [percent(text), percent(text.replaceAll('+', ' '))];
  out.push(
    text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  );
  out.push(text.replace(/\\(["\\/])/g, '$1'));
  out.push(
    text
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&#x27;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&'),
  );
  return out;
}

/** The secret's bytes as latin1 text, so it compares with decoded bytes. */
const asBytes = (secret: string) => Buffer.from(secret, 'utf8').toString('latin1');

/**
 * What of the secret the text gives away, or undefined: the secret itself, a run of LEAK_RUN of
 * its characters, or the secret found by decoding the text (URL, JSON, HTML escapes; hex; base64
 * at any alignment).
 */
export function leakOf(text: string, secret: string): string | undefined {
  const runs = new Set<string>();
  if (secret.length <= LEAK_RUN) runs.add(secret);
  for (let at = 0; at + LEAK_RUN <= secret.length; at += 1) runs.add(secret.slice(at, at + LEAK_RUN));
  for (const candidate of [text, ...unescaped(text)]) {
    for (const run of runs) if (candidate.includes(run)) return `"${run}" in ${JSON.stringify(candidate)}`;
  }
  const bytes = asBytes(secret);
  for (const decoded of [...base64Decodings(text), ...hexDecodings(text)]) {
    if (decoded.includes(bytes)) return `the secret decoded from ${JSON.stringify(text)}`;
  }
  return undefined;
}

/** Secret values as people write them: tokens of 12 to 48 visible ASCII characters (no `*`, the mask's). */
export const secretValue = fc
  .string({
    unit: fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/=!$&\'()<>"\\%#@:;,?[]{}|^`',
    ),
    minLength: 12,
    maxLength: 48,
  })
  .filter((s) => s.trim() === s);

/** Filler an echo puts around what it reflects: characters no generated secret has. */
export const filler = fc.string({ unit: fc.constantFrom(' ', '\n', '\t', 'é'), maxLength: 6 });

/** A header value holding a generated secret, and the secrets to look for in what is stored. */
export const headerValue = fc.oneof(
  secretValue.map((s) => ({ value: s, secrets: [s] })),
  secretValue.map((s) => ({ value: `Bearer ${s}`, secrets: [s] })),
  fc
    .tuple(
      secretValue,
      secretValue.filter((p) => !p.includes(':')),
    )
    .map(([user, pass]) => ({
      value: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
      secrets: [pass],
    })),
);

/** How a reflecting endpoint may carry a value; `skip` is the number of bytes before it in the encoded stream. */
export const ENCODINGS = [
  'raw',
  'json',
  'json-ascii',
  'json-php',
  'json-go',
  'url',
  'form',
  'html',
  'html-text',
  'hex',
  'HEX',
  'base64',
  'base64url',
] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** The value as the endpoint writes it, with `lead` (bytes before it, encoded along) for the base64 and hex streams. */
export function encode(value: string, encoding: Encoding, lead = ''): string {
  switch (encoding) {
    case 'raw':
      return value;
    case 'json':
      return JSON.stringify(value).slice(1, -1);
    case 'json-ascii':
      return JSON.stringify(value)
        .slice(1, -1)
        .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    case 'json-php':
      return JSON.stringify(value).slice(1, -1).replaceAll('/', '\\/');
    case 'json-go':
      return JSON.stringify(value)
        .slice(1, -1)
        .replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    case 'url':
      return encodeURIComponent(value);
    case 'form':
      return new URLSearchParams({ v: value }).toString().slice(2);
    case 'html':
      return value
        .replaceAll('&', '&amp;')
        .replaceAll('<', '&lt;')
        .replaceAll('>', '&gt;')
        .replaceAll('"', '&quot;');
    case 'html-text':
      return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    case 'hex':
      return Buffer.from(lead + value).toString('hex');
    case 'HEX':
      return Buffer.from(lead + value)
        .toString('hex')
        .toUpperCase();
    case 'base64':
      return Buffer.from(lead + value).toString('base64');
    case 'base64url':
      return Buffer.from(lead + value).toString('base64url');
  }
}

/** Where a reflecting endpoint puts the value: a json field, deep in an object, split in two fields, a response header, a text body. */
export const PLACES = ['json', 'nested', 'halves', 'header', 'text'] as const;
export type Place = (typeof PLACES)[number];

/** What a reflecting endpoint answered last: its body and x-echo header, and the value it reflected. */
export interface Reflection {
  text: string;
  value: string;
}

/**
 * A reflecting endpoint (httpbin's /headers, /anything and their kin): it gives back the request
 * header `?name=` (or, with `?from=url`, its own `api_key` query value) encoded as `?enc=` (with
 * `?lead=` before it in a hex or base64 stream) at `?place=`. `last` records each answer.
 */
export function reflectingEndpoint(last: Reflection): RequestListener {
  return (req, res) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const raw =
      query.get('from') === 'url'
        ? (query.get('api_key') ?? '')
        : String(req.headers[query.get('name') ?? ''] ?? '');
    const value = encode(raw, (query.get('enc') ?? 'raw') as Encoding, query.get('lead') ?? '');
    const place = (query.get('place') ?? 'json') as Place;
    const half = Math.floor(value.length / 2);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    let body: string;
    if (place === 'json') body = JSON.stringify({ echo: value });
    else if (place === 'nested') body = JSON.stringify({ data: { items: [{ v: value, n: 1 }] } });
    else if (place === 'halves') body = JSON.stringify({ parts: [value.slice(0, half), value.slice(half)] });
    else if (place === 'header') {
      headers['x-echo'] = value;
      body = '{}';
    } else body = `reflected: ${value}`;
    last.text = `${body} ${headers['x-echo'] ?? ''}`;
    last.value = raw;
    res.writeHead(200, headers);
    res.end(body);
  };
}

/** Assertions that fail on each place, each showing what it read where it shows anything. */
export const assertionsFor: Record<Place, HttpAssertion[]> = {
  json: [
    { source: 'json', path: '$.echo', op: 'eq', value: 'x' },
    { source: 'json', path: '$', op: 'eq', value: 'x' },
    { source: 'json', path: '$.echo', op: 'gt', value: 1 },
  ],
  nested: [
    { source: 'json', path: '$.data', op: 'eq', value: 'x' },
    { source: 'json', path: '$.data.items[0].v', op: 'matches', value: '^nothing$' },
    { source: 'json', path: '$.data.items', op: 'contains', value: 'x' },
  ],
  halves: [
    { source: 'json', path: '$.parts', op: 'eq', value: 'x' },
    { source: 'json', path: '$.parts[1]', op: 'eq', value: 'x' },
  ],
  header: [
    { source: 'header', path: 'X-Echo', op: 'eq', value: 'x' },
    { source: 'header', path: 'x-echo', op: 'lt', value: 0 },
  ],
  text: [
    { source: 'body', op: 'matches', value: '^nothing$' },
    { source: 'json', path: '$.echo', op: 'exists' },
  ],
};
