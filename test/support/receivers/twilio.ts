import { bodyFields, type ProviderReply, type ProviderServer, startProviderServer } from './provider-host.ts';

/**
 * One Twilio account's REST API as documented, the resources SMS channels and people's SMS and call
 * methods use (one receiver for both uses of the provider, lib/providers/sms.ts). Messages
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded To, Body (≤ 1,600
 * characters) and From or MessagingServiceSid, HTTP Basic auth with the account SID and auth token
 * (or an API key SID and its secret); answers 201 with the message resource, 401 code 20003
 * "Authenticate", 400 code 21211 for an invalid To, 21602 for a missing Body, 21603 for a missing
 * sender, 21617 for a body over 1,600, and 429 code 20429 "Too Many Requests" (the number
 * +15005550429 here). Calls
 * (https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource):
 * `POST /2010-04-01/Accounts/{AccountSid}/Calls.json`, To, From and one of Url or Twiml; 400 code
 * 21213 without From, 21205 without Url or Twiml; what a call says is read from the TwiML's <Say>.
 */

interface TwilioMessage {
  account: string;
  fields: Record<string, string>;
}

/** A call placed: its form fields, and what its TwiML says. */
export type TwilioCall = Record<string, string> & { said: string };

export interface TwilioReceiver extends ProviderServer {
  messages: TwilioMessage[];
  calls: TwilioCall[];
}

const error = (status: number, code: number, message: string): ProviderReply => ({
  status,
  json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

const xmlText = (xml: string) =>
  xml.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/** A call, once its To is valid. */
function placeCall(calls: TwilioCall[], fields: Record<string, string>): ProviderReply {
  if (!fields.From) return error(400, 21213, 'Caller phone number is required');
  if (!fields.Url && !fields.Twiml) return error(400, 21205, 'Url parameter is required.');
  const said = /<Say>([^<]*)<\/Say>/.exec(fields.Twiml ?? '')?.[1] ?? '';
  calls.push({ ...fields, said: xmlText(said) });
  const sid = `CA${String(calls.length).padStart(32, '0')}`;
  return { status: 201, json: { sid, status: 'queued', to: fields.To } };
}

/** Starts the receiver for `accountSid`, accepting `credentials` (`user:password` pairs) as Basic auth. */
export async function startTwilioReceiver(
  accountSid: string,
  credentials: string[],
): Promise<TwilioReceiver> {
  const messages: TwilioMessage[] = [];
  const calls: TwilioCall[] = [];
  const server = await startProviderServer((req) => {
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(req.path);
    if (req.method !== 'POST' || !match) return error(404, 20404, 'The requested resource was not found');
    const auth = String(req.headers.authorization ?? '');
    const pair = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    if (match[1] !== accountSid || !credentials.includes(pair)) return error(401, 20003, 'Authenticate');
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return error(400, 20001, 'Unsupported content type');
    const fields = Object.fromEntries(Object.entries(bodyFields(req) ?? {}).map(([k, v]) => [k, String(v)]));
    const to = fields.To ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to))
      return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (match[2] === 'Calls') return placeCall(calls, fields);
    if (to === '+15005550429') return error(429, 20429, 'Too Many Requests');
    if (!fields.Body) return error(400, 21602, 'Message body is required.');
    if ([...fields.Body].length > 1600)
      return error(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    if (!fields.From && !fields.MessagingServiceSid)
      return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.");
    messages.push({ account: match[1], fields });
    return {
      status: 201,
      json: {
        sid: `SM${String(messages.length).padStart(32, '0')}`,
        account_sid: accountSid,
        to,
        from: fields.From ?? null,
        messaging_service_sid: fields.MessagingServiceSid ?? null,
        body: fields.Body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/SM${messages.length}.json`,
      },
    };
  });
  return Object.assign(server, { messages, calls });
}
