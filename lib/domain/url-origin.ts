/** The serialized origin (`https://host:port`, default ports left out) of an http(s) URL; undefined for anything else. */
export function originOf(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/**
 * Where a request goes: the origin, path and query of an http(s) URL (default ports left out, the
 * fragment dropped, which is never sent); any other text (a template that does not parse) as
 * written without its fragment. Secret headers are kept only while it stays the same.
 */
export function requestTarget(value: string): string {
  const origin = originOf(value);
  if (origin === undefined) return value.split('#')[0] ?? value;
  const url = new URL(value);
  return `${origin}${url.pathname}${url.search}`;
}
