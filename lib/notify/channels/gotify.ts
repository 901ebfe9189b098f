import * as z from 'zod';
import { HTTP_URL_PATTERN } from '../../domain/formats.ts';
import { redactedView, shownSecret } from '../../providers/config-fields.ts';
import { field, type ProviderAnswer, postToProvider } from '../../providers/provider-post.ts';
import { type ChannelSendDeps, defineChannel } from './definition.ts';
import { describeDigest, linesWithin } from './digest-message.ts';
import { clip, messageFor, plainText } from './message.ts';

/**
 * Gotify (a self-hosted push server, https://gotify.net/api-docs): `POST {server}/message` with
 * the application's token in X-Gotify-Key and `{title, message, priority, extras}`. The message is
 * plain text (`client::display` text/plain, so user text never renders as Markdown) and a click
 * opens the console (`client::notification`). A change to down goes at the channel's priority
 * (8 by default: the Android app shows it as a pop-up with sound); everything else at 4.
 */

const MAX_URL_LENGTH = 2048;
const MAX_TOKEN_LENGTH = 512;
/** Gotify stores any length; phones show a few lines, so a digest keeps its text readable. */
const MAX_MESSAGE = 4000;
const OTHER_PRIORITY = 4;

function isServerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !url.search;
  } catch {
    return false;
  }
}

const config = z.strictObject({
  url: z
    .string()
    .max(MAX_URL_LENGTH, `Enter a URL of at most ${MAX_URL_LENGTH} characters.`)
    .refine(
      isServerUrl,
      "Enter the Gotify server's https:// address, such as https://gotify.example.com (http:// only for a server VIGIL_EGRESS_ALLOW allows).",
    )
    .meta({
      pattern: HTTP_URL_PATTERN,
      description:
        "The Gotify server's base URL; http:// only for a server in a range VIGIL_EGRESS_ALLOW allows",
    }),
  token: z
    .string()
    .min(1, "Enter the application's token.")
    .max(MAX_TOKEN_LENGTH, `Enter at most ${MAX_TOKEN_LENGTH} characters.`)
    .regex(/^[\x21-\x7e]+$/, 'Use printable ASCII characters without spaces.')
    .meta({ description: "The Gotify application's token (write-only)" }),
  priority: z
    .int('Enter a whole number from 0 to 10.')
    .min(0, 'Enter a priority from 0 to 10.')
    .max(10, 'Enter a priority from 0 to 10.')
    .optional()
    .meta({ description: 'The priority of a change to down: 0 to 10, 8 by default' }),
});
export type GotifyConfig = z.output<typeof config>;

/** The server's message endpoint: the base URL (perhaps under a reverse proxy's path) plus /message. */
function gotifyMessageUrl(base: string): string {
  return `${base.replace(/\/+$/, '')}/message`;
}

/** The message body Gotify's POST /message takes. */
function gotifyBody(
  message: { title: string; text: string; link?: string | undefined },
  priority: number,
): Record<string, unknown> {
  const extras: Record<string, unknown> = { 'client::display': { contentType: 'text/plain' } };
  if (message.link) extras['client::notification'] = { click: { url: message.link } };
  return { title: clip(message.title, 250), message: clip(message.text, MAX_MESSAGE), priority, extras };
}

/** `{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token..."}`. */
function explain(answer: ProviderAnswer): string | undefined {
  const error = field(answer.json, 'error');
  const description = field(answer.json, 'errorDescription');
  if (error === undefined && description === undefined) return undefined;
  return [error, description].filter((part) => part !== undefined).join(': ');
}

function post(deps: ChannelSendDeps, cfg: GotifyConfig, body: Record<string, unknown>) {
  return postToProvider(
    deps.http,
    'Gotify',
    {
      url: gotifyMessageUrl(cfg.url),
      headers: { 'content-type': 'application/json', 'x-gotify-key': cfg.token },
      body: JSON.stringify(body),
    },
    { secrets: [cfg.token], explain },
  );
}

export const gotifyChannel = defineChannel({
  label: 'Gotify',
  input: config,
  stored: z.object({ url: z.string(), token: z.string(), priority: z.int().optional() }),
  view: z.object({ url: z.string(), token: redactedView.optional(), priority: z.int().optional() }),
  secrets: ['token'],
  // The server's address is no secret (the token is): read-only keys see it.
  present: (cfg) => ({
    config: {
      url: cfg.url,
      ...shownSecret('token', cfg.token),
      ...(cfg.priority === undefined ? {} : { priority: cfg.priority }),
    },
  }),
  destinations: (cfg) => [{ path: 'config.url', url: gotifyMessageUrl(cfg.url) }],
  send: (deps, channel, alert) => {
    const message = messageFor(channel, alert, deps.publicUrl);
    const priority = message.tone === 'down' ? (channel.config.priority ?? 8) : OTHER_PRIORITY;
    const text = plainText(message, false);
    return post(
      deps,
      channel.config,
      gotifyBody({ title: message.title, text, link: message.link }, priority),
    );
  },
  sendDigest: (deps, channel, digest) => {
    const message = describeDigest(digest);
    const head = clip(message.summary.join('\n'), MAX_MESSAGE / 2);
    const lines = linesWithin(message.lines, MAX_MESSAGE - head.length - 2, (line) => line.length);
    const priority = digest.counts.down > 0 ? (channel.config.priority ?? 8) : OTHER_PRIORITY;
    const body = gotifyBody({ title: message.title, text: [head, '', ...lines].join('\n') }, priority);
    return post(deps, channel.config, body);
  },
});
