import * as z from 'zod';
import { defineProviderChannel } from './channel-use.ts';
import { redactedView, shownSecret } from './config-fields.ts';
import { clip, type DigestMessage, linesWithin, plainText } from './message.ts';
import { definePersonUse, sendingFrom, sent } from './person-use.ts';
import type { ProviderSendDeps } from './ports.ts';
import type { Provider } from './provider.ts';
import {
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderOutcome,
  postToProvider,
} from './provider-post.ts';

/**
 * Pushover (https://pushover.net/api), defined once: one form-encoded POST per message with the
 * application's token and the user's (or group's) key, plain text (no HTML, so user text stays
 * inert), within the API's limits; its error words; a 200 that does not say status 1 is no
 * delivery. Its uses: the alert channel and people's Pushover.
 */

const PUSHOVER_API = 'https://api.pushover.net/1/messages.json';
/** Application tokens and user/group keys: 30 letters and digits. */
const PUSHOVER_KEY = /^[A-Za-z0-9]{30}$/;
/** The API's limits: message 1,024 characters, title 250, url 512. */
const MAX_PUSHOVER_MESSAGE = 1024;
const MAX_TITLE = 250;
const MAX_URL = 512;

interface PushoverMessage {
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
    title: clip(message.title, MAX_TITLE),
    message: clip(message.text, MAX_PUSHOVER_MESSAGE),
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
function sendPushover(http: ProviderHttp, message: PushoverMessage): Promise<ProviderOutcome> {
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

/**
 * The channel: a change to down goes at the channel's priority (1, high, by default); with
 * priority 2 (emergency) Pushover repeats it every `emergency_retry` seconds until acknowledged or
 * `emergency_expire` seconds pass. Everything else (recoveries, degraded, tests, digests without a
 * change to down) goes at priority 0.
 */

/** Emergency priority: retry at least every 30 s, expire at most after 10,800 s (3 hours). */
const MIN_RETRY = 30;
const MAX_EXPIRE = 10_800;
const DEFAULT_EMERGENCY = { retry: 60, expire: 3600 };

/** Application tokens and user/group keys are 30 letters and digits. */
const key = (what: string) =>
  z
    .string()
    .regex(PUSHOVER_KEY, `Enter the ${what}: 30 letters and digits.`)
    .meta({ description: `The ${what} (write-only)` });

/** Emergency priority's bounds: flat keys, as the console's form fields are (config.<key>). */
const retry = z
  .int('Enter whole seconds.')
  .min(MIN_RETRY, `Pushover retries at most every ${MIN_RETRY} seconds: enter ${MIN_RETRY} or more.`)
  .max(MAX_EXPIRE, `Enter at most ${MAX_EXPIRE} seconds.`)
  .optional()
  .meta({ description: 'Emergency priority (2): seconds between retries, 30 or more (60 by default)' });
const expire = z
  .int('Enter whole seconds.')
  .min(MIN_RETRY, `Enter at least ${MIN_RETRY} seconds.`)
  .max(
    MAX_EXPIRE,
    `Pushover stops retrying after at most ${MAX_EXPIRE} seconds (3 hours): enter ${MAX_EXPIRE} or less.`,
  )
  .optional()
  .meta({
    description: 'Emergency priority (2): seconds until retries stop, 10,800 or less (3,600 by default)',
  });

const config = z.strictObject({
  app_token: key('application API token'),
  user_key: key('user or group key'),
  priority: z
    .int('Enter a whole number from -2 to 2.')
    .min(-2, 'Enter a priority from -2 to 2.')
    .max(2, 'Enter a priority from -2 to 2.')
    .optional()
    .meta({ description: 'The priority of a change to down: -2 to 2, 1 by default; 2 is emergency' }),
  emergency_retry: retry,
  emergency_expire: expire,
});
export type PushoverConfig = z.output<typeof config>;

const view = z.object({
  app_token: redactedView.optional(),
  user_key: redactedView.optional(),
  priority: z.int().optional(),
  emergency_retry: z.int().optional(),
  emergency_expire: z.int().optional(),
});

/** Sends one message; `down` decides the priority. */
function post(
  deps: ProviderSendDeps,
  cfg: PushoverConfig,
  message: { title: string; text: string; link?: string | undefined },
  down: boolean,
) {
  return sendPushover(deps.http, {
    token: cfg.app_token,
    user: cfg.user_key,
    ...message,
    priority: down ? (cfg.priority ?? 1) : 0,
    emergency: {
      retry: cfg.emergency_retry ?? DEFAULT_EMERGENCY.retry,
      expire: cfg.emergency_expire ?? DEFAULT_EMERGENCY.expire,
    },
  });
}

function sendDigest(deps: ProviderSendDeps, cfg: PushoverConfig, message: DigestMessage) {
  const head = clip(message.summary.join('\n'), MAX_PUSHOVER_MESSAGE / 2);
  const lines = linesWithin(message.lines, MAX_PUSHOVER_MESSAGE - head.length - 2, (line) => line.length);
  // A digest pages no one: emergency retries for a batch would repeat until acknowledged.
  return post(
    deps,
    { ...cfg, priority: Math.min(cfg.priority ?? 1, 1) },
    { title: message.title, text: [head, '', ...lines].join('\n') },
    message.tone === 'down',
  );
}

const channel = defineProviderChannel({
  label: 'Pushover',
  input: config,
  stored: z.object({
    app_token: z.string(),
    user_key: z.string(),
    priority: z.int().optional(),
    emergency_retry: z.int().optional(),
    emergency_expire: z.int().optional(),
  }),
  view,
  secrets: ['app_token', 'user_key'],
  present: (cfg) => ({
    config: {
      ...shownSecret('app_token', cfg.app_token),
      ...shownSecret('user_key', cfg.user_key),
      ...(cfg.priority === undefined ? {} : { priority: cfg.priority }),
      ...(cfg.emergency_retry === undefined ? {} : { emergency_retry: cfg.emergency_retry }),
      ...(cfg.emergency_expire === undefined ? {} : { emergency_expire: cfg.emergency_expire }),
    },
  }),
  destinations: () => [{ path: 'config.app_token', url: PUSHOVER_API }],
  send: (deps, config, { message }) =>
    post(
      deps,
      config,
      { title: message.title, text: plainText(message, false), link: message.link },
      message.tone === 'down',
    ),
  sendDigest: (deps, config, digest) => sendDigest(deps, config, digest.message),
});

/** The application of a shared Pushover channel. */
const application = z.object({ app_token: z.string() });

/**
 * People's Pushover: from the application of the account's shared Pushover channel, to the
 * person's user key.
 */
const people = {
  pushover: definePersonUse({
    label: 'Pushover',
    address: z
      .string()
      .regex(PUSHOVER_KEY, 'Enter your Pushover user key: 30 letters and digits.')
      .meta({ description: 'Your Pushover user key (30 letters and digits)' }),
    ...sendingFrom(
      (accounts) => accounts.find('pushover', (config) => application.safeParse(config).data?.app_token),
      {
        none: 'this account has no shared Pushover channel',
        add: 'an admin adds one, and its application sends the messages',
      },
      (deps, token, target, message) =>
        sent(
          sendPushover(deps.http, {
            token,
            user: target.address,
            title: message.subject,
            text: message.text,
            priority: 1,
          }),
        ),
    ),
  }),
};

export const pushoverProvider = { channel, people } satisfies Provider;
