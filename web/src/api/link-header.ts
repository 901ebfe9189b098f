/**
 * Reading a `Link` response header (RFC 8288), as paged lists announce their next page:
 * `</v1/checks?limit=100&cursor=...>; rel="next"`.
 */

/** Each `<target>; params` entry of a Link header: the targets are in angle brackets, so commas in them are safe. */
const LINK_ENTRY = /<([^>]*)>((?:\s*;\s*[^;,]*)*)/g;
const REL_PARAM = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i;

/** The target of the header's rel="next" link, or undefined when it has none (the last page). */
function nextLink(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  for (const match of header.matchAll(LINK_ENTRY)) {
    const rel = REL_PARAM.exec(match[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('next')) return match[1];
  }
  return undefined;
}

/** The `cursor` query parameter of the header's next link, or undefined at the last page. */
export function nextCursor(header: string | null | undefined): string | undefined {
  const target = nextLink(header);
  if (target === undefined) return undefined;
  return new URL(target, 'http://link.invalid').searchParams.get('cursor') ?? undefined;
}
