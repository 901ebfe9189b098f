/**
 * Where to go after signing in: a path on this console only. `next` comes from a link (an alert
 * e-mail, the SSO callback, `/sign-in?next=`), so anything that could leave the origin — another
 * host (`//evil.example`, `/\evil.example`), a scheme (`https:`, `javascript:`), a relative path —
 * is refused and the status page is the answer (no open redirect).
 */
export function safeNextPath(next: string | null | undefined, fallback = '/status'): string {
  if (!next?.startsWith('/') || next.startsWith('//')) return fallback;
  // Control characters (a tab or newline inside `//`) are dropped by URL parsers: refuse them outright.
  if ([...next].some((c) => c < ' ' || c === '\u007f' || c === '\\')) return fallback;
  // Resolved against a stand-in origin: a path that stays on it stays on the console's own.
  const origin = 'http://console.invalid';
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Back to the sign-in page would loop.
  return url.pathname === '/sign-in' ? fallback : path;
}

/** The path to come back to after signing in from the page at `location` (a signed-out deep link). */
export function nextFromHere(location: { pathname: string; search: string }): string {
  if (location.pathname === '/sign-in') return safeNextPath(new URLSearchParams(location.search).get('next'));
  return safeNextPath(`${location.pathname}${location.search}`);
}
