import { phoneNumber, smsAccountOf, twilioPost } from '../../providers/sms.ts';
import { defineContactKind, failed, httpOf, sent } from './definition.ts';

/**
 * A phone call that speaks the message, through Twilio's Calls API (lib/providers/sms.ts) with
 * inline TwiML (`Twiml=<Response><Say>…</Say></Response>`), from the sending number of the
 * account's shared Twilio SMS channel (a call needs a number: an alphanumeric sender or a
 * messaging service cannot call).
 */

const xml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A Twilio account with a phone number to call from, of a shared SMS channel. */
function callerOf(config: unknown) {
  const account = smsAccountOf(config);
  return account?.provider === 'twilio' && account.from?.startsWith('+') ? account : undefined;
}

export const voiceContact = defineContactKind({
  label: 'Phone call (Twilio)',
  address: phoneNumber,
  missing: (accounts) =>
    accounts.find('sms', callerOf)
      ? undefined
      : 'this account has no shared SMS channel with Twilio and a sending phone number: an admin adds one, and its number places the calls',
  send(deps, accounts, target, message) {
    const account = accounts.find('sms', callerOf);
    if (!account?.from) return Promise.resolve(failed('this account has no Twilio number to call from'));
    const twiml = `<Response><Say>${xml(message.speech)}</Say></Response>`;
    const form = new URLSearchParams({ To: target.address, From: account.from, Twiml: twiml });
    return sent(twilioPost(httpOf(deps), account, 'Calls', form), [target.address]);
  },
});
