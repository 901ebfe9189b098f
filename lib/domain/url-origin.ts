/** The serialized origin (`https://host:port`, default ports left out) of an http(s) URL; undefined for anything else. */
export function originOf(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}
