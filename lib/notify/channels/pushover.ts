import * as z from 'zod';
import { MAX_PUSHOVER_MESSAGE, PUSHOVER_API, PUSHOVER_KEY, sendPushover } from '../../providers/pushover.ts';
import type { Alert, Digest } from '../items/ports.ts';
import { redactedView, shownSecret } from './config-fields.ts';
import { type ChannelSendDeps, defineChannel } from './definition.ts';
import { describeDigest, linesWithin } from './digest-message.ts';
import { type AlertMessage, clip, messageFor, plainText } from './message.ts';
import { defineContactKind, httpOf, sendingFrom, sent } from './person-use.ts';

/**
 * Pushover's uses, its alert channel and people's Pushover (`pushoverPeople`), of the provider
 * (lib/providers/pushover.ts: one form-encoded POST per message with the application's token and
 * the user's or group's key, plain text). On the channel, a change
 * to down goes at the channel's priority (1, high, by default); with priority 2 (emergency)
 * Pushover repeats it every `emergency_retry` seconds until acknowledged or `emergency_expire` seconds pass. Everything
 * else (recoveries, degraded, tests, digests without a change to down) goes at priority 0.
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
  deps: ChannelSendDeps,
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

function sendAlert(deps: ChannelSendDeps, cfg: PushoverConfig, message: AlertMessage) {
  return post(
    deps,
    cfg,
    { title: message.title, text: plainText(message, false), link: message.link },
    message.tone === 'down',
  );
}

function sendDigest(deps: ChannelSendDeps, cfg: PushoverConfig, digest: Digest) {
  const message = describeDigest(digest);
  const head = clip(message.summary.join('\n'), MAX_PUSHOVER_MESSAGE / 2);
  const lines = linesWithin(message.lines, MAX_PUSHOVER_MESSAGE - head.length - 2, (line) => line.length);
  // A digest pages no one: emergency retries for a batch would repeat until acknowledged.
  return post(
    deps,
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
    sendAlert(deps, channel.config, messageFor(channel, alert, deps.publicUrl)),
  sendDigest: (deps, channel, digest) => sendDigest(deps, channel.config, digest),
});

/** The application of a shared Pushover channel. */
const application = z.object({ app_token: z.string() });

/**
 * People's Pushover: from the application of the account's shared Pushover channel, to the
 * person's user key.
 */
export const pushoverPeople = {
  pushover: defineContactKind({
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
          sendPushover(httpOf(deps), {
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
