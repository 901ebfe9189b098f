/**
 * The web console's security headers, one source for both runtimes: the local server sends them
 * with every console file, CloudFront's response headers policy (infra/console.ts) with every
 * object of the console bucket. The console loads nothing from another origin: the bundle is
 * self-contained and the API is on the same origin. Styles allow 'unsafe-inline' because React
 * Flow and uPlot set inline styles; scripts never run inline.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Headers of every console response (index.html, assets, the not-built page). */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Cache-Control of the hashed files under /assets/: their names change with their content. */
export const CONSOLE_ASSET_CACHE = 'public, max-age=31536000, immutable';

/** The folder of Vite's hashed output, relative to the console's root. */
export const CONSOLE_ASSETS_PREFIX = '/assets/';
