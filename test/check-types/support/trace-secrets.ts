/**
 * The spellings of a secret a Playwright trace may hold, written out here rather than taken from
 * the masking code: as typed (a fill's value), JSON-escaped (the trace's events, a JSON body),
 * URL-encoded (encodeURIComponent's, with `+` for spaces as a form body has it, the form
 * serializer's, and encodeURI's as a page's URL keeps it) and HTML-escaped (a DOM snapshot's
 * text and attributes).
 */
export function secretSpellings(secret: string): string[] {
  const component = encodeURIComponent(secret);
  const html = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    component,
    component.replaceAll('%20', '+'),
    new URLSearchParams({ v: secret }).toString().slice(2),
    encodeURI(secret),
    html(secret),
    html(secret).replaceAll('"', '&quot;'),
    html(secret).replaceAll('"', '&#34;'),
    secret.replaceAll('&', '&amp;').replaceAll('"', '&quot;'),
  ];
}
