import { defineContactKind, sendingFrom } from './definition.ts';
import { phoneAddress } from './phone.ts';
import { failed, scrub } from './provider-post.ts';
import { twilioPost } from './twilio-post.ts';

/**
 * SMS through the account's shared SMS channel's provider: Twilio's Messages API (both runtimes)
 * or, in the cloud, Amazon SNS.
 */

export const smsContact = defineContactKind({
  label: 'SMS',
  address: phoneAddress,
  ...sendingFrom(
    (accounts) => accounts.sms,
    {
      none: 'this account has no shared SMS channel',
      add: 'an admin adds one (Twilio, or Amazon SNS in the cloud), and its account sends the texts',
    },
    async (deps, account, target, message) => {
      if (account.provider === 'sns') {
        if (!deps.smsTransport) return failed('SMS through Amazon SNS works in the cloud runtime only');
        const outcome = await deps.smsTransport.send({
          to: target.address,
          text: message.text,
          deliveryId: message.deliveryId,
        });
        return outcome.ok
          ? { ok: true }
          : failed(scrub(outcome.error ?? 'Amazon SNS refused it', [target.address]));
      }
      const form = new URLSearchParams({ To: target.address, Body: message.text });
      if (account.messaging_service_sid) form.set('MessagingServiceSid', account.messaging_service_sid);
      else form.set('From', account.from ?? '');
      return twilioPost(deps, account, 'Messages', form);
    },
  ),
});
