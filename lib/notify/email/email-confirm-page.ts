import { smallPage } from '../../http/small-page.ts';
import type { EmailContent } from '../../providers/email-message.ts';
import { escapeHtml } from '../../providers/email-message.ts';

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
    html: smallPage(
      'Confirm alerts to this address',
      `<p>${escapeHtml(lines[0] ?? '')}</p><p>${escapeHtml(lines[1] ?? '')}</p>` +
        `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(lines[5] ?? '')}</p>`,
    ),
  };
}

/** The link's page: the address and a Confirm button that posts back to the same URL. */
export function confirmFormPage(address: string): string {
  return smallPage(
    'Confirm alerts to this address',
    `<p>Vigil alerts of an email channel are to go to <strong>${escapeHtml(address)}</strong>.</p>` +
      '<form method="post"><button type="submit" style="font-size:1em;padding:.5em 1.5em">Confirm</button></form>' +
      '<p>If you did not expect this, close this page: nothing is sent to this address until it is confirmed.</p>',
  );
}

/** After the button: the address is confirmed. */
export function confirmedPage(address: string): string {
  return smallPage(
    'Address confirmed',
    `<p><strong>${escapeHtml(address)}</strong> now receives the alerts of the email channels that list it.</p>`,
  );
}

/** An unknown, used or expired link: one page for all three, revealing nothing about a token. */
export function invalidLinkPage(): string {
  return smallPage(
    'This link is not valid',
    '<p>The confirmation link is unknown, already used or expired. Ask the account to save the channel again for a new link.</p>',
  );
}
