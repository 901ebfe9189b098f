import type { EmailSender } from '../../domain/formats.ts';
import type { OutgoingMail } from '../ports.ts';
import { escapeHtml, mailTo } from '../reset/password-reset-email.ts';
import type { SignInFailures } from './sign-in-failure-items.ts';

/** `2026-03-02 09:14 UTC`. */
const minuteOf = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * What happened, in words: how many failed sign-ins, from how many addresses, when; never what was
 * typed (no password or code is known here).
 */
export function signInFailuresText(failures: SignInFailures): string {
  const many = (n: number, one: string, other: string) => `${n} ${n === 1 ? one : other}`;
  const codes =
    failures.wrong_codes > 0
      ? ` (${failures.wrong_codes} with the right password and a wrong two-factor code)`
      : '';
  const from = failures.last_address ?? 'an unknown address';
  return `${many(failures.failures, 'failed sign-in', 'failed sign-ins')}${codes} from ${many(failures.addresses, 'address', 'addresses')} in the hour from ${minuteOf(failures.hour)}, the latest at ${minuteOf(failures.last_at)} from ${from}`;
}

/** The e-mail telling `to` of repeated failed sign-ins to their account (once an hour). */
export function signInFailuresMail(input: {
  from: EmailSender;
  to: string;
  failures: SignInFailures;
  deliveryId: string;
}): OutgoingMail {
  const what = `Vigil saw ${signInFailuresText(input.failures)} to the account ${input.to}.`;
  const slowed =
    'Sign-ins from browsers that signed in to it before go on as usual; other browsers are slowed down for a while.';
  const advice =
    input.failures.wrong_codes > 0
      ? 'Someone typed your password: change it now (and keep two-factor authentication on).'
      : 'If it was not you, nothing is needed while your password is strong; consider changing it and turning on two-factor authentication.';
  const text = [what, '', slowed, advice].join('\n');
  const html = [what, slowed, advice].map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  return mailTo(input, { subject: 'Failed sign-ins to your Vigil account', text, html });
}
