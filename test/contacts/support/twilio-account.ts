import {
  bodyFields,
  type ProviderReply,
  type ProviderServer,
  startProviderServer,
} from '../../support/receivers/provider-host.ts';

/**
 * One Twilio account's REST API as documented, both resources a contact method uses:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (To, Body, From or MessagingServiceSid;
 * https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource) and
 * `POST /2010-04-01/Accounts/{AccountSid}/Calls.json` (To, From, and one of Url, Twiml or
 * ApplicationSid; https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource),
 * form-encoded with HTTP Basic auth; 201 with the resource, 401 code 20003 "Authenticate", 400
 * code 21211 for an invalid To, 21213 for a call without From, 21205 for a call without Url or
 * Twiml. What the calls say is read from the TwiML's <Say>.
 */

export interface TwilioAccountReceiver extends ProviderServer {
  messages: Record<string, string>[];
  calls: (Record<string, string> & { said: string })[];
}

const error = (status: number, code: number, message: string): ProviderReply => ({
  status,
  json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

const xmlText = (xml: string) =>
  xml.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

export async function startTwilioAccount(
  accountSid: string,
  authToken: string,
): Promise<TwilioAccountReceiver> {
  const messages: Record<string, string>[] = [];
  const calls: (Record<string, string> & { said: string })[] = [];
  const server = await startProviderServer((req) => {
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(req.path);
    if (req.method !== 'POST' || !match) return error(404, 20404, 'The requested resource was not found');
    const auth = String(req.headers.authorization ?? '');
    const pair = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    if (match[1] !== accountSid || pair !== `${accountSid}:${authToken}`)
      return error(401, 20003, 'Authenticate');
    const fields = Object.fromEntries(Object.entries(bodyFields(req) ?? {}).map(([k, v]) => [k, String(v)]));
    const to = fields.To ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to))
      return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (match[2] === 'Messages') {
      if (!fields.Body) return error(400, 21602, 'Message body is required.');
      if (!fields.From && !fields.MessagingServiceSid)
        return error(
          400,
          21603,
          "A 'From' or 'MessagingServiceSid' parameter is required to send a message.",
        );
      messages.push(fields);
      return {
        status: 201,
        json: { sid: `SM${String(messages.length).padStart(32, '0')}`, status: 'queued', to },
      };
    }
    if (!fields.From) return error(400, 21213, 'Caller phone number is required');
    if (!fields.Url && !fields.Twiml) return error(400, 21205, 'Url parameter is required.');
    const said = /<Say>([^<]*)<\/Say>/.exec(fields.Twiml ?? '')?.[1] ?? '';
    calls.push({ ...fields, said: xmlText(said) });
    return {
      status: 201,
      json: { sid: `CA${String(calls.length).padStart(32, '0')}`, status: 'queued', to },
    };
  });
  return Object.assign(server, { messages, calls });
}
