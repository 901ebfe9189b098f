import * as z from 'zod';
import {
  field,
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderOutcome,
  postToProvider,
} from './provider-post.ts';

/**
 * SMS and calls, defined once for its uses (lib/notify/channels/sms.ts: alert channels, and
 * people's SMS and phone-call contact methods): a phone number's rule, Twilio's
 * REST API (2010-04-01, both runtimes: Messages,
 * https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource, and Calls,
 * https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource; form encoded, HTTP
 * Basic auth of the account SID or API key SID and its secret) with its error words, and, in the
 * cloud, Amazon SNS Publish to a phone number (the runtime's SmsTransport).
 */

/** Amazon SNS's Publish to a phone number (the cloud runtime composes it; IAM-scoped to sns:Publish). */
export interface SmsTransport {
  send(message: { to: string; text: string; deliveryId: string }): Promise<ProviderOutcome>;
}

/** A phone number as SMS and calls take it. */
export const phoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'Enter a phone number in E.164 form: + and country code, such as +14155550100.')
  .meta({ description: 'A phone number in E.164 form, such as +14155550100' });

export const SNS_LOCALLY =
  'not sent: SMS through Amazon SNS works in the cloud runtime only; here, use provider twilio (a Twilio account SID, auth token and sender)';

/**
 * An SMS account as a stored SMS channel holds it, lenient (an old item still reads): the provider,
 * and Twilio's fields, which the provider decides are set.
 */
export const storedSmsAccount = {
  provider: z.enum(['twilio', 'sns']),
  account_sid: z.string().optional(),
  auth_token: z.string().optional(),
  api_key_sid: z.string().optional(),
  from: z.string().optional(),
  messaging_service_sid: z.string().optional(),
};
const smsAccount = z.object(storedSmsAccount);

/** A Twilio account. */
export type TwilioAccount = Omit<z.output<typeof smsAccount>, 'provider'>;

/** An SMS account: Twilio's, or the cloud's Amazon SNS. */
export type SmsAccount = ({ provider: 'twilio' } & TwilioAccount) | { provider: 'sns' };

/** The SMS account of a stored SMS channel's config: SNS, or Twilio with its SID and secret; else undefined. */
export function smsAccountOf(config: unknown): SmsAccount | undefined {
  const account = smsAccount.safeParse(config).data;
  if (account?.provider === 'sns') return { provider: 'sns' };
  return account?.account_sid !== undefined && account.auth_token !== undefined
    ? { ...account, provider: 'twilio' }
    : undefined;
}

const TWILIO_API = 'https://api.twilio.com';

/** A resource of the account: Messages for SMS, Calls for a call. */
export function twilioUrl(accountSid: string, resource: 'Messages' | 'Calls'): string {
  return `${TWILIO_API}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/${resource}.json`;
}

/** `{"code":21211,"message":"The 'To' number ... is not a valid phone number.","more_info":...,"status":400}`. */
function explain(answer: ProviderAnswer): string | undefined {
  const message = field(answer.json, 'message');
  const code = field(answer.json, 'code');
  if (message === undefined) return undefined;
  return code === undefined ? String(message) : `${message} (error ${code})`;
}

/** One POST to a resource of the account. */
export function twilioPost(
  http: ProviderHttp,
  account: TwilioAccount,
  resource: 'Messages' | 'Calls',
  form: URLSearchParams,
): Promise<ProviderOutcome> {
  const user = account.api_key_sid ?? account.account_sid ?? '';
  const auth = Buffer.from(`${user}:${account.auth_token ?? ''}`, 'utf8').toString('base64');
  return postToProvider(
    http,
    'Twilio',
    {
      url: twilioUrl(account.account_sid ?? '', resource),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${auth}` },
      body: form.toString(),
    },
    { secrets: [account.auth_token, auth], explain },
  );
}

/** Sends one text to one number from the account: Twilio's Messages, or SNS (the cloud only). */
export function sendSms(
  deps: { http: ProviderHttp; sms?: SmsTransport | undefined },
  account: SmsAccount,
  message: { to: string; text: string; deliveryId: string },
): Promise<ProviderOutcome> {
  if (account.provider === 'sns') {
    if (!deps.sms) return Promise.resolve({ ok: false, status_code: null, error: SNS_LOCALLY });
    return deps.sms.send(message);
  }
  const form = new URLSearchParams({ To: message.to, Body: message.text });
  if (account.messaging_service_sid) form.set('MessagingServiceSid', account.messaging_service_sid);
  else form.set('From', account.from ?? '');
  return twilioPost(deps.http, account, 'Messages', form);
}
