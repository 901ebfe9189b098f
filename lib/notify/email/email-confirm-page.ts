import type { EmailContent } from '../channels/email-message.ts';
import { escapeHtml } from '../channels/email-message.ts';

/**
 * The confirmation email and the pages its link opens. Nothing a user typed is in them (no entity,
 * channel or account name: an address that never asked for Vigil's email gets no one's text), only
 * the address itself on the page its own link opens. The link's page confirms only on its button
 * (a POST), so a mail scanner that follows links confirms nothing.
 */

const days = (ms: number) => Math.round(ms / 86_400_000);

/** The email that asks an address to confirm: the link, how long it works, and how to refuse. */
export function confirmationEmail(link: string, ttlMs: number): EmailContent {
  const lines = [
    'An email channel of a Vigil account lists this address for its alerts.',
    'Nothing is sent to it until you confirm. To receive these alerts, open this link and press Confirm:',
    '',
    link,
    '',
    `The link works once, for ${days(ttlMs)} days. If you did not expect this email, ignore it.`,
  ];
  return {
    subject: '[Vigil] Confirm alerts to this address',
    text: `${lines.join('\n')}\n`,
    html: page(
      'Confirm alerts to this address',
      `<p>${escapeHtml(lines[0] ?? '')}</p><p>${escapeHtml(lines[1] ?? '')}</p>` +
        `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(lines[5] ?? '')}</p>`,
    ),
  };
}

/** Headers of the pages: no script, no framing, forms only to this origin, never cached. */
export const CONFIRM_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function page(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;max-width:36em;margin:3em auto;padding:0 1em">',
    `<h1 style="font-size:1.4em">${escapeHtml(title)}</h1>`,
    body,
    '</body></html>',
  ].join('\n');
}

/** The link's page: the address and a Confirm button that posts back to the same URL. */
export function confirmFormPage(address: string): string {
  return page(
    'Confirm alerts to this address',
    `<p>Vigil alerts of an email channel are to go to <strong>${escapeHtml(address)}</strong>.</p>` +
      '<form method="post"><button type="submit" style="font-size:1em;padding:.5em 1.5em">Confirm</button></form>' +
      '<p>If you did not expect this, close this page: nothing is sent to this address until it is confirmed.</p>',
  );
}

/** After the button: the address is confirmed. */
export function confirmedPage(address: string): string {
  return page(
    'Address confirmed',
    `<p><strong>${escapeHtml(address)}</strong> now receives the alerts of the email channels that list it.</p>`,
  );
}

/** An unknown, used or expired link: one page for all three, revealing nothing about a token. */
export function invalidLinkPage(): string {
  return page(
    'This link is not valid',
    '<p>The confirmation link is unknown, already used or expired. Ask the account to save the channel again for a new link.</p>',
  );
}
