import {
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderOutcome,
  postToProvider,
} from './provider-post.ts';

/**
 * Pushover (https://pushover.net/api), defined once for its uses (lib/notify/channels/pushover.ts:
 * alert channels and people's Pushover contact methods): one form-encoded POST per message with the application's token
 * and the user's (or group's) key, plain text (no HTML, so user text stays inert), within the
 * API's limits; its error words; a 200 that does not say status 1 is no delivery.
 */

export const PUSHOVER_API = 'https://api.pushover.net/1/messages.json';
/** Application tokens and user/group keys: 30 letters and digits. */
export const PUSHOVER_KEY = /^[A-Za-z0-9]{30}$/;
/** The API's limits: message 1,024 characters, title 250, url 512. */
export const MAX_PUSHOVER_MESSAGE = 1024;
const MAX_TITLE = 250;
const MAX_URL = 512;

/** `text` cut to `max` characters, ending in … when cut. */
const clipped = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export interface PushoverMessage {
  /** The application's API token. */
  token: string;
  /** The user's or group's key. */
  user: string;
  title: string;
  text: string;
  link?: string | undefined;
  priority: number;
  /** Emergency priority (2): seconds between repeats and until they stop. */
  emergency?: { retry: number; expire: number } | undefined;
}

/** The form fields of one message. */
function pushoverForm(message: PushoverMessage): URLSearchParams {
  const form = new URLSearchParams({
    token: message.token,
    user: message.user,
    title: clipped(message.title, MAX_TITLE),
    message: clipped(message.text, MAX_PUSHOVER_MESSAGE),
    priority: String(message.priority),
  });
  if (message.link && message.link.length <= MAX_URL) {
    form.set('url', message.link);
    form.set('url_title', 'Open in Vigil');
  }
  if (message.priority === 2 && message.emergency) {
    form.set('retry', String(message.emergency.retry));
    form.set('expire', String(message.emergency.expire));
  }
  return form;
}

/** `{"user":"invalid","errors":["user identifier is invalid"],"status":0}`: the errors, joined. */
function explain(answer: ProviderAnswer): string | undefined {
  const errors = (answer.json as { errors?: unknown } | undefined)?.errors;
  if (Array.isArray(errors) && errors.every((e) => typeof e === 'string')) return errors.join('; ');
  if (answer.status === 429) return 'the application is over its monthly message limit';
  return undefined;
}

/** Sends one message. */
export function sendPushover(http: ProviderHttp, message: PushoverMessage): Promise<ProviderOutcome> {
  return postToProvider(
    http,
    'Pushover',
    {
      url: PUSHOVER_API,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: pushoverForm(message).toString(),
    },
    {
      secrets: [message.token, message.user],
      explain,
      // A 200 says status 1; anything else is no delivery.
      accepted: (answer) => (answer.json as { status?: unknown } | undefined)?.status === 1,
    },
  );
}
