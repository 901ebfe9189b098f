import type { EmailSender } from '../../domain/formats.ts';
import type { OutgoingMail } from '../ports.ts';
import { escapeHtml, mailTo } from '../reset/password-reset-email.ts';

/**
 * The e-mail with the one-time sign-in link of an account whose second factor is locked after
 * wrong codes (lib/people/sign-in/code-lock.ts). It holds the link, never a code or password.
 */
export function signInLinkMail(input: {
  from: EmailSender;
  to: string;
  url: string;
  wrongCodes: number;
  minutes: number;
  deliveryId: string;
}): OutgoingMail {
  const what = `Someone signed in to the Vigil account ${input.to} with its password, then sent ${input.wrongCodes} wrong two-factor codes. Its codes are now taken only from a browser that signed in to it before, or with this link.`;
  const how = `If it was you: open the link within ${input.minutes} minutes in the browser you sign in with, then enter your password and code. The link works once.`;
  const warn = 'If it was not you: someone knows your password. Change it now, and do not open the link.';
  const text = [what, '', how, input.url, '', warn].join('\n');
  const html = `<p>${escapeHtml(what)}</p><p>${escapeHtml(how)}</p><p><a href="${escapeHtml(input.url)}">Sign in to Vigil</a></p><p>${escapeHtml(warn)}</p>`;
  return mailTo(input, { subject: 'Your Vigil sign-in link', text, html });
}
