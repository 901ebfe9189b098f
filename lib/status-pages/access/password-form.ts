import { createHash } from 'node:crypto';
import { escapeHtml } from '../html/html-text.ts';

/**
 * The page a password page answers until the visitor gives its password: nothing of the page (not
 * even its title, which may name the customer), a labelled password field posting to
 * /p/{slug}/access, no script. Its CSP allows its own stylesheet and a form posted to this origin.
 */

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1c1f24}main{max-width:420px;margin:0 auto;padding:48px 16px}h1{font-size:22px}label{display:block;font-weight:600;margin:12px 0 4px}input{font:inherit;padding:6px 8px;width:100%;box-sizing:border-box}button{font:inherit;margin-top:12px;padding:6px 14px}.error{color:#b3261e;font-weight:600}';

export const FORM_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * What an SSO page answers a reader not signed in through its team's SSO: nothing of the page, a
 * link to sign in (`href`: the SSO sign-in on Vigil's host, or on the page's custom domain the
 * hand-off there), and `note` when a hand-off failed.
 */
export function renderSsoPrompt(href: string, note?: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Private status page</title><style>${STYLE}</style></head><body><main>`,
    '<h1>This status page is private</h1><p>Its team reads it after signing in with single sign-on.</p>',
    note ? `<p class="error" role="alert">${escapeHtml(note)}</p>` : '',
    `<p><a href="${escapeHtml(href)}">Sign in with SSO</a></p></main></body></html>`,
  ].join('');
}

/** The form for the page whose routes are under `base` (/p/{slug}, or '' on its domain); `error` after a wrong password. */
export function renderPasswordForm(base: string, error?: string): string {
  const action = escapeHtml(`${base}/access`);
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Private status page</title><style>${STYLE}</style></head><body><main>`,
    '<h1>This status page is private</h1><p>Enter its password to read it.</p>',
    error ? `<p class="error" role="alert" id="password-error">${escapeHtml(error)}</p>` : '',
    `<form method="post" action="${action}">`,
    '<label for="password">Password</label>',
    `<input id="password" name="password" type="password" required maxlength="200" autocomplete="current-password"${error ? ' aria-describedby="password-error" aria-invalid="true"' : ''}>`,
    '<button type="submit">Open the page</button></form></main></body></html>',
  ].join('');
}
