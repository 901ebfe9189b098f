import { phoneNumber, sendSms, smsAccountOf } from '../../providers/sms.ts';
import { defineContactKind, httpOf, sendingFrom, sent } from './definition.ts';

/**
 * SMS (lib/providers/sms.ts) through the account's shared SMS channel's provider: Twilio's
 * Messages API (both runtimes) or, in the cloud, Amazon SNS.
 */

export const smsContact = defineContactKind({
  label: 'SMS',
  address: phoneNumber,
  ...sendingFrom(
    (accounts) => accounts.find('sms', smsAccountOf),
    {
      none: 'this account has no shared SMS channel',
      add: 'an admin adds one (Twilio, or Amazon SNS in the cloud), and its account sends the texts',
    },
    (deps, account, target, message) =>
      sent(
        sendSms({ http: httpOf(deps), sms: deps.smsTransport }, account, {
          to: target.address,
          text: message.text,
          deliveryId: message.deliveryId,
        }),
        [target.address],
      ),
  ),
});
