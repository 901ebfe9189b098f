import type { ContactSendDeps, SendResult } from './definition.ts';
import type { TwilioAccount } from './provider-accounts.ts';
import { postToProvider } from './provider-post.ts';

/**
 * A POST to a resource of the account's Twilio REST API (2010-04-01): Messages for SMS
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource), Calls
 * for voice (https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource), form
 * encoded, with HTTP Basic auth of the account SID (or API key SID) and its secret.
 */

const TWILIO_API = 'https://api.twilio.com/2010-04-01/Accounts';

export function twilioPost(
  deps: ContactSendDeps,
  account: TwilioAccount,
  resource: 'Messages' | 'Calls',
  form: URLSearchParams,
): Promise<SendResult> {
  const user = account.api_key_sid ?? account.account_sid;
  const auth = Buffer.from(`${user}:${account.auth_token}`, 'utf8').toString('base64');
  return postToProvider(
    deps,
    'Twilio',
    {
      url: `${TWILIO_API}/${encodeURIComponent(account.account_sid)}/${resource}.json`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${auth}` },
      body: form.toString(),
    },
    [account.auth_token, auth, form.get('To') ?? undefined],
  );
}
