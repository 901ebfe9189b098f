import type { ProviderServer } from '../../support/receivers/provider-host.ts';
import { startTwilioReceiver, type TwilioCall } from '../../support/receivers/twilio.ts';

/**
 * One Twilio account as people's SMS and call methods reach it: the provider's one receiver
 * (test/support/receivers/twilio.ts, which SMS channels' tests use too) for one account SID and its
 * auth token, its messages seen as their form fields.
 */

export interface TwilioAccountReceiver extends ProviderServer {
  /** Each message's form fields (To, Body, From or MessagingServiceSid), oldest first. */
  readonly messages: Record<string, string>[];
  calls: TwilioCall[];
}

export async function startTwilioAccount(
  accountSid: string,
  authToken: string,
): Promise<TwilioAccountReceiver> {
  const receiver = await startTwilioReceiver(accountSid, [`${accountSid}:${authToken}`]);
  return {
    port: receiver.port,
    egress: receiver.egress,
    close: () => receiver.close(),
    get messages() {
      return receiver.messages.map((m) => m.fields);
    },
    calls: receiver.calls,
  };
}
