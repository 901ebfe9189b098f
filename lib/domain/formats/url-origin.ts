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

const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A Host header value: a DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
export function isHostValue(value: string): boolean {
  return HOST.test(value);
}

/** The last Host value read and its name: a server's requests mostly carry one Host, read twice each. */
let last: { host: string; name: string | undefined } | undefined;

/** The host name of a Host header value (lower case, IPv6 in brackets, no port); undefined for no host. */
export function hostnameOf(host: string): string | undefined {
  if (last?.host === host) return last.name;
  const name =
    isHostValue(host) && URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname : undefined;
  last = { host, name };
  return name;
}
