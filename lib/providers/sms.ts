import * as z from 'zod';
import { defineProviderChannel } from './channel-use.ts';
import { redactedView, shownSecret } from './config-fields.ts';
import { definePersonUse, failed, sendingFrom, sent } from './person-use.ts';
import type { ProviderSendDeps } from './ports.ts';
import type { Provider } from './provider.ts';
import {
  field,
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderOutcome,
  postToProvider,
} from './provider-post.ts';
import { smsAlertText, smsDigestText } from './sms-text.ts';

/**
 * SMS and calls, defined once: a phone number's rule, Twilio's REST API (2010-04-01, both
 * runtimes: Messages,
 * https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource, and Calls,
 * https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource; form encoded, HTTP
 * Basic auth of the account SID or API key SID and its secret) with its error words, and, in the
 * cloud, Amazon SNS Publish to a phone number (the runtime's SmsTransport); and its uses, the
 * alert channel and people's SMS and phone calls.
 */

/** A phone number as SMS and calls take it. */
const phoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'Enter a phone number in E.164 form: + and country code, such as +14155550100.')
  .meta({ description: 'A phone number in E.164 form, such as +14155550100' });

export const SNS_LOCALLY =
  'not sent: SMS through Amazon SNS works in the cloud runtime only; here, use provider twilio (a Twilio account SID, auth token and sender)';

/**
 * An SMS account as a stored SMS channel holds it, lenient (an old item still reads): the provider,
 * and Twilio's fields, which the provider decides are set.
 */
const storedSmsAccount = {
  provider: z.enum(['twilio', 'sns']),
  account_sid: z.string().optional(),
  auth_token: z.string().optional(),
  api_key_sid: z.string().optional(),
  from: z.string().optional(),
  messaging_service_sid: z.string().optional(),
};
const smsAccount = z.object(storedSmsAccount);

/** A Twilio account. */
type TwilioAccount = Omit<z.output<typeof smsAccount>, 'provider'>;

/** An SMS account: Twilio's, or the cloud's Amazon SNS. */
type SmsAccount = ({ provider: 'twilio' } & TwilioAccount) | { provider: 'sns' };

/** The SMS account of a stored SMS channel's config: SNS, or Twilio with its SID and secret; else undefined. */
function smsAccountOf(config: unknown): SmsAccount | undefined {
  const account = smsAccount.safeParse(config).data;
  if (account?.provider === 'sns') return { provider: 'sns' };
  return account?.account_sid !== undefined && account.auth_token !== undefined
    ? { ...account, provider: 'twilio' }
    : undefined;
}

const TWILIO_API = 'https://api.twilio.com';

/** A resource of the account: Messages for SMS, Calls for a call. */
function twilioUrl(accountSid: string, resource: 'Messages' | 'Calls'): string {
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
function twilioPost(
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
function sendSms(
  deps: ProviderSendDeps,
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

/**
 * The channel: SMS to 1 to 10 phone numbers (E.164), through Twilio's Messages API (both runtimes)
 * or, in the cloud, Amazon SNS (ProviderSendDeps.sms, lib/notify/channels/sms-sns.ts); at most two
 * segments (./sms-text.ts). Each number gets its own message; the attempt fails when any number's
 * did, naming those numbers (a retry sends to every number again). Locally a `provider: 'sns'`
 * channel is accepted (it may be meant for a cloud deployment of the same config) and each of its
 * deliveries fails saying to use Twilio, where the user looks for alerts (the create path does not
 * know the runtime).
 */

/** DECISIONS.md's bound on a channel's recipients, as email has it. */
const MAX_SMS_RECIPIENTS = 10;

const to = z
  .array(phoneNumber)
  .min(1, 'Enter at least one phone number.')
  .max(MAX_SMS_RECIPIENTS, `Enter at most ${MAX_SMS_RECIPIENTS} phone numbers.`)
  .meta({ description: `1 to ${MAX_SMS_RECIPIENTS} phone numbers` });

const sid = (prefix: string, what: string) =>
  z
    .string()
    .regex(
      new RegExp(`^${prefix}[0-9a-fA-F]{32}$`),
      `Enter the ${what}: ${prefix} and 32 hexadecimal digits.`,
    );

/**
 * An alphanumeric sender ID: 1 to 11 letters, digits and spaces, at least one a letter (Twilio's
 * rule); written without lookahead, which the OpenAPI document's pattern may not use: the first
 * letter at each position in turn.
 */
const ALPHANUMERIC_SENDER = Array.from(
  { length: 11 },
  (_, k) => `[0-9 ]{${k}}[A-Za-z][A-Za-z0-9 ]{0,${10 - k}}`,
).join('|');

const twilio = z
  .strictObject({
    provider: z.literal('twilio'),
    to,
    account_sid: sid('AC', 'account SID'),
    auth_token: z
      .string()
      .min(1, 'Enter the auth token (or the API key secret).')
      .max(256, 'Enter at most 256 characters.')
      .regex(/^[\x21-\x7e]+$/, 'Use printable ASCII characters without spaces.')
      .meta({ description: 'The account auth token, or the API key secret with api_key_sid (write-only)' }),
    api_key_sid: sid('SK', 'API key SID')
      .optional()
      .meta({ description: 'An API key SID to authenticate with instead of the account SID' }),
    from: z
      .string()
      .regex(
        new RegExp(`^(\\+[1-9]\\d{6,14}|${ALPHANUMERIC_SENDER})$`),
        'Enter the sending number in E.164 form (+14155550100) or an alphanumeric sender ID of up to 11 letters and digits.',
      )
      .optional()
      .meta({
        description: 'The sending number (E.164) or alphanumeric sender ID; or messaging_service_sid',
      }),
    messaging_service_sid: sid('MG', 'messaging service SID').optional(),
  })
  .refine((c) => (c.from === undefined) !== (c.messaging_service_sid === undefined), {
    message: 'Enter either from (the sending number) or messaging_service_sid, not both.',
    path: ['from'],
  });

const sns = z.strictObject({ provider: z.literal('sns'), to });

const input = z.discriminatedUnion('provider', [twilio, sns], {
  error: (issue) => (issue.code === 'invalid_union' ? 'Choose a provider: twilio or sns.' : undefined),
});

const { provider, ...twilioFields } = storedSmsAccount;
const stored = z.object({ provider, to: z.array(z.string()), ...twilioFields });

/** The stored config, either provider's fields optional (the provider decides which are set). */
export type SmsConfig = z.output<typeof stored>;

const view = z.object({
  provider: z.enum(['twilio', 'sns']),
  to: z.array(z.string()),
  ...twilioFields,
  auth_token: redactedView.optional(),
});
type SmsView = z.output<typeof view>;

/** Sends `text` to every number; a failed number is named in the attempt's error. */
async function sendText(
  deps: ProviderSendDeps,
  cfg: SmsConfig,
  text: string,
  deliveryId: string,
): Promise<ProviderOutcome> {
  if (cfg.provider === 'sns' && !deps.sms) return { ok: false, status_code: null, error: SNS_LOCALLY };
  const failures: { number: string; outcome: ProviderOutcome }[] = [];
  let last: ProviderOutcome = { ok: true, status_code: null, error: null };
  for (const number of cfg.to) {
    last = await sendSms(deps, cfg, { to: number, text, deliveryId });
    if (!last.ok) failures.push({ number, outcome: last });
  }
  if (failures.length === 0) return last;
  const first = failures[0] as { number: string; outcome: ProviderOutcome };
  const others = failures.length > 1 ? ` (and ${failures.length - 1} more number(s) failed)` : '';
  return {
    ok: false,
    status_code: first.outcome.status_code,
    error: `to ${first.number}: ${first.outcome.error ?? 'failed'}${others}`,
  };
}

const channel = defineProviderChannel<SmsConfig, SmsView>({
  label: 'SMS',
  input,
  stored,
  view,
  secrets: ['auth_token'],
  present: (cfg) => ({
    config: {
      provider: cfg.provider,
      to: [...cfg.to],
      ...(cfg.account_sid ? { account_sid: cfg.account_sid } : {}),
      ...shownSecret('auth_token', cfg.auth_token),
      ...(cfg.api_key_sid ? { api_key_sid: cfg.api_key_sid } : {}),
      ...(cfg.from ? { from: cfg.from } : {}),
      ...(cfg.messaging_service_sid ? { messaging_service_sid: cfg.messaging_service_sid } : {}),
    },
  }),
  // SNS's endpoint is the cloud's own (the function's role, not a URL the user gives).
  destinations: (cfg) =>
    cfg.provider === 'twilio'
      ? [{ path: 'config.account_sid', url: twilioUrl(cfg.account_sid ?? '', 'Messages') }]
      : [],
  send: (deps, config, alert) => sendText(deps, config, smsAlertText(alert.message), alert.deliveryId),
  sendDigest: (deps, config, digest) =>
    sendText(deps, config, smsDigestText(digest.message), digest.deliveryId),
});

const xml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A Twilio account with a phone number to call from, of a shared SMS channel. */
function callerOf(config: unknown) {
  const account = smsAccountOf(config);
  return account?.provider === 'twilio' && account.from?.startsWith('+') ? account : undefined;
}

/**
 * People's SMS and phone calls, from the account's shared SMS channel: SMS through its provider
 * (Twilio's Messages API, or SNS in the cloud); a call that speaks the message through Twilio's
 * Calls API with inline TwiML (`Twiml=<Response><Say>…</Say></Response>`), from the channel's
 * sending number (a call needs a number: an alphanumeric sender or a messaging service cannot call).
 */
const people = {
  sms: definePersonUse({
    label: 'SMS',
    address: phoneNumber,
    ...sendingFrom(
      (accounts) => accounts.find('sms', smsAccountOf),
      {
        none: 'this account has no shared SMS channel',
        add: 'an admin adds one (Twilio, or Amazon SNS in the cloud), and its account sends the texts',
      },
      (deps, account, { address }, { text, deliveryId }) =>
        sent(sendSms(deps, account, { to: address, text, deliveryId }), [address]),
    ),
  }),
  voice: definePersonUse({
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
      return sent(twilioPost(deps.http, account, 'Calls', form), [target.address]);
    },
  }),
};

export const smsProvider = { channel, people } satisfies Provider;
