/**
 * The small HTML pages a keyless link opens in a browser (an e-mail channel's confirmation, a
 * report's unsubscribe): one frame and one set of headers for them all.
 */

/**
 * The headers of an HTML page Vigil serves (these small pages, the public status pages and their
 * forms): its caching and content security policy, and the same guards on every one (no sniffing,
 * no referrer, no framing).
 */
export function htmlHeaders(cacheControl: string, contentSecurityPolicy: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': cacheControl,
    'content-security-policy': contentSecurityPolicy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

/** Headers of those pages: no script, no framing, forms only to this origin, never cached. */
export const SMALL_PAGE_HEADERS = htmlHeaders(
  'no-store',
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
);

/** A whole page around `bodyHtml`, headed by `titleHtml` (both already escaped by the caller). */
export function smallPage(titleHtml: string, bodyHtml: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${titleHtml}</title></head>`,
    '<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;max-width:36em;margin:3em auto;padding:0 1em">',
    `<h1 style="font-size:1.4em">${titleHtml}</h1>`,
    bodyHtml,
    '</body></html>',
  ].join('\n');
}
