import type { EmailSender } from '../../domain/formats.ts';
import type { OutgoingMail } from '../ports.ts';

/**
 * The password-reset e-mail: one per request, with a link per team the address resets a password
 * in. Team names are users' text: the HTML escapes them, the subject holds none.
 */

export interface ResetLink {
  team: string;
  url: string;
}

/** Users' text in the e-mails' HTML (team names, addresses). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A mail of these words to the one person `to`, from Vigil's sender. */
export function mailTo(
  input: { from: EmailSender; to: string; deliveryId: string },
  words: Pick<OutgoingMail, 'subject' | 'text' | 'html'>,
): OutgoingMail {
  return { ...words, from: input.from, to: [input.to], deliveryId: input.deliveryId };
}

/** The e-mail to `to` with its links (valid for `minutes`). */
export function passwordResetMail(input: {
  from: EmailSender;
  to: string;
  links: ResetLink[];
  minutes: number;
  deliveryId: string;
}): OutgoingMail {
  const intro = `Someone, hopefully you, asked to reset the Vigil password of ${input.to}.`;
  const how = `Open the link within ${input.minutes} minutes to choose a new password; each link works once.`;
  const ignore = 'If it was not you, ignore this e-mail: your password stays as it is.';
  const text = [intro, how, '', ...input.links.map((link) => `${link.team}: ${link.url}`), '', ignore].join(
    '\n',
  );
  const items = input.links
    .map(
      (link) => `<li>${escapeHtml(link.team)}: <a href="${escapeHtml(link.url)}">reset the password</a></li>`,
    )
    .join('');
  const html = `<p>${escapeHtml(intro)}</p><p>${escapeHtml(how)}</p><ul>${items}</ul><p>${escapeHtml(ignore)}</p>`;
  return mailTo(input, { subject: 'Reset your Vigil password', text, html });
}
