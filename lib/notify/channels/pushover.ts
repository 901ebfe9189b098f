import * as z from 'zod';
import type { Alert, Digest } from '../pipeline/ports.ts';
import { redactedView, shownSecret } from './config-fields.ts';
import { type ChannelSendDeps, defineChannel } from './definition.ts';
import { describeDigest, linesWithin } from './digest-message.ts';
import { type AlertMessage, clip, messageFor, plainText } from './message.ts';
import { type ProviderAnswer, postToProvider } from './provider-post.ts';

/**
 * Pushover (https://pushover.net/api): one form-encoded POST per message with the application's
 * token and the user's (or group's) key, plain text (no HTML, so user text stays inert). A change
 * to down goes at the channel's priority (1, high, by default); with priority 2 (emergency)
 * Pushover repeats it every `emergency_retry` seconds until acknowledged or `emergency_expire` seconds pass. Everything
 * else (recoveries, degraded, tests, digests without a change to down) goes at priority 0.
 */

const PUSHOVER_API = 'https://api.pushover.net/1/messages.json';
/** The API's limits: message 1,024 characters, title 250, url 512, url_title 100. */
const MAX_MESSAGE = 1024;
const MAX_TITLE = 250;
const MAX_URL = 512;
/** Emergency priority: retry at least every 30 s, expire at most after 10,800 s (3 hours). */
const MIN_RETRY = 30;
const MAX_EXPIRE = 10_800;
const DEFAULT_EMERGENCY = { retry: 60, expire: 3600 };

/** Application tokens and user/group keys are 30 letters and digits. */
const key = (what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9]{30}$/, `Enter the ${what}: 30 letters and digits.`)
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

/** The form fields of one message; `down` decides the priority. */
function pushoverForm(
  cfg: PushoverConfig,
  message: { title: string; text: string; link?: string | undefined },
  down: boolean,
): URLSearchParams {
  const priority = down ? (cfg.priority ?? 1) : 0;
  const form = new URLSearchParams({
    token: cfg.app_token,
    user: cfg.user_key,
    title: clip(message.title, MAX_TITLE),
    message: clip(message.text, MAX_MESSAGE),
    priority: String(priority),
  });
  if (message.link && message.link.length <= MAX_URL) {
    form.set('url', message.link);
    form.set('url_title', 'Open in Vigil');
  }
  if (priority === 2) {
    form.set('retry', String(cfg.emergency_retry ?? DEFAULT_EMERGENCY.retry));
    form.set('expire', String(cfg.emergency_expire ?? DEFAULT_EMERGENCY.expire));
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

function post(deps: ChannelSendDeps, cfg: PushoverConfig, form: URLSearchParams) {
  return postToProvider(
    deps.http,
    'Pushover',
    {
      url: PUSHOVER_API,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    {
      secrets: [cfg.app_token, cfg.user_key],
      explain,
      // A 200 says status 1; anything else is no delivery.
      accepted: (answer) => (answer.json as { status?: unknown } | undefined)?.status === 1,
    },
  );
}

function alertForm(cfg: PushoverConfig, message: AlertMessage) {
  return pushoverForm(
    cfg,
    { title: message.title, text: plainText(message, false), link: message.link },
    message.tone === 'down',
  );
}

function digestForm(cfg: PushoverConfig, digest: Digest) {
  const message = describeDigest(digest);
  const head = clip(message.summary.join('\n'), MAX_MESSAGE / 2);
  const lines = linesWithin(message.lines, MAX_MESSAGE - head.length - 2, (line) => line.length);
  // A digest pages no one: emergency retries for a batch would repeat until acknowledged.
  return pushoverForm(
    { ...cfg, priority: Math.min(cfg.priority ?? 1, 1) },
    { title: message.title, text: [head, '', ...lines].join('\n') },
    digest.counts.down > 0,
  );
}

export const pushoverChannel = defineChannel({
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
  send: (deps, channel, alert: Alert) =>
    post(deps, channel.config, alertForm(channel.config, messageFor(channel, alert, deps.publicUrl))),
  sendDigest: (deps, channel, digest) => post(deps, channel.config, digestForm(channel.config, digest)),
});
